// RUN: %e2e %s -o %t
// A matmul whose M, N, K (7, 13, 19) are not multiples of 8 or 16: exercises
// the partial tiles / remainder handling of the tiled and vectorized kernel.
// INPUT: 7x19xf32=random
// INPUT: 19x13xf32=random

func.func @main(%a: tensor<7x19xf32>, %b: tensor<19x13xf32>) -> tensor<7x13xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<7x13xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<7x13xf32>) -> tensor<7x13xf32>
  %r = linalg.matmul ins(%a, %b : tensor<7x19xf32>, tensor<19x13xf32>)
                     outs(%acc : tensor<7x13xf32>) -> tensor<7x13xf32>
  return %r : tensor<7x13xf32>
}
