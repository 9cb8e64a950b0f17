// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a TOSA op in a form upstream MLIR rejects is a clear error at its location, not a crash.
// CHECK: bad_tosa_unsupported.mlir:7:12: error: 'tosa.fft2d' op operand #0 must be 3-d tosa-conformant tensor, but
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r, %i = tosa.fft2d %a, %b {inverse = false} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r, %i : tensor<8xf32>, tensor<8xf32>
}
