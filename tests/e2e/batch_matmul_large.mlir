// RUN: %e2e %s -o %t
// A larger batch_matmul, 4 x (64x96 * 96x80), several workgroups per batch.
// INPUT: 4x64x96xf32=random
// INPUT: 4x96x80xf32=random

func.func @main(%a: tensor<4x64x96xf32>, %b: tensor<4x96x80xf32>) -> tensor<4x64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x64x80xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x64x80xf32>) -> tensor<4x64x80xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x64x96xf32>, tensor<4x96x80xf32>)
                           outs(%acc : tensor<4x64x80xf32>) -> tensor<4x64x80xf32>
  return %r : tensor<4x64x80xf32>
}
