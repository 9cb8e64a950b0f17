// RUN: %e2e %s -o %t
// A transpose feeding a matmul (producer fusion into a contraction):
// C = transpose(A) * B with A stored 12x5.
// INPUT: 12x5xf32=random
// INPUT: 12x7xf32=random

func.func @main(%a: tensor<12x5xf32>, %b: tensor<12x7xf32>) -> tensor<5x7xf32> {
  %et = tensor.empty() : tensor<5x12xf32>
  %at = linalg.transpose ins(%a : tensor<12x5xf32>) outs(%et : tensor<5x12xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<5x7xf32>) -> tensor<5x7xf32>
  %r = linalg.matmul ins(%at, %b : tensor<5x12xf32>, tensor<12x7xf32>)
                     outs(%acc : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
