// RUN: %e2e %s -o %t
// The same dispatch applied three times in a chain (x -> relu(x*W) -> ...),
// so deduplicated executables run on each other's outputs.
// INPUT: 4x16xf32=random
// INPUT: 16x16xf32=random

func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m2 = linalg.matmul ins(%m1, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m3 = linalg.matmul ins(%m2, %w : tensor<4x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m3 : tensor<4x16xf32>
}
