// RUN: %e2e %s -o %t
// "same" convolution: zero padding by tensor.pad (1 on each side of H and W),
// then conv_2d_nhwc_hwcf 3x3 stride 1, plus a bias: 1x7x7x4 -> 1x7x7x8.
// INPUT: 1x7x7x4xf32=random
// INPUT: 3x3x4x8xf32=random
// INPUT: 8xf32=random

func.func @main(%in: tensor<1x7x7x4xf32>, %filter: tensor<3x3x4x8xf32>, %bias: tensor<8xf32>) -> tensor<1x7x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x7x7x4xf32> to tensor<1x9x9x4xf32>
  %empty = tensor.empty() : tensor<1x7x7x8xf32>
  %init = linalg.broadcast ins(%bias : tensor<8xf32>) outs(%empty : tensor<1x7x7x8xf32>)
      dimensions = [0, 1, 2]
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %filter : tensor<1x9x9x4xf32>, tensor<3x3x4x8xf32>)
      outs(%init : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %r : tensor<1x7x7x8xf32>
}
