// RUN: %e2e %s -o %t
// linalg.batch_matmul with small odd sizes: B=3, M=5, K=7, N=9.
// INPUT: 3x5x7xf32=random
// INPUT: 3x7x9xf32=random

func.func @main(%a: tensor<3x5x7xf32>, %b: tensor<3x7x9xf32>) -> tensor<3x5x9xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x5x9xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x5x9xf32>) -> tensor<3x5x9xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x5x7xf32>, tensor<3x7x9xf32>)
                           outs(%acc : tensor<3x5x9xf32>) -> tensor<3x5x9xf32>
  return %r : tensor<3x5x9xf32>
}
