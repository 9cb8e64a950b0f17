// RUN: %e2e %s -o %t
// Reshape edge cases: expand a 0-d tensor to 1x1, collapse 1x1 back to 0-d,
// and collapse/expand unit dimensions around a computation.
// INPUT: f32=1.25
// INPUT: 1x6x1xf32=random

func.func @main(%s: tensor<f32>, %v: tensor<1x6x1xf32>) -> (tensor<1x1xf32>, tensor<f32>, tensor<2x1x3xf32>) {
  %x = tensor.expand_shape %s [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  %e = tensor.empty() : tensor<1x1xf32>
  %y = linalg.add ins(%x, %x : tensor<1x1xf32>, tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %z = tensor.collapse_shape %y [] : tensor<1x1xf32> into tensor<f32>
  %flat = tensor.collapse_shape %v [[0, 1, 2]] : tensor<1x6x1xf32> into tensor<6xf32>
  %e6 = tensor.empty() : tensor<6xf32>
  %ex = linalg.exp ins(%flat : tensor<6xf32>) outs(%e6 : tensor<6xf32>) -> tensor<6xf32>
  %w = tensor.expand_shape %ex [[0, 1, 2]] output_shape [2, 1, 3] : tensor<6xf32> into tensor<2x1x3xf32>
  return %y, %z, %w : tensor<1x1xf32>, tensor<f32>, tensor<2x1x3xf32>
}
