// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a call to a function that does not exist is a clear error at its location, not a crash.
// CHECK: bad_undefined_call.mlir:7:8: error: 'func.call' op 'missing' does not reference a valid
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
