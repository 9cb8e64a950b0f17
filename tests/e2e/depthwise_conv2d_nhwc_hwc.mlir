// RUN: %e2e %s -o %t
// depthwise_conv_2d_nhwc_hwc, stride 1: 1x9x9x4 * 3x3x4 -> 1x7x7x4.
// INPUT: 1x9x9x4xf32=random
// INPUT: 3x3x4xf32=random

func.func @main(%in: tensor<1x9x9x4xf32>, %filter: tensor<3x3x4xf32>) -> tensor<1x7x7x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x7x7x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x7x7x4xf32>) -> tensor<1x7x7x4xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x9x9x4xf32>, tensor<3x3x4xf32>)
      outs(%acc : tensor<1x7x7x4xf32>) -> tensor<1x7x7x4xf32>
  return %r : tensor<1x7x7x4xf32>
}
