// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that an unranked tensor argument is a clear error at its location, not a crash.
// CHECK: bad_unranked.mlir:6:1: error: public function 'main' argument 0 has type 'tensor<*xf32>'; kiln
func.func @main(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
