// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// Elementwise TOSA arithmetic on integer tensors, one op per function.

// CHECK: {{^}}abs_i32: PASS
// CHECK: {{^}}add_i32: PASS
// CHECK: {{^}}add_i64: PASS
// CHECK: {{^}}sub_i32: PASS
// CHECK: {{^}}mul_i32: PASS
// CHECK: {{^}}mul_i8_to_i32: PASS
// CHECK: {{^}}negate_i32: PASS
// CHECK: {{^}}negate_i8_zero_points: PASS
// CHECK: {{^}}intdiv_i32: PASS
// CHECK: {{^}}maximum_i32: PASS
// CHECK: {{^}}minimum_i32: PASS
// CHECK: {{^}}clamp_i16: PASS
// CHECK: {{^}}clamp_i8: PASS
// CHECK: {{^}}clz_i32: PASS
// CHECK: {{^}}sub_scalar_0d_i32: PASS
// CHECK: {{^}}15 passed, 0 failed

func.func @abs_i32() {
  %0 = util.unfoldable_constant dense<[-5, 0, 7, -2147483647]> : tensor<4xi32>
  %1 = tosa.abs %0 : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[5, 0, 7, 2147483647]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @add_i32() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %1 = util.unfoldable_constant dense<[[10, -20, 30]]> : tensor<1x3xi32>
  %2 = tosa.add %0, %1 : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const(%2, dense<[[11, -18, 33], [14, -15, 36]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func @add_i64() {
  %0 = util.unfoldable_constant dense<[4294967296, -1, 9000000000000000000]> : tensor<3xi64>
  %1 = util.unfoldable_constant dense<[4294967296, 1, 1]> : tensor<3xi64>
  %2 = tosa.add %0, %1 : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  check.expect_eq_const(%2, dense<[8589934592, 0, 9000000000000000001]> : tensor<3xi64>) : tensor<3xi64>
  return
}

func.func @sub_i32() {
  %0 = util.unfoldable_constant dense<[10, -10, 0, 2147483647]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[3, 5, -7, 2147483647]> : tensor<4xi32>
  %2 = tosa.sub %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[7, -15, 7, 0]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @mul_i32() {
  %0 = util.unfoldable_constant dense<[3, -4, 100000, 7]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[5, 6, 3, -1]> : tensor<4xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = tosa.mul %0, %1, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[15, -24, 300000, -7]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// i8 x i8 -> i32: the operands are sign-extended before multiplying.
func.func @mul_i8_to_i32() {
  %0 = util.unfoldable_constant dense<[100, -128, 7, -1]> : tensor<4xi8>
  %1 = util.unfoldable_constant dense<[100, -128, -3, 1]> : tensor<4xi8>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = tosa.mul %0, %1, %shift : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[10000, 16384, -21, -1]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @negate_i32() {
  %0 = util.unfoldable_constant dense<[5, -7, 0, 2147483647]> : tensor<4xi32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %1 = tosa.negate %0, %zp, %zp : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[-5, 7, 0, -2147483647]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// out = clamp(-(x - in_zp) + out_zp) = clamp(5 - x) with in_zp 10, out_zp -5.
func.func @negate_i8_zero_points() {
  %0 = util.unfoldable_constant dense<[-128, 0, 10, 127]> : tensor<4xi8>
  %in_zp = "tosa.const"() <{values = dense<10> : tensor<1xi8>}> : () -> tensor<1xi8>
  %out_zp = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.negate %0, %in_zp, %out_zp : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  check.expect_eq_const(%1, dense<[127, 5, -5, -122]> : tensor<4xi8>) : tensor<4xi8>
  return
}

// Integer division truncates toward zero.
func.func @intdiv_i32() {
  %0 = util.unfoldable_constant dense<[7, -7, 7, -7, 0, 100]> : tensor<6xi32>
  %1 = util.unfoldable_constant dense<[2, 2, -2, -2, 5, 7]> : tensor<6xi32>
  %2 = tosa.intdiv %0, %1 : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  check.expect_eq_const(%2, dense<[3, -3, -3, 3, 0, 14]> : tensor<6xi32>) : tensor<6xi32>
  return
}

func.func @maximum_i32() {
  %0 = util.unfoldable_constant dense<[1, -2, 3, -2147483648]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[0, -1, 3, 5]> : tensor<4xi32>
  %2 = tosa.maximum %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[1, -1, 3, 5]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @minimum_i32() {
  %0 = util.unfoldable_constant dense<[1, -2, 3, -2147483648]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[0, -1, 3, 5]> : tensor<4xi32>
  %2 = tosa.minimum %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[0, -2, 3, -2147483648]> : tensor<4xi32>) : tensor<4xi32>
  return
}

func.func @clamp_i16() {
  %0 = util.unfoldable_constant dense<[-32768, -5, -4, 0, 4, 5, 6, 1000]> : tensor<8xi16>
  %1 = tosa.clamp %0 {min_val = -5 : i16, max_val = 5 : i16} : (tensor<8xi16>) -> tensor<8xi16>
  check.expect_eq_const(%1, dense<[-5, -5, -4, 0, 4, 5, 5, 5]> : tensor<8xi16>) : tensor<8xi16>
  return
}

// ReLU6 on int8.
func.func @clamp_i8() {
  %0 = util.unfoldable_constant dense<[-128, -1, 0, 3, 6, 7, 127]> : tensor<7xi8>
  %1 = tosa.clamp %0 {min_val = 0 : i8, max_val = 6 : i8} : (tensor<7xi8>) -> tensor<7xi8>
  check.expect_eq_const(%1, dense<[0, 0, 0, 3, 6, 6, 6]> : tensor<7xi8>) : tensor<7xi8>
  return
}

func.func @clz_i32() {
  %0 = util.unfoldable_constant dense<[0, 1, -1, 256, 2147483647]> : tensor<5xi32>
  %1 = tosa.clz %0 : (tensor<5xi32>) -> tensor<5xi32>
  check.expect_eq_const(%1, dense<[32, 31, 0, 23, 1]> : tensor<5xi32>) : tensor<5xi32>
  return
}

// 0-d integer tensors.
func.func @sub_scalar_0d_i32() {
  %0 = util.unfoldable_constant dense<42> : tensor<i32>
  %1 = util.unfoldable_constant dense<50> : tensor<i32>
  %2 = tosa.sub %0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const(%2, dense<-8> : tensor<i32>) : tensor<i32>
  return
}
