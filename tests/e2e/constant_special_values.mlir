// RUN: %e2e %s -o %t
// Constants holding special float values (nan, inf, -inf, -0.0, denormal)
// returned directly and used by an elementwise op.
// INPUT: 6xf32=[1, 1, 1, 1, 1, 1]

func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %c = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0, 1.0e-40, 3.4028235e38]> : tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.mul ins(%c, %x : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  return %c, %r : tensor<6xf32>, tensor<6xf32>
}
