// RUN: %e2e %s -o %t
// Mixed precision matmul: f16 operands, f32 accumulator (linalg.matmul
// extends the inputs to f32).
// INPUT: 6x24xf16=random
// INPUT: 24x10xf16=random

func.func @main(%a: tensor<6x24xf16>, %b: tensor<24x10xf16>) -> tensor<6x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x10xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6x10xf32>) -> tensor<6x10xf32>
  %r = linalg.matmul ins(%a, %b : tensor<6x24xf16>, tensor<24x10xf16>)
                     outs(%acc : tensor<6x10xf32>) -> tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}
