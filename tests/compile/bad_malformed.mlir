// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a syntax error is reported at its line and no module is written.
// CHECK: bad_malformed.mlir:9:{{[0-9]+}}: error:
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32
}
