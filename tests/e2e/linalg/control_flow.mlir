// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// Host control flow written directly with scf.if, scf.for and scf.while on
// tensors; conditions come from tensor.extract of computed tensors or from
// index loops.

// CHECK: {{^}}scf_if_extract_i1_then: PASS
// CHECK: {{^}}scf_if_extract_i1_else: PASS
// CHECK: {{^}}scf_if_condition_from_reduction: PASS
// CHECK: {{^}}scf_for_accumulate: PASS
// CHECK: {{^}}scf_for_uses_induction_variable: PASS
// CHECK: {{^}}scf_for_zero_trips: PASS
// CHECK: {{^}}scf_while_tensor_condition: PASS
// CHECK: {{^}}scf_while_scalar_gcd: PASS
// CHECK: {{^}}scf_while_tensor_and_scalar: PASS
// CHECK: {{^}}scf_for_inside_if: PASS
// CHECK: {{^}}scf_if_inside_for: PASS
// CHECK: {{^}}scalar_i32_expect_true_false: PASS
// CHECK: {{^}}expect_all_true_from_compare: PASS
// CHECK: {{^}}optimization_barrier: PASS
// CHECK: {{^}}scf_for_sum_matches_multiply: PASS
// CHECK: {{^}}15 passed, 0 failed

func.func @scf_if_extract_i1_then() {
  %c = util.unfoldable_constant dense<true> : tensor<i1>
  %x = util.unfoldable_constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %b = tensor.extract %c[] : tensor<i1>
  %0 = scf.if %b -> tensor<3xf32> {
    %1 = arith.addf %x, %x : tensor<3xf32>
    scf.yield %1 : tensor<3xf32>
  } else {
    %1 = arith.negf %x : tensor<3xf32>
    scf.yield %1 : tensor<3xf32>
  }
  check.expect_almost_eq_const(%0, dense<[2.0, -4.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @scf_if_extract_i1_else() {
  %c = util.unfoldable_constant dense<false> : tensor<i1>
  %x = util.unfoldable_constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %b = tensor.extract %c[] : tensor<i1>
  %0 = scf.if %b -> tensor<3xf32> {
    %1 = arith.addf %x, %x : tensor<3xf32>
    scf.yield %1 : tensor<3xf32>
  } else {
    %1 = arith.negf %x : tensor<3xf32>
    scf.yield %1 : tensor<3xf32>
  }
  check.expect_almost_eq_const(%0, dense<[-1.0, 2.0, -3.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// The condition is computed on device (max of a tensor > 2.5) and read back.
func.func @scf_if_condition_from_reduction() {
  %x = util.unfoldable_constant dense<[1.0, 3.0, -2.0, 0.5]> : tensor<4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%ninf : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %max = linalg.reduce ins(%x : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %m = tensor.extract %max[] : tensor<f32>
  %limit = arith.constant 2.5 : f32
  %big = arith.cmpf ogt, %m, %limit : f32
  %0 = scf.if %big -> tensor<4xf32> {
    %half = arith.constant dense<0.5> : tensor<4xf32>
    %1 = arith.mulf %x, %half : tensor<4xf32>
    scf.yield %1 : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  check.expect_almost_eq_const(%0, dense<[0.5, 1.5, -1.0, 0.25]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// init + 5 * x over a counted loop.
func.func @scf_for_accumulate() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, -0.5, 0.25]> : tensor<4xf32>
  %init = util.unfoldable_constant dense<[10.0, 0.0, 0.0, -1.0]> : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %0 = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (tensor<4xf32>) {
    %1 = arith.addf %acc, %x : tensor<4xf32>
    scf.yield %1 : tensor<4xf32>
  }
  check.expect_almost_eq_const(%0, dense<[15.0, 10.0, -2.5, 0.25]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// The induction variable feeds the computation: acc += fill(i) for i = 0..4
// with step 1, then acc += fill(i) for i = 1, 4, 7 (step 3).
func.func @scf_for_uses_induction_variable() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3xf32>) -> tensor<3xf32>
  %0 = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (tensor<3xf32>) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %t = linalg.fill ins(%f : f32) outs(%empty : tensor<3xf32>) -> tensor<3xf32>
    %1 = arith.addf %acc, %t : tensor<3xf32>
    scf.yield %1 : tensor<3xf32>
  }
  %1 = scf.for %i = %c1 to %c9 step %c3 iter_args(%acc = %0) -> (tensor<3xf32>) {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %t = linalg.fill ins(%f : f32) outs(%empty : tensor<3xf32>) -> tensor<3xf32>
    %2 = arith.addf %acc, %t : tensor<3xf32>
    scf.yield %2 : tensor<3xf32>
  }
  check.expect_almost_eq_const(%1, dense<[22.0, 22.0, 22.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// A loop with zero trips returns its initial value.
func.func @scf_for_zero_trips() {
  %init = util.unfoldable_constant dense<[7, 8]> : tensor<2xi32>
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c4 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<2xi32>) {
    %1 = arith.addi %acc, %acc : tensor<2xi32>
    scf.yield %1 : tensor<2xi32>
  }
  check.expect_eq_const(%0, dense<[7, 8]> : tensor<2xi32>) : tensor<2xi32>
  return
}

// Doubles a 0-d tensor while it is below 1000: 3 -> ... -> 1536.
func.func @scf_while_tensor_condition() {
  %init = util.unfoldable_constant dense<3> : tensor<i32>
  %limit = arith.constant 1000 : i32
  %0 = scf.while (%v = %init) : (tensor<i32>) -> tensor<i32> {
    %e = tensor.extract %v[] : tensor<i32>
    %c = arith.cmpi slt, %e, %limit : i32
    scf.condition(%c) %v : tensor<i32>
  } do {
  ^bb0(%v: tensor<i32>):
    %d = arith.addi %v, %v : tensor<i32>
    scf.yield %d : tensor<i32>
  }
  check.expect_eq_const(%0, dense<1536> : tensor<i32>) : tensor<i32>
  return
}

// Euclid's gcd(1071, 462) = 21 on host scalars, checked with expect_true.
func.func @scf_while_scalar_gcd() {
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
  %c21 = arith.constant 21 : i32
  %eq = arith.cmpi eq, %0#0, %c21 : i32
  %ok = arith.extui %eq : i1 to i32
  check.expect_true(%ok) : i32
  check.expect_false(%0#1) : i32
  return
}

// A loop carrying a tensor and a scalar: the tensor is scaled until the
// scalar step count reaches 3 or its first element exceeds 50.
func.func @scf_while_tensor_and_scalar() {
  %init = util.unfoldable_constant dense<[2.0, 1.0]> : tensor<2xf32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %limit = arith.constant 50.0 : f32
  %c0 = arith.constant 0 : index
  %0:2 = scf.while (%v = %init, %n = %zero) : (tensor<2xf32>, i32) -> (tensor<2xf32>, i32) {
    %first = tensor.extract %v[%c0] : tensor<2xf32>
    %small = arith.cmpf olt, %first, %limit : f32
    %few = arith.cmpi slt, %n, %three : i32
    %c = arith.andi %small, %few : i1
    scf.condition(%c) %v, %n : tensor<2xf32>, i32
  } do {
  ^bb0(%v: tensor<2xf32>, %n: i32):
    %five = arith.constant dense<5.0> : tensor<2xf32>
    %w = arith.mulf %v, %five : tensor<2xf32>
    %m = arith.addi %n, %one : i32
    scf.yield %w, %m : tensor<2xf32>, i32
  }
  check.expect_almost_eq_const(%0#0, dense<[50.0, 25.0]> : tensor<2xf32>) : tensor<2xf32>
  %c2 = arith.constant 2 : i32
  %eq = arith.cmpi eq, %0#1, %c2 : i32
  %ok = arith.extui %eq : i1 to i32
  check.expect_true(%ok) : i32
  return
}

// scf.for nested inside scf.if.
func.func @scf_for_inside_if() {
  %c = util.unfoldable_constant dense<true> : tensor<i1>
  %x = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = tensor.extract %c[] : tensor<i1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = scf.if %b -> tensor<3xi32> {
    %1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<3xi32>) {
      %2 = arith.addi %acc, %x : tensor<3xi32>
      scf.yield %2 : tensor<3xi32>
    }
    scf.yield %1 : tensor<3xi32>
  } else {
    scf.yield %x : tensor<3xi32>
  }
  check.expect_eq_const(%0, dense<[5, 10, 15]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// scf.if nested inside scf.for: adds x on even iterations, subtracts on odd.
func.func @scf_if_inside_for() {
  %x = util.unfoldable_constant dense<[1.0, 10.0]> : tensor<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant dense<0.0> : tensor<2xf32>
  %0 = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (tensor<2xf32>) {
    %r = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    %1 = scf.if %even -> tensor<2xf32> {
      %2 = arith.addf %acc, %x : tensor<2xf32>
      scf.yield %2 : tensor<2xf32>
    } else {
      %2 = arith.subf %acc, %x : tensor<2xf32>
      scf.yield %2 : tensor<2xf32>
    }
    scf.yield %1 : tensor<2xf32>
  }
  check.expect_almost_eq_const(%0, dense<[1.0, 10.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// Host scalar arithmetic read back by expect_true / expect_false.
func.func @scalar_i32_expect_true_false() {
  %a = util.unfoldable_constant 6 : i32
  %b = util.unfoldable_constant 7 : i32
  %p = arith.muli %a, %b : i32
  %c42 = arith.constant 42 : i32
  %d = arith.subi %p, %c42 : i32
  check.expect_false(%d) : i32
  check.expect_true(%p) : i32
  return
}

// check.expect_all_true on a computed i32 mask.
func.func @expect_all_true_from_compare() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %y = util.unfoldable_constant dense<[[0.5, 2.0], [-3.0, 3.5]]> : tensor<2x2xf32>
  %ge = arith.cmpf oge, %x, %y : tensor<2x2xf32>
  %mask = arith.extui %ge : tensor<2x2xi1> to tensor<2x2xi32>
  check.expect_all_true(%mask) : tensor<2x2xi32>
  return
}

// util.optimization_barrier between producer and consumer.
func.func @optimization_barrier() {
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = util.optimization_barrier %x : tensor<3xf32>
  %z = arith.mulf %y, %y : tensor<3xf32>
  check.expect_almost_eq_const(%z, dense<[1.0, 4.0, 9.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// Two computed tensors compared with each other (no constant side): x added
// five times in a loop equals x * 5 within atol.
func.func @scf_for_sum_matches_multiply() {
  %x = util.unfoldable_constant dense<[0.1, -2.5, 3.3, 1.0e3]> : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %sum = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (tensor<4xf32>) {
    %1 = arith.addf %acc, %x : tensor<4xf32>
    scf.yield %1 : tensor<4xf32>
  }
  %five = arith.constant dense<5.0> : tensor<4xf32>
  %product = arith.mulf %x, %five : tensor<4xf32>
  check.expect_almost_eq(%sum, %product, atol 1.0e-3) : tensor<4xf32>
  return
}
