// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a public function returning a scalar is a clear error at its location, not a crash.
// CHECK: bad_scalar_result.mlir:6:1: error: public function 'main' result 0 has type 'f32'; kiln functions take
func.func @main(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %a[%c0] : tensor<4xf32>
  return %v : f32
}
