// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that an element type kiln cannot store is a clear error at its location, not a crash.
// CHECK: bad_complex_type.mlir:6:1: error: public function 'main' argument 0 has type 'tensor<4xcomplex<f32>>';
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}
