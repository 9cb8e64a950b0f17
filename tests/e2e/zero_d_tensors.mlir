// RUN: %e2e %s -o %t
// 0-d tensors as inputs and results: elementwise ops on tensor<f32>, and a
// 0-d value broadcast into a 1-D tensor.
// INPUT: f32=2.5
// INPUT: f32=-0.75
// INPUT: 4xf32=[1, 2, 3, 4]

func.func @main(%a: tensor<f32>, %b: tensor<f32>, %v: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<f32>
  %m = linalg.mul ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.add ins(%m, %a : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) -> tensor<f32>
  %e4 = tensor.empty() : tensor<4xf32>
  %bc = linalg.broadcast ins(%s : tensor<f32>) outs(%e4 : tensor<4xf32>) dimensions = [0]
  %r = linalg.mul ins(%bc, %v : tensor<4xf32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  return %s, %r : tensor<f32>, tensor<4xf32>
}
