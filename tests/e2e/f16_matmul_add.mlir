// RUN: %e2e %s -o %t
// f16: a small matmul (f16 accumulation) plus an elementwise add.
// INPUT: 4x8xf16=random
// INPUT: 8x6xf16=random
// INPUT: 4x6xf16=random

func.func @main(%a: tensor<4x8xf16>, %b: tensor<8x6xf16>, %c: tensor<4x6xf16>) -> tensor<4x6xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x6xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<4x6xf16>) -> tensor<4x6xf16>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x6xf16>)
                     outs(%acc : tensor<4x6xf16>) -> tensor<4x6xf16>
  %r = linalg.add ins(%m, %c : tensor<4x6xf16>, tensor<4x6xf16>)
                  outs(%e : tensor<4x6xf16>) -> tensor<4x6xf16>
  return %r : tensor<4x6xf16>
}
