// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s

// Tests that a dynamic shape is reported at the argument that has it.
// CHECK: bad_dynamic_shape.mlir:5:1: error: dynamic shapes are not supported: 'tensor<?x4xf32>'
func.func @main(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %a : tensor<?x4xf32>
}
