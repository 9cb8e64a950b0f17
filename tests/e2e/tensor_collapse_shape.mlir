// RUN: %e2e %s -o %t
// tensor.collapse_shape 2x3x4x5 -> 6x20 of a computed tensor, then a row sum,
// and the collapsed tensor itself returned.
// INPUT: 2x3x4x5xf32=random

func.func @main(%x: tensor<2x3x4x5xf32>) -> (tensor<6x20xf32>, tensor<6xf32>) {
  %e4 = tensor.empty() : tensor<2x3x4x5xf32>
  %sq = linalg.mul ins(%x, %x : tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>)
                   outs(%e4 : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %c = tensor.collapse_shape %sq [[0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %s = linalg.reduce ins(%c : tensor<6x20xf32>) outs(%acc : tensor<6xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %t = arith.addf %a, %o : f32
      linalg.yield %t : f32
    }
  return %c, %s : tensor<6x20xf32>, tensor<6xf32>
}
