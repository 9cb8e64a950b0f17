// RUN: kiln-compile %s -o %t.kiln
// RUN: not kiln-check %t.kiln > %t.out
// RUN: FileCheck %s < %t.out
// Deliberately wrong expectations: proves that kiln-check reports failures
// (with the expected and actual values, the type and the first differing
// index) and exits nonzero. One function passes.

// CHECK: {{^}}passing_check: PASS
// CHECK-NEXT: {{^}}wrong_expect_eq_const: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected 4xi32=1 2 5 4, got 4xi32=1 2 3 4; first difference at [2]: expected 5, got 3{{$}}
// CHECK-NEXT: {{^}}wrong_expect_almost_eq_const: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected 2x2xf32=[1 2][3 4.5], got 2x2xf32=[1 2][3 4]; first difference at [1, 1]: expected 4.5, got 4; max absolute difference 0.5 (atol {{.+}}, rtol 0)
// CHECK-NEXT: {{^}}failing_expect_true: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected a nonzero value, got i32=0
// CHECK-NEXT: {{^}}1 passed, 3 failed

func.func @passing_check() {
  %0 = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %1 = tosa.abs %0 : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[1, 2, 3, 4]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// The third element is wrong on purpose.
func.func @wrong_expect_eq_const() {
  %0 = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %1 = tosa.abs %0 : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[1, 2, 5, 4]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// The last element is 0.5 off, far beyond the default atol of 1e-4.
func.func @wrong_expect_almost_eq_const() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = tosa.abs %0 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[1.0, 2.0], [3.0, 4.5]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

func.func @failing_expect_true() {
  %0 = util.unfoldable_constant 3 : i32
  %1 = arith.subi %0, %0 : i32
  check.expect_true(%1) : i32
  return
}
