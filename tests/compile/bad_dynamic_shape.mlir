// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s

// Tests that a dynamic shape is reported at the argument that has it, with
// what would make it static.
// CHECK: bad_dynamic_shape.mlir:6:1: error: dynamic shapes are not supported: 'tensor<?x4xf32>' has sizes known only at run time (a size the program states, or one a helper's call site gives, is static after inlining)
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}
