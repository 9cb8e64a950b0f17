// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// tensor.from_elements of host scalars (which kiln computes as 0-d tensors).

// CHECK: {{^}}from_elements_scalar_0d: PASS
// CHECK: {{^}}from_elements_1d: PASS
// CHECK: {{^}}from_elements_of_loop_result: PASS
// CHECK: {{^}}3 passed, 0 failed

func.func @from_elements_scalar_0d() {
  %a = util.unfoldable_constant 5 : i32
  %b = arith.addi %a, %a : i32
  %t = tensor.from_elements %b : tensor<i32>
  check.expect_eq_const(%t, dense<10> : tensor<i32>) : tensor<i32>
  return
}

func.func @from_elements_1d() {
  %a = util.unfoldable_constant 1.5 : f32
  %b = arith.mulf %a, %a : f32
  %t = tensor.from_elements %a, %b, %a : tensor<3xf32>
  check.expect_almost_eq_const(%t, dense<[1.5, 2.25, 1.5]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// The result of a scalar loop (gcd(1071, 462) = 21) packed into a tensor.
func.func @from_elements_of_loop_result() {
  %a0 = util.unfoldable_constant 1071 : i32
  %b0 = util.unfoldable_constant 462 : i32
  %zero = arith.constant 0 : i32
  %0:2 = scf.while (%a = %a0, %b = %b0) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi ne, %b, %zero : i32
    scf.condition(%c) %a, %b : i32, i32
  } do {
  ^bb0(%a: i32, %b: i32):
    %r = arith.remsi %a, %b : i32
    scf.yield %b, %r : i32, i32
  }
  %t = tensor.from_elements %0#0, %0#1 : tensor<2xi32>
  check.expect_eq_const(%t, dense<[21, 0]> : tensor<2xi32>) : tensor<2xi32>
  return
}
