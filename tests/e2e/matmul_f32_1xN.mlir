// RUN: %e2e %s -o %t
// A vector-matrix product (M = 1) with an odd N: 1x64 * 64x33.
// INPUT: 1x64xf32=random
// INPUT: 64x33xf32=random

func.func @main(%a: tensor<1x64xf32>, %b: tensor<64x33xf32>) -> tensor<1x33xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x33xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x33xf32>) -> tensor<1x33xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x64xf32>, tensor<64x33xf32>)
                     outs(%acc : tensor<1x33xf32>) -> tensor<1x33xf32>
  return %r : tensor<1x33xf32>
}
