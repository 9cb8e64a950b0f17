// RUN: %e2e %s -o %t
// linalg.transpose of a 3-D tensor with permutation [2, 0, 1]: 3x5x7 -> 7x3x5.
// INPUT: 3x5x7xf32=iota

func.func @main(%x: tensor<3x5x7xf32>) -> tensor<7x3x5xf32> {
  %empty = tensor.empty() : tensor<7x3x5xf32>
  %r = linalg.transpose ins(%x : tensor<3x5x7xf32>) outs(%empty : tensor<7x3x5xf32>)
      permutation = [2, 0, 1]
  return %r : tensor<7x3x5xf32>
}
