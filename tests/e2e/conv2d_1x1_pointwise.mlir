// RUN: %e2e %s -o %t
// A 1x1 (pointwise) convolution, batch 3: 3x5x6x7 * 1x1x7x4 -> 3x5x6x4.
// INPUT: 3x5x6x7xf32=random
// INPUT: 1x1x7x4xf32=random

func.func @main(%in: tensor<3x5x6x7xf32>, %filter: tensor<1x1x7x4xf32>) -> tensor<3x5x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x5x6x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x5x6x4xf32>) -> tensor<3x5x6x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<3x5x6x7xf32>, tensor<1x1x7x4xf32>)
      outs(%acc : tensor<3x5x6x4xf32>) -> tensor<3x5x6x4xf32>
  return %r : tensor<3x5x6x4xf32>
}
