// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// tosa.cond_if and tosa.while_loop: host control flow whose conditions are
// computed on tensors and read back.

// CHECK: {{^}}cond_if_then_branch: PASS
// CHECK: {{^}}cond_if_else_branch: PASS
// CHECK: {{^}}cond_if_constant_condition: PASS
// CHECK: {{^}}cond_if_two_results: PASS
// CHECK: {{^}}while_loop_counter: PASS
// CHECK: {{^}}while_loop_sum: PASS
// CHECK: {{^}}while_loop_tensor_carry: PASS
// CHECK: {{^}}while_loop_zero_iterations: PASS
// CHECK: {{^}}while_loop_with_cond_if: PASS
// CHECK: {{^}}cond_if_with_while_loop: PASS
// CHECK: {{^}}10 passed, 0 failed

func.func @cond_if_then_branch() {
  %a = util.unfoldable_constant dense<3.0> : tensor<f32>
  %b = util.unfoldable_constant dense<2.0> : tensor<f32>
  %c = tosa.greater %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<f32> {
    %1 = tosa.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
    %1 = tosa.sub %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  }
  check.expect_almost_eq_const(%0, dense<5.0> : tensor<f32>) : tensor<f32>
  return
}

func.func @cond_if_else_branch() {
  %a = util.unfoldable_constant dense<1.0> : tensor<f32>
  %b = util.unfoldable_constant dense<2.0> : tensor<f32>
  %c = tosa.greater %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<f32> {
    %1 = tosa.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
    %1 = tosa.sub %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  }
  check.expect_almost_eq_const(%0, dense<-1.0> : tensor<f32>) : tensor<f32>
  return
}

// The condition is an input constant rather than a computed value.
func.func @cond_if_constant_condition() {
  %c = util.unfoldable_constant dense<false> : tensor<i1>
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<3xi32> {
    %1 = tosa.add %a, %a : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    tosa.yield %1 : tensor<3xi32>
  } else {
    %zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %1 = tosa.negate %a, %zp, %zp : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    tosa.yield %1 : tensor<3xi32>
  }
  check.expect_eq_const(%0, dense<[-1, -2, -3]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @cond_if_two_results() {
  %c = util.unfoldable_constant dense<true> : tensor<i1>
  %a = util.unfoldable_constant dense<7> : tensor<i32>
  %v = util.unfoldable_constant dense<[1.5, 2.5]> : tensor<2xf32>
  %0, %1 = tosa.cond_if %c : tensor<i1> -> (tensor<i32>, tensor<2xf32>) {
    %2 = tosa.add %a, %a : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = tosa.floor %v : (tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %2, %3 : tensor<i32>, tensor<2xf32>
  } else {
    tosa.yield %a, %v : tensor<i32>, tensor<2xf32>
  }
  check.expect_eq_const(%0, dense<14> : tensor<i32>) : tensor<i32>
  check.expect_almost_eq_const(%1, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// 0, 3, 6, 9, 12: stops at the first value not below 10.
func.func @while_loop_counter() {
  %init = util.unfoldable_constant dense<0> : tensor<i32>
  %limit = util.unfoldable_constant dense<10> : tensor<i32>
  %0 = tosa.while_loop (%i = %init) : (tensor<i32>) -> tensor<i32> {
    %c = tosa.greater %limit, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %three = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %next = tosa.add %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %next : tensor<i32>
  }
  check.expect_eq_const(%0, dense<12> : tensor<i32>) : tensor<i32>
  return
}

// sum of 0..9 with a counter and an accumulator.
func.func @while_loop_sum() {
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %n = util.unfoldable_constant dense<10> : tensor<i32>
  %0:2 = tosa.while_loop (%i = %zero, %acc = %zero) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %c = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %acc2 = tosa.add %acc, %i : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %i2 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %i2, %acc2 : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const(%0#0, dense<10> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%0#1, dense<45> : tensor<i32>) : tensor<i32>
  return
}

// A vector carried through the loop next to a 0-d counter: doubled 4 times.
func.func @while_loop_tensor_carry() {
  %init = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %0:2 = tosa.while_loop (%i = %zero, %v = %init) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
    %four = "tosa.const"() <{values = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %c = tosa.greater %four, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %i2 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v2 = tosa.add %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %i2, %v2 : tensor<i32>, tensor<4xf32>
  }
  check.expect_eq_const(%0#0, dense<4> : tensor<i32>) : tensor<i32>
  check.expect_almost_eq_const(%0#1, dense<[16.0, 32.0, 48.0, 64.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// The condition is false on entry: the body never runs.
func.func @while_loop_zero_iterations() {
  %init = util.unfoldable_constant dense<50> : tensor<i32>
  %limit = util.unfoldable_constant dense<10> : tensor<i32>
  %0 = tosa.while_loop (%i = %init) : (tensor<i32>) -> tensor<i32> {
    %c = tosa.greater %limit, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %next = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %next : tensor<i32>
  }
  check.expect_eq_const(%0, dense<50> : tensor<i32>) : tensor<i32>
  return
}

// Collatz steps from 6 (6 3 10 5 16 8 4 2 1): a cond_if inside a while_loop.
func.func @while_loop_with_cond_if() {
  %n0 = util.unfoldable_constant dense<6> : tensor<i32>
  %zero = util.unfoldable_constant dense<0> : tensor<i32>
  %0:2 = tosa.while_loop (%n = %n0, %steps = %zero) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %c = tosa.greater %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%n: tensor<i32>, %steps: tensor<i32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %two = "tosa.const"() <{values = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %three = "tosa.const"() <{values = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %low = tosa.bitwise_and %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %odd = tosa.equal %low, %one : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %next = tosa.cond_if %odd : tensor<i1> -> tensor<i32> {
      %m = tosa.mul %n, %three, %shift : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
      %p = tosa.add %m, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %p : tensor<i32>
    } else {
      %h = tosa.intdiv %n, %two : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %h : tensor<i32>
    }
    %steps2 = tosa.add %steps, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.yield %next, %steps2 : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const(%0#0, dense<1> : tensor<i32>) : tensor<i32>
  check.expect_eq_const(%0#1, dense<8> : tensor<i32>) : tensor<i32>
  return
}

// A while_loop inside a cond_if branch.
func.func @cond_if_with_while_loop() {
  %c = util.unfoldable_constant dense<true> : tensor<i1>
  %x = util.unfoldable_constant dense<1> : tensor<i32>
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<i32> {
    %limit = "tosa.const"() <{values = dense<1000> : tensor<i32>}> : () -> tensor<i32>
    %1 = tosa.while_loop (%v = %x) : (tensor<i32>) -> tensor<i32> {
      %cc = tosa.greater %limit, %v : (tensor<i32>, tensor<i32>) -> tensor<i1>
      tosa.yield %cc : tensor<i1>
    } do {
    ^bb0(%v: tensor<i32>):
      %d = tosa.add %v, %v : (tensor<i32>, tensor<i32>) -> tensor<i32>
      tosa.yield %d : tensor<i32>
    }
    tosa.yield %1 : tensor<i32>
  } else {
    tosa.yield %x : tensor<i32>
  }
  check.expect_eq_const(%0, dense<1024> : tensor<i32>) : tensor<i32>
  return
}
