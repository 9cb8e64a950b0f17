// RUN: %e2e %s -o %t
// linalg.reduce (the named reduction op) over the middle dimension of a 3-D
// tensor: 4x50x6 -> 4x6.
// INPUT: 4x50x6xf32=random

func.func @main(%x: tensor<4x50x6xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.reduce ins(%x : tensor<4x50x6xf32>) outs(%acc : tensor<4x6xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4x6xf32>
}
