// RUN: %e2e %s -o %t
// linalg.broadcast of a 1-D tensor into dims 0 and 2 of a 3-D tensor, added
// to an input.
// INPUT: 4xf32=[1, 2, 3, 4]
// INPUT: 2x4x3xf32=random

func.func @main(%v: tensor<4xf32>, %x: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %empty = tensor.empty() : tensor<2x4x3xf32>
  %b = linalg.broadcast ins(%v : tensor<4xf32>) outs(%empty : tensor<2x4x3xf32>)
      dimensions = [0, 2]
  %r = linalg.add ins(%b, %x : tensor<2x4x3xf32>, tensor<2x4x3xf32>)
                  outs(%empty : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}
