// RUN: %e2e %s -o %t
// Named elementwise linalg ops chained: sub, mul, div, max, negf, abs.
// INPUT: 3x4x5xf32=random
// INPUT: 3x4x5xf32=random(0.5, 2.0)

func.func @main(%x: tensor<3x4x5xf32>, %y: tensor<3x4x5xf32>) -> tensor<3x4x5xf32> {
  %e = tensor.empty() : tensor<3x4x5xf32>
  %s = linalg.sub ins(%x, %y : tensor<3x4x5xf32>, tensor<3x4x5xf32>) outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %m = linalg.mul ins(%s, %x : tensor<3x4x5xf32>, tensor<3x4x5xf32>) outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %d = linalg.div ins(%m, %y : tensor<3x4x5xf32>, tensor<3x4x5xf32>) outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %n = linalg.negf ins(%d : tensor<3x4x5xf32>) outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %a = linalg.abs ins(%x : tensor<3x4x5xf32>) outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %r = linalg.max ins(%n, %a : tensor<3x4x5xf32>, tensor<3x4x5xf32>) outs(%e : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %r : tensor<3x4x5xf32>
}
