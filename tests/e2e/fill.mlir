// RUN: %e2e %s -o %t
// linalg.fill of f32 and i32 tensors; the f32 fill is then added to an input
// so the result depends on both the fill and the argument.
// INPUT: 3x5xf32=random

func.func @main(%x: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<4x7xi32>) {
  %c = arith.constant 2.5 : f32
  %ci = arith.constant -7 : i32
  %e = tensor.empty() : tensor<3x5xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %sum = linalg.add ins(%x, %f : tensor<3x5xf32>, tensor<3x5xf32>)
                    outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %ei = tensor.empty() : tensor<4x7xi32>
  %fi = linalg.fill ins(%ci : i32) outs(%ei : tensor<4x7xi32>) -> tensor<4x7xi32>
  return %sum, %fi : tensor<3x5xf32>, tensor<4x7xi32>
}
