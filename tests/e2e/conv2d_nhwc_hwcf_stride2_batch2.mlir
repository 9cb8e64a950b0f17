// RUN: %e2e %s -o %t
// conv_2d_nhwc_hwcf with stride 2 and batch 2, odd sizes:
// 2x11x9x5 * 3x3x5x6 -> 2x5x4x6 (H: (11-3)/2+1 = 5, W: (9-3)/2+1 = 4).
// INPUT: 2x11x9x5xf32=random
// INPUT: 3x3x5x6xf32=random

func.func @main(%in: tensor<2x11x9x5xf32>, %filter: tensor<3x3x5x6xf32>) -> tensor<2x5x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x5x4x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x5x4x6xf32>) -> tensor<2x5x4x6xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %filter : tensor<2x11x9x5xf32>, tensor<3x3x5x6xf32>)
      outs(%acc : tensor<2x5x4x6xf32>) -> tensor<2x5x4x6xf32>
  return %r : tensor<2x5x4x6xf32>
}
