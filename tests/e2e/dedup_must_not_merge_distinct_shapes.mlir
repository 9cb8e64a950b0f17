// RUN: %e2e %s -o %t
// The same op (tanh) on two different shapes, and the same matmul shape with
// transposed operand layouts: structurally similar dispatches that must stay
// distinct executables.
// INPUT: 3x5xf32=random
// INPUT: 5x3xf32=random
// INPUT: 4x4xf32=random
// INPUT: 4x4xf32=random

func.func @main(%x: tensor<3x5xf32>, %y: tensor<5x3xf32>, %a: tensor<4x4xf32>, %b: tensor<4x4xf32>)
    -> (tensor<3x5xf32>, tensor<5x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %e35 = tensor.empty() : tensor<3x5xf32>
  %e53 = tensor.empty() : tensor<5x3xf32>
  %t1 = linalg.tanh ins(%x : tensor<3x5xf32>) outs(%e35 : tensor<3x5xf32>) -> tensor<3x5xf32>
  %t2 = linalg.tanh ins(%y : tensor<5x3xf32>) outs(%e53 : tensor<5x3xf32>) -> tensor<5x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t1, %t2, %m1, %m2 : tensor<3x5xf32>, tensor<5x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
