// RUN: %e2e %s -o %t
// tensor.concat along dim 1 of three inputs (2x3, 2x1, 2x4 -> 2x8), and along
// dim 0 of two.
// INPUT: 2x3xf32=iota
// INPUT: 2x1xf32=[[-1], [-2]]
// INPUT: 2x4xf32=random

func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>, %c: tensor<2x4xf32>)
    -> (tensor<2x8xf32>, tensor<4x4xf32>) {
  %r = tensor.concat dim(1) %a, %b, %c
      : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  %r0 = tensor.concat dim(0) %c, %c : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %r, %r0 : tensor<2x8xf32>, tensor<4x4xf32>
}
