// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// tosa.cast between float, integer and boolean element types.

// CHECK: {{^}}cast_f32_to_i32: PASS
// CHECK: {{^}}cast_f32_to_i8: PASS
// CHECK: {{^}}cast_i32_to_f32: PASS
// CHECK: {{^}}cast_i8_to_i32: PASS
// CHECK: {{^}}cast_i8_to_f32: PASS
// CHECK: {{^}}cast_i32_to_i8: PASS
// CHECK: {{^}}cast_i32_to_i1: PASS
// CHECK: {{^}}cast_i1_to_i32: PASS
// CHECK: {{^}}cast_f32_to_f16: PASS
// CHECK: {{^}}cast_f16_to_f32: PASS
// CHECK: {{^}}cast_f32_to_bf16: PASS
// CHECK: {{^}}11 passed, 0 failed

// Float to integer rounds to nearest, ties to even.
func.func @cast_f32_to_i32() {
  %0 = util.unfoldable_constant dense<[-2.5, -1.6, -0.5, 0.4, 1.5, 2.5, 3.5, 100.7]> : tensor<8xf32>
  %1 = tosa.cast %0 : (tensor<8xf32>) -> tensor<8xi32>
  check.expect_eq_const(%1, dense<[-2, -2, 0, 0, 2, 2, 4, 101]> : tensor<8xi32>) : tensor<8xi32>
  return
}

// Values below the i8 range saturate to -128.
func.func @cast_f32_to_i8() {
  %0 = util.unfoldable_constant dense<[-200.0, -1.5, 2.5, 127.4, -128.0]> : tensor<5xf32>
  %1 = tosa.cast %0 : (tensor<5xf32>) -> tensor<5xi8>
  check.expect_eq_const(%1, dense<[-128, -2, 2, 127, -128]> : tensor<5xi8>) : tensor<5xi8>
  return
}

// 16777217 is not representable in f32: it rounds to 16777216.
func.func @cast_i32_to_f32() {
  %0 = util.unfoldable_constant dense<[-3, 0, 16777217, 123, -2147483648]> : tensor<5xi32>
  %1 = tosa.cast %0 : (tensor<5xi32>) -> tensor<5xf32>
  check.expect_eq_const(%1, dense<[-3.0, 0.0, 16777216.0, 123.0, -2147483648.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

// Widening casts sign-extend.
func.func @cast_i8_to_i32() {
  %0 = util.unfoldable_constant dense<[-128, -1, 0, 1, 127]> : tensor<5xi8>
  %1 = tosa.cast %0 : (tensor<5xi8>) -> tensor<5xi32>
  check.expect_eq_const(%1, dense<[-128, -1, 0, 1, 127]> : tensor<5xi32>) : tensor<5xi32>
  return
}

func.func @cast_i8_to_f32() {
  %0 = util.unfoldable_constant dense<[-128, -1, 0, 127]> : tensor<4xi8>
  %1 = tosa.cast %0 : (tensor<4xi8>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[-128.0, -1.0, 0.0, 127.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// Narrowing integer casts keep the low bits.
func.func @cast_i32_to_i8() {
  %0 = util.unfoldable_constant dense<[300, -129, 127, -128, 5]> : tensor<5xi32>
  %1 = tosa.cast %0 : (tensor<5xi32>) -> tensor<5xi8>
  check.expect_eq_const(%1, dense<[44, 127, 127, -128, 5]> : tensor<5xi8>) : tensor<5xi8>
  return
}

func.func @cast_i32_to_i1() {
  %0 = util.unfoldable_constant dense<[0, 1, -5, 256]> : tensor<4xi32>
  %1 = tosa.cast %0 : (tensor<4xi32>) -> tensor<4xi1>
  check.expect_eq_const(%1, dense<[false, true, true, true]> : tensor<4xi1>) : tensor<4xi1>
  return
}

func.func @cast_i1_to_i32() {
  %0 = util.unfoldable_constant dense<[true, false, false, true]> : tensor<4xi1>
  %1 = tosa.cast %0 : (tensor<4xi1>) -> tensor<4xi32>
  check.expect_eq_const(%1, dense<[1, 0, 0, 1]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// f32 -> f16 rounds to nearest even: 0.1 -> 0.0999755859375, 1000.7 -> 1000.5.
func.func @cast_f32_to_f16() {
  %0 = util.unfoldable_constant dense<[0.1, 0.333333343, 65504.0, -2.5, 1000.7]> : tensor<5xf32>
  %1 = tosa.cast %0 : (tensor<5xf32>) -> tensor<5xf16>
  check.expect_eq_const(%1, dense<[0.0999755859375, 0.333251953125, 65504.0, -2.5, 1000.5]> : tensor<5xf16>) : tensor<5xf16>
  return
}

func.func @cast_f16_to_f32() {
  %0 = util.unfoldable_constant dense<[0.0999755859375, -2.5, 65504.0]> : tensor<3xf16>
  %1 = tosa.cast %0 : (tensor<3xf16>) -> tensor<3xf32>
  check.expect_eq_const(%1, dense<[0.0999755859375, -2.5, 65504.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

// f32 -> bf16 keeps 8 significant bits, rounding to nearest even.
func.func @cast_f32_to_bf16() {
  %0 = util.unfoldable_constant dense<[0.1, 0.333333343, 3.0, -2.5, 1000.7]> : tensor<5xf32>
  %1 = tosa.cast %0 : (tensor<5xf32>) -> tensor<5xbf16>
  check.expect_eq_const(%1, dense<[0.10009765625, 0.333984375, 3.0, -2.5, 1000.0]> : tensor<5xbf16>) : tensor<5xbf16>
  return
}
