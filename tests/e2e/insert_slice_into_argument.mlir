// RUN: %e2e %s -o %t
// tensor.insert_slice into a function argument, returning both the updated
// tensor and the original argument (which must keep its old values).
// INPUT: 5x5xf32=iota
// INPUT: 2x3xf32=[[-1, -2, -3], [-4, -5, -6]]

func.func @main(%dst: tensor<5x5xf32>, %src: tensor<2x3xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>) {
  %r = tensor.insert_slice %src into %dst[3, 1] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<5x5xf32>
  return %r, %dst : tensor<5x5xf32>, tensor<5x5xf32>
}
