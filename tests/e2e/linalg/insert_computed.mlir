// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// tensor.insert at positions the program computes. An index out of range
// (undefined in MLIR) is clamped into the tensor, as XLA clamps a
// dynamic-update-slice: it writes the nearest element, never past the buffer.

// CHECK: {{^}}insert_computed_1d: PASS
// CHECK: {{^}}insert_computed_2d: PASS
// CHECK: {{^}}insert_loop_index: PASS
// CHECK: {{^}}insert_out_of_range_clamps: PASS
// CHECK: {{^}}4 passed, 0 failed

func.func @insert_computed_1d() {
  %t = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %i = util.unfoldable_constant 1 : index
  %c2 = arith.constant 2 : index
  %j = arith.addi %i, %c2 : index
  %v = arith.constant 9.0 : f32
  %r = tensor.insert %v into %t[%j] : tensor<5xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, 2.0, 3.0, 9.0, 5.0]> : tensor<5xf32>) : tensor<5xf32>
  check.expect_almost_eq_const(%t, dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @insert_computed_2d() {
  %t = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = util.unfoldable_constant 1 : index
  %j = util.unfoldable_constant 0 : index
  %v = util.unfoldable_constant 70 : i32
  %r = tensor.insert %v into %t[%i, %j] : tensor<2x3xi32>
  check.expect_eq_const(%r, dense<[[1, 2, 3], [70, 5, 6]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// Each iteration writes its own index at its own position.
func.func @insert_loop_index() {
  %init = util.unfoldable_constant dense<0> : tensor<4xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> tensor<4xi64> {
    %v = arith.index_cast %k : index to i64
    %next = tensor.insert %v into %acc[%k] : tensor<4xi64>
    scf.yield %next : tensor<4xi64>
  }
  check.expect_eq_const(%r, dense<[0, 1, 2, 3]> : tensor<4xi64>) : tensor<4xi64>
  return
}

func.func @insert_out_of_range_clamps() {
  %t = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %huge = util.unfoldable_constant 100000000 : index
  %negative = util.unfoldable_constant -7 : index
  %a = arith.constant 8.0 : f32
  %b = arith.constant 9.0 : f32
  %r0 = tensor.insert %a into %t[%huge] : tensor<4xf32>
  %r1 = tensor.insert %b into %r0[%negative] : tensor<4xf32>
  check.expect_almost_eq_const(%r1, dense<[9.0, 2.0, 3.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
