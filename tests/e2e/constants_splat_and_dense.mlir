// RUN: %e2e %s -o %t
// Dense constants: a splat, a non-splat f32 matrix and a non-splat i32 vector,
// combined with an input.
// INPUT: 2x3xf32=random

func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  %splat = arith.constant dense<0.75> : tensor<2x3xf32>
  %mat = arith.constant dense<[[1.0, -2.0, 3.5], [0.125, 10.0, -0.5]]> : tensor<2x3xf32>
  %vec = arith.constant dense<[3, -1, 4, 100000]> : tensor<4xi32>
  %vec2 = arith.constant dense<2> : tensor<4xi32>
  %e = tensor.empty() : tensor<2x3xf32>
  %m = linalg.mul ins(%x, %mat : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.add ins(%m, %splat : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %ri = linalg.mul ins(%vec, %vec2 : tensor<4xi32>, tensor<4xi32>) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  return %r, %ri : tensor<2x3xf32>, tensor<4xi32>
}
