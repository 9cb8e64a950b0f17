// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// TOSA comparisons, logical ops on i1, bitwise ops and shifts, and select.

// CHECK: {{^}}equal_f32: PASS
// CHECK: {{^}}equal_i32_broadcast: PASS
// CHECK: {{^}}greater_f32: PASS
// CHECK: {{^}}greater_i32: PASS
// CHECK: {{^}}greater_equal_f32: PASS
// CHECK: {{^}}greater_equal_i32: PASS
// CHECK: {{^}}compare_all_true: PASS
// CHECK: {{^}}logical_and: PASS
// CHECK: {{^}}logical_or: PASS
// CHECK: {{^}}logical_xor: PASS
// CHECK: {{^}}logical_not: PASS
// CHECK: {{^}}bitwise_and_i32: PASS
// CHECK: {{^}}bitwise_or_i32: PASS
// CHECK: {{^}}bitwise_xor_i32: PASS
// CHECK: {{^}}bitwise_not_i32: PASS
// CHECK: {{^}}bitwise_and_i8: PASS
// CHECK: {{^}}logical_left_shift_i32: PASS
// CHECK: {{^}}logical_right_shift_i32: PASS
// CHECK: {{^}}arithmetic_right_shift_i32: PASS
// CHECK: {{^}}arithmetic_right_shift_round_i32: PASS
// CHECK: {{^}}select_f32: PASS
// CHECK: {{^}}select_i32_broadcast: PASS
// CHECK: {{^}}select_from_compare: PASS
// CHECK: {{^}}23 passed, 0 failed

func.func @equal_f32() {
  %0 = util.unfoldable_constant dense<[1.0, 2.0, -0.0, 4.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[1.0, 2.5, 0.0, -4.0]> : tensor<4xf32>
  %2 = tosa.equal %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, false, true, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @equal_i32_broadcast() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [3, 2, 1]]> : tensor<2x3xi32>
  %1 = util.unfoldable_constant dense<[[1, 2, 1]]> : tensor<1x3xi32>
  %2 = tosa.equal %0, %1 : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
  check.expect_eq_const(%2, dense<[[true, true, false], [false, true, true]]> : tensor<2x3xi1>) : tensor<2x3xi1>
  return
}

func.func @greater_f32() {
  %0 = util.unfoldable_constant dense<[1.0, 2.0, 3.0, -1.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[0.5, 2.0, 4.0, -2.0]> : tensor<4xf32>
  %2 = tosa.greater %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, false, false, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @greater_i32() {
  %0 = util.unfoldable_constant dense<[1, 2, 3, -1]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[0, 2, 4, -2]> : tensor<4xi32>
  %2 = tosa.greater %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, false, false, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @greater_equal_f32() {
  %0 = util.unfoldable_constant dense<[1.0, 2.0, 3.0, -1.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[0.5, 2.0, 4.0, -2.0]> : tensor<4xf32>
  %2 = tosa.greater_equal %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, true, false, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @greater_equal_i32() {
  %0 = util.unfoldable_constant dense<[1, 2, 3, -2147483648]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[0, 2, 4, 2147483647]> : tensor<4xi32>
  %2 = tosa.greater_equal %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, true, false, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

// A comparison read back through expect_all_true on an i32 tensor.
func.func @compare_all_true() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %1 = util.unfoldable_constant dense<[[0.0, 2.0], [-3.0, 4.0]]> : tensor<2x2xf32>
  %2 = tosa.greater_equal %0, %1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
  %3 = tosa.cast %2 : (tensor<2x2xi1>) -> tensor<2x2xi32>
  check.expect_all_true(%3) : tensor<2x2xi32>
  return
}

func.func @logical_and() {
  %0 = util.unfoldable_constant dense<[true, true, false, false]> : tensor<4xi1>
  %1 = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %2 = tosa.logical_and %0, %1 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, false, false, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @logical_or() {
  %0 = util.unfoldable_constant dense<[true, true, false, false]> : tensor<4xi1>
  %1 = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %2 = tosa.logical_or %0, %1 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[true, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @logical_xor() {
  %0 = util.unfoldable_constant dense<[true, true, false, false]> : tensor<4xi1>
  %1 = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %2 = tosa.logical_xor %0, %1 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  check.expect_eq_const(%2, dense<[false, true, true, false]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @logical_not() {
  %0 = util.unfoldable_constant dense<[[true, false, false], [true, true, false]]> : tensor<2x3xi1>
  %1 = tosa.logical_not %0 : (tensor<2x3xi1>) -> tensor<2x3xi1>
  check.expect_eq_const(%1, dense<[[false, true, true], [false, false, true]]> : tensor<2x3xi1>) : tensor<2x3xi1>
  return
}

func.func @bitwise_and_i32() {
  %0 = util.unfoldable_constant dense<[12, -1, 255, -16]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[10, 1234, 15, 255]> : tensor<4xi32>
  %2 = tosa.bitwise_and %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[8, 1234, 15, 240]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @bitwise_or_i32() {
  %0 = util.unfoldable_constant dense<[12, 0, 256, -16]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[10, 1234, 15, 15]> : tensor<4xi32>
  %2 = tosa.bitwise_or %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[14, 1234, 271, -1]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @bitwise_xor_i32() {
  %0 = util.unfoldable_constant dense<[12, -1, 255, 7]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[10, 5, 15, 7]> : tensor<4xi32>
  %2 = tosa.bitwise_xor %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[6, -6, 240, 0]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @bitwise_not_i32() {
  %0 = util.unfoldable_constant dense<[0, -1, 5, -2147483648]> : tensor<4xi32>
  %1 = tosa.bitwise_not %0 : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[-1, 0, -6, 2147483647]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @bitwise_and_i8() {
  %0 = util.unfoldable_constant dense<[12, -1, 127, -128]> : tensor<4xi8>
  %1 = util.unfoldable_constant dense<[10, 85, 15, -1]> : tensor<4xi8>
  %2 = tosa.bitwise_and %0, %1 : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  check.expect_eq_const(%2, dense<[8, 85, 15, -128]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @logical_left_shift_i32() {
  %0 = util.unfoldable_constant dense<[1, 3, -1, 1073741824]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[0, 4, 8, 1]> : tensor<4xi32>
  %2 = tosa.logical_left_shift %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[1, 48, -256, -2147483648]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// Logical right shift fills with zeros: -16 >> 2 is 0x3FFFFFFC.
func.func @logical_right_shift_i32() {
  %0 = util.unfoldable_constant dense<[16, -16, 255, -1]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[2, 2, 4, 31]> : tensor<4xi32>
  %2 = tosa.logical_right_shift %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[4, 1073741820, 15, 1]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// Arithmetic right shift keeps the sign and rounds toward -inf.
func.func @arithmetic_right_shift_i32() {
  %0 = util.unfoldable_constant dense<[16, -16, -15, 7, -1]> : tensor<5xi32>
  %1 = util.unfoldable_constant dense<[2, 2, 2, 1, 5]> : tensor<5xi32>
  %2 = tosa.arithmetic_right_shift %0, %1 {round = false} : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  check.expect_eq_const(%2, dense<[4, -4, -4, 3, -1]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// round = true adds the last bit shifted out: (a >> b) + ((a >> (b - 1)) & 1).
func.func @arithmetic_right_shift_round_i32() {
  %0 = util.unfoldable_constant dense<[7, 6, 4, -6, 5, -5, 9]> : tensor<7xi32>
  %1 = util.unfoldable_constant dense<[2, 2, 2, 2, 1, 1, 0]> : tensor<7xi32>
  %2 = tosa.arithmetic_right_shift %0, %1 {round = true} : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>
  check.expect_eq_const(%2, dense<[2, 2, 1, -1, 3, -2, 9]> : tensor<7xi32>) : tensor<7xi32>
  return
}

func.func @select_f32() {
  %c = util.unfoldable_constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[-1.0, -2.0, -3.0, -4.0]> : tensor<4xf32>
  %2 = tosa.select %c, %0, %1 : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%2, dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// The condition is broadcast along rows.
func.func @select_i32_broadcast() {
  %c = util.unfoldable_constant dense<[[true], [false]]> : tensor<2x1xi1>
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %1 = util.unfoldable_constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32>
  %2 = tosa.select %c, %0, %1 : (tensor<2x1xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%2, dense<[[1, 2, 3], [40, 50, 60]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// ReLU written as select(x > 0, x, 0), the condition computed on device.
func.func @select_from_compare() {
  %0 = util.unfoldable_constant dense<[-2.0, -0.5, 0.5, 3.0]> : tensor<4xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %c = tosa.greater %0, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = tosa.select %c, %0, %zero : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[0.0, 0.0, 0.5, 3.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
