// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a call the inliner cannot remove (recursion) is a clear error at its location, not a crash.
// CHECK: bad_recursive_call.mlir:7:8: error: 'func.call' cannot run on the host
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @main(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
