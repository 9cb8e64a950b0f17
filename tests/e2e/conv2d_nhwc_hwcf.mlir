// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.variants --variants=x86-64-v4,x86-64-v3,x86-64
// conv_2d_nhwc_hwcf, stride 1, no padding: 1x8x8x3 * 3x3x3x4 -> 1x6x6x4.
// INPUT: 1x8x8x3xf32=random
// INPUT: 3x3x3x4xf32=random

func.func @main(%in: tensor<1x8x8x3xf32>, %filter: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x6x6x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
      outs(%acc : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
