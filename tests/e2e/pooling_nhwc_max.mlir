// RUN: %e2e %s -o %t
// pooling_nhwc_max 2x2 stride 2, initialized with -inf: 1x8x8x3 -> 1x4x4x3.
// INPUT: 1x8x8x3xf32=random

func.func @main(%in: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %empty = tensor.empty() : tensor<1x4x4x3xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%empty : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %window : tensor<1x8x8x3xf32>, tensor<2x2xf32>)
      outs(%acc : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %r : tensor<1x4x4x3xf32>
}
