// RUN: %e2e %s -o %t
// pooling_nhwc_max with a 2x3 window, dilation 2 and stride (1, 2):
// 2x9x11x3 -> 2x7x4x3 (H: 9 - 2*1 = 7; W: (11 - 2*2 - 1)/2 + 1 = 4).
// INPUT: 2x9x11x3xf32=random

func.func @main(%in: tensor<2x9x11x3xf32>) -> tensor<2x7x4x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<2x3xf32>
  %empty = tensor.empty() : tensor<2x7x4x3xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<2x7x4x3xf32>) -> tensor<2x7x4x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<2> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
      ins(%in, %window : tensor<2x9x11x3xf32>, tensor<2x3xf32>)
      outs(%acc : tensor<2x7x4x3xf32>) -> tensor<2x7x4x3xf32>
  return %r : tensor<2x7x4x3xf32>
}
