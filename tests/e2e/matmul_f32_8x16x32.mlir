// RUN: %e2e %s -o %t
// A plain f32 matmul whose sizes are multiples of the usual tile sizes.
// INPUT: 8x16xf32=random
// INPUT: 16x32xf32=random

func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>)
                     outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
