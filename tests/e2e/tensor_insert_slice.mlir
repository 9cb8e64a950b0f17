// RUN: %e2e %s -o %t
// tensor.insert_slice of a computed 3x4 tile into a 6x8 input at [2, 3], and
// a strided insert of a 2x2 tile into a zero tensor.
// INPUT: 6x8xf32=random
// INPUT: 3x4xf32=random
// INPUT: 2x2xf32=[[1, 2], [3, 4]]

func.func @main(%dst: tensor<6x8xf32>, %tile: tensor<3x4xf32>, %small: tensor<2x2xf32>)
    -> (tensor<6x8xf32>, tensor<5x5xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %t = linalg.exp ins(%tile : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %r = tensor.insert_slice %t into %dst[2, 3] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<6x8xf32>
  %zero = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<5x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e5 : tensor<5x5xf32>) -> tensor<5x5xf32>
  %s = tensor.insert_slice %small into %z[1, 0] [2, 2] [2, 3] : tensor<2x2xf32> into tensor<5x5xf32>
  return %r, %s : tensor<6x8xf32>, tensor<5x5xf32>
}
