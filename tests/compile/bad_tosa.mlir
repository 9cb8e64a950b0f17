// RUN: kiln-compile %s --split-input-file --verify-diagnostics
// RUN: kiln-compile %s --split-input-file --verify-diagnostics --tosa-validation=strict

// Tests that a TOSA validation finding other than element types outside the
// profiles (a level's rank limit the module declares) is an error, reported
// once, whether validation is lenient or strict.
module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [int16]>} {
func.func @main(%a: tensor<1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x2xf32> {
  // expected-error@+1 {{'tosa.add' op failed level check: operand rank(shape) <= MAX_RANK}}
  %r = tosa.add %a, %a : (tensor<1x1x1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x2xf32>
  return %r : tensor<1x1x1x1x1x1x1x2xf32>
}
}

// -----

// Tests that a TOSA op kiln cannot compile is named at its own line (not by
// what upstream converts it to), alone.
func.func @main(%values: tensor<1x4x2xf32>, %indices: tensor<1x2xi32>, %input: tensor<1x2x2xf32>) -> tensor<1x4x2xf32> {
  // expected-error@+1 {{'tosa.scatter' is not supported: its conversion reads and writes tensor elements at computed positions on the host}}
  %0 = tosa.scatter %values, %indices, %input : (tensor<1x4x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

// Tests that a TOSA op in a form upstream MLIR rejects is a clear error at
// its location, not a crash.
func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error@+1 {{'tosa.fft2d' op operand #0 must be 3-d tosa-conformant tensor, but}}
  %r, %i = tosa.fft2d %a, %b {inverse = false} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r, %i : tensor<8xf32>, tensor<8xf32>
}
