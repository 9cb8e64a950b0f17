// RUN: %e2e %s -o %t
// A function with four results of different types and shapes, from
// independent dispatches, returned in an order unrelated to computation order.
// INPUT: 4x5xf32=random
// INPUT: 6xi32=random

func.func @main(%x: tensor<4x5xf32>, %n: tensor<6xi32>)
    -> (tensor<6xi32>, tensor<5x4xf32>, tensor<4x5xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4x5xf32>
  %ex = linalg.exp ins(%x : tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %et = tensor.empty() : tensor<5x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x5xf32>) outs(%et : tensor<5x4xf32>) permutation = [1, 0]
  %ei = tensor.empty() : tensor<6xi32>
  %n2 = linalg.mul ins(%n, %n : tensor<6xi32>, tensor<6xi32>) outs(%ei : tensor<6xi32>) -> tensor<6xi32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %y = arith.addf %a, %o : f32
      linalg.yield %y : f32
    }
  return %n2, %t, %ex, %s : tensor<6xi32>, tensor<5x4xf32>, tensor<4x5xf32>, tensor<4xf32>
}
