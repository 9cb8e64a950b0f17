// RUN: %e2e %s -o %t
// Tensors with a zero-sized dimension: an elementwise op over 0x5 and a
// reduction over an empty dimension (5x0 -> 5, result is the fill value).
// INPUT: 0x5xf32
// INPUT: 5x0xf32

func.func @main(%x: tensor<0x5xf32>, %y: tensor<5x0xf32>) -> (tensor<0x5xf32>, tensor<5xf32>) {
  %e = tensor.empty() : tensor<0x5xf32>
  %r = linalg.exp ins(%x : tensor<0x5xf32>) outs(%e : tensor<0x5xf32>) -> tensor<0x5xf32>
  %one = arith.constant 1.0 : f32
  %er = tensor.empty() : tensor<5xf32>
  %acc = linalg.fill ins(%one : f32) outs(%er : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.reduce ins(%y : tensor<5x0xf32>) outs(%acc : tensor<5xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %t = arith.addf %a, %o : f32
      linalg.yield %t : f32
    }
  return %r, %s : tensor<0x5xf32>, tensor<5xf32>
}
