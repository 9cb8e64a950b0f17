// RUN: %e2e %s -o %t
// bf16 operands with an f32 accumulator (bf16 inputs reach kiln-run as text).
// INPUT: 5x16xbf16=random
// INPUT: 16x7xbf16=random

func.func @main(%a: tensor<5x16xbf16>, %b: tensor<16x7xbf16>) -> tensor<5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x7xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<5x7xf32>) -> tensor<5x7xf32>
  %r = linalg.matmul ins(%a, %b : tensor<5x16xbf16>, tensor<16x7xbf16>)
                     outs(%acc : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
