// RUN: %e2e %s -o %t
// A function without arguments returning constants (a non-splat f32 and a
// splat i32): no dispatch, the result is the module's constant data.

func.func @main() -> (tensor<2x3xf32>, tensor<4xi32>) {
  %c = arith.constant dense<[[1.5, -2.0, 3.25], [0.0, 1.0e-3, -7.0e5]]> : tensor<2x3xf32>
  %s = arith.constant dense<42> : tensor<4xi32>
  return %c, %s : tensor<2x3xf32>, tensor<4xi32>
}
