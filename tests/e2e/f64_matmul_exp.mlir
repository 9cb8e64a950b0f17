// RUN: %e2e %s -o %t
// f64: a matmul followed by exp, checked at double precision.
// INPUT: 5x9xf64=random
// INPUT: 9x6xf64=random

func.func @main(%a: tensor<5x9xf64>, %b: tensor<9x6xf64>) -> tensor<5x6xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<5x6xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<5x6xf64>) -> tensor<5x6xf64>
  %m = linalg.matmul ins(%a, %b : tensor<5x9xf64>, tensor<9x6xf64>)
                     outs(%acc : tensor<5x6xf64>) -> tensor<5x6xf64>
  %r = linalg.exp ins(%m : tensor<5x6xf64>) outs(%e : tensor<5x6xf64>) -> tensor<5x6xf64>
  return %r : tensor<5x6xf64>
}
