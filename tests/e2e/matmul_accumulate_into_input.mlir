// RUN: %e2e %s -o %t
// A matmul that accumulates into a caller-provided tensor (C += A * B), not
// into a zero fill: the initial value of the output operand must be kept.
// INPUT: 5x6xf32=random
// INPUT: 6x4xf32=random
// INPUT: 5x4xf32=random

func.func @main(%a: tensor<5x6xf32>, %b: tensor<6x4xf32>, %c: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x6xf32>, tensor<6x4xf32>)
                     outs(%c : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
