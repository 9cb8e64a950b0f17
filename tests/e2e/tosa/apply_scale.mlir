// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// TOSA ops whose upstream lowering goes through tosa.apply_scale: tosa.mul
// with a nonzero shift, tosa.rescale and integer tosa.avg_pool2d (kiln runs
// tosa-to-arith with include-apply-rescale).

// CHECK: {{^}}mul_shift_i32: PASS
// CHECK: {{^}}rescale_i8_half_output_zero_point: PASS
// CHECK: {{^}}rescale_i32_to_i8_saturates: PASS
// CHECK: {{^}}avg_pool2d_i8: PASS
// CHECK: {{^}}4 passed, 0 failed

// apply_scale_32(a * b, shift 2): (a * b + 2) >> 2.
func.func @mul_shift_i32() {
  %0 = util.unfoldable_constant dense<[3, -3, 100, 7]> : tensor<4xi32>
  %1 = util.unfoldable_constant dense<[5, 5, 3, 1]> : tensor<4xi32>
  %shift = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = tosa.mul %0, %1, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[4, -4, 75, 2]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// Scale 1/2 (multiplier 2^30, shift 31), output zero point 10:
// ((x * 2^30 + 2^30) >> 31) + 10.
func.func @rescale_i8_half_output_zero_point() {
  %0 = util.unfoldable_constant dense<[-128, -3, 0, 3, 127]> : tensor<5xi8>
  %multiplier = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %shift = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %input_zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %output_zp = "tosa.const"() <{values = dense<10> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.rescale %0, %multiplier, %shift, %input_zp, %output_zp {rounding_mode = SINGLE_ROUND, scale32 = true, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<5xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<5xi8>
  check.expect_eq_const(%1, dense<[-54, 9, 10, 12, 74]> : tensor<5xi8>) : tensor<5xi8>
  return
}

// Scale 1 from i32 to i8 saturates.
func.func @rescale_i32_to_i8_saturates() {
  %0 = util.unfoldable_constant dense<[-1000, -5, 0, 5, 1000]> : tensor<5xi32>
  %multiplier = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %shift = "tosa.const"() <{values = dense<30> : tensor<1xi8>}> : () -> tensor<1xi8>
  %input_zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %output_zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.rescale %0, %multiplier, %shift, %input_zp, %output_zp {rounding_mode = SINGLE_ROUND, scale32 = true, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<5xi8>
  check.expect_eq_const(%1, dense<[-128, -5, 0, 5, 127]> : tensor<5xi8>) : tensor<5xi8>
  return
}

// Window sums 11 and -6 over 4 elements, scaled by TOSA's reciprocal_scale(4)
// (multiplier 1073741825, shift 32): 3 and -2.
func.func @avg_pool2d_i8() {
  %x = util.unfoldable_constant dense<[[[[1], [2], [-1], [-2]], [[3], [5], [-3], [0]]]]> : tensor<1x2x4x1xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x2x4x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x2x1xi8>
  check.expect_eq_const(%0, dense<[[[[3], [-2]]]]> : tensor<1x1x2x1xi8>) : tensor<1x1x2x1xi8>
  return
}
