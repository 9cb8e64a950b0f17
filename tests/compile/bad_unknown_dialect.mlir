// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that an op of a dialect kiln does not know is a clear error at its location, not a crash.
// CHECK: bad_unknown_dialect.mlir:7:17: error: operation being parsed with an unregistered dialect. If this is
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "foo.bar"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
