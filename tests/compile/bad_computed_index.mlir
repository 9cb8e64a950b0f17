// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a host read at a computed position is a clear error at its location, not a crash.
// CHECK: bad_computed_index.mlir:9:8: error: reading a tensor element at a computed position on the host is not
func.func @main(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %ii = tensor.extract %i[] : tensor<i32>
  %idx = arith.index_cast %ii : i32 to index
  %v = tensor.extract %a[%idx] : tensor<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
