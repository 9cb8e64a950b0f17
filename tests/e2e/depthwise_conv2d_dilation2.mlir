// RUN: %e2e %s -o %t
// depthwise_conv_2d_nhwc_hwc with dilation 2 and stride 1, 6 channels:
// 1x10x10x6 * 3x3x6 -> 1x6x6x6.
// INPUT: 1x10x10x6xf32=random
// INPUT: 3x3x6xf32=random

func.func @main(%in: tensor<1x10x10x6xf32>, %filter: tensor<3x3x6xf32>) -> tensor<1x6x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x6x6x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x10x10x6xf32>, tensor<3x3x6xf32>)
      outs(%acc : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  return %r : tensor<1x6x6x6xf32>
}
