// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a program on buffers instead of tensors is a clear error at its location, not a crash.
// CHECK: bad_memref_input.mlir:6:1: error: public function 'main' argument 0 has type 'memref<4xf32>'; kiln
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}
