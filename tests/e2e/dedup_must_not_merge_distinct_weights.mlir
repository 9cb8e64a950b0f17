// RUN: %e2e %s -o %t
// Two matmuls against different constant weights of the same shape: if the
// weights end up inside the dispatches, deduplication must compare them.
// INPUT: 2x4xf32=random

func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %w1 = arith.constant dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]> : tensor<4x3xf32>
  %w2 = arith.constant dense<[[2.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 4.0], [-1.0, -1.0, -1.0]]> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<2x3xf32>) -> tensor<2x3xf32>
  %m2 = linalg.matmul ins(%x, %w2 : tensor<2x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %m1, %m2 : tensor<2x3xf32>, tensor<2x3xf32>
}
