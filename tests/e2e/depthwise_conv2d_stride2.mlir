// RUN: %e2e %s -o %t
// depthwise_conv_2d_nhwc_hwc, stride 2, 5 channels: 2x10x10x5 * 3x3x5 -> 2x4x4x5.
// INPUT: 2x10x10x5xf32=random
// INPUT: 3x3x5xf32=random

func.func @main(%in: tensor<2x10x10x5xf32>, %filter: tensor<3x3x5xf32>) -> tensor<2x4x4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x4x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %filter : tensor<2x10x10x5xf32>, tensor<3x3x5xf32>)
      outs(%acc : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  return %r : tensor<2x4x4x5xf32>
}
