// RUN: %e2e %s -o %t
// conv_2d_nhwc_hwcf with dilation 2 (effective 5x5 window): 1x9x9x2 -> 1x5x5x3.
// INPUT: 1x9x9x2xf32=random
// INPUT: 3x3x2x3xf32=random

func.func @main(%in: tensor<1x9x9x2xf32>, %filter: tensor<3x3x2x3xf32>) -> tensor<1x5x5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x5x5x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x9x9x2xf32>, tensor<3x3x2x3xf32>)
      outs(%acc : tensor<1x5x5x3xf32>) -> tensor<1x5x5x3xf32>
  return %r : tensor<1x5x5x3xf32>
}
