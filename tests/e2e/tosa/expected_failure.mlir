// RUN: kiln-compile %s -o %t.kiln
// RUN: not kiln-check --guard-pages %t.kiln > %t.out
// RUN: FileCheck %s < %t.out
// Deliberately wrong expectations: proves that kiln-check reports failures
// (with the expected and actual values, the type and the first differing
// index) and exits nonzero, for every check kind: against a constant and
// between two computed values, expect_true and expect_false. One function
// passes.

// CHECK: {{^}}passing_check: PASS
// CHECK-NEXT: {{^}}wrong_expect_eq_const: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected 4xi32=1 2 5 4, got 4xi32=1 2 3 4; first difference at [2]: expected 5, got 3{{$}}
// CHECK-NEXT: {{^}}wrong_expect_almost_eq_const: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected 2x2xf32=[1 2][3 4.5], got 2x2xf32=[1 2][3 4]; first difference at [1, 1]: expected 4.5, got 4; max absolute difference 0.5 (atol {{.+}}, rtol 0)
// CHECK-NEXT: {{^}}failing_expect_true: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected a nonzero value, got i32=0
// CHECK-NEXT: {{^}}failing_expect_false: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected zero, got i32=6{{$}}
// CHECK-NEXT: {{^}}wrong_expect_eq: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected 3xi32=1 2 4, got 3xi32=1 2 3; first difference at [2]: expected 4, got 3{{$}}
// CHECK-NEXT: {{^}}wrong_expect_almost_eq: FAIL
// CHECK-NEXT: {{^}}  check failed at {{.*}}expected_failure.mlir:{{[0-9]+}}:{{[0-9]+}}: expected 2x2xf32=[1 2.25][3 4], got 2x2xf32=[1 2][3 4]; first difference at [0, 1]: expected 2.25, got 2; max absolute difference 0.25 (atol 0.1, rtol 0){{$}}
// CHECK-NEXT: {{^}}1 passed, 6 failed

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

// The value is nonzero on purpose.
func.func @failing_expect_false() {
  %0 = util.unfoldable_constant 3 : i32
  %1 = arith.addi %0, %0 : i32
  check.expect_false(%1) : i32
  return
}

// Two computed tensors (neither side a constant) that differ at [2].
func.func @wrong_expect_eq() {
  %0 = util.unfoldable_constant dense<[1, -2, 3]> : tensor<3xi32>
  %1 = util.unfoldable_constant dense<[-1, 2, -4]> : tensor<3xi32>
  %2 = tosa.abs %0 : (tensor<3xi32>) -> tensor<3xi32>
  %3 = tosa.abs %1 : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq(%2, %3) : tensor<3xi32>
  return
}

// Two computed tensors 0.25 apart at [0, 1], beyond atol 0.1.
func.func @wrong_expect_almost_eq() {
  %0 = util.unfoldable_constant dense<[[1.0, -2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = util.unfoldable_constant dense<[[1.0, 2.25], [3.0, 4.0]]> : tensor<2x2xf32>
  %2 = tosa.abs %0 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = tosa.abs %1 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq(%2, %3, atol 1.0e-1) : tensor<2x2xf32>
  return
}
