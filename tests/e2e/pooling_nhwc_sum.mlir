// RUN: %e2e %s -o %t
// pooling_nhwc_sum 3x3 stride 1: 2x6x7x5 -> 2x4x5x5.
// INPUT: 2x6x7x5xf32=random

func.func @main(%in: tensor<2x6x7x5xf32>) -> tensor<2x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %empty = tensor.empty() : tensor<2x4x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %window : tensor<2x6x7x5xf32>, tensor<3x3xf32>)
      outs(%acc : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  return %r : tensor<2x4x5x5xf32>
}
