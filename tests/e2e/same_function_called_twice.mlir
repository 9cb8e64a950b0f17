// RUN: %e2e %s -o %t
// The same function run twice with different inputs (two kiln-run
// invocations of one compiled module).
// ENTRY: main
// INPUT: 3x8xf32=random
// ENTRY: main
// INPUT: 3x8xf32=random(-10, 10)

func.func @main(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %e = tensor.empty() : tensor<3x8xf32>
  %r = linalg.tanh ins(%x : tensor<3x8xf32>) outs(%e : tensor<3x8xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}
