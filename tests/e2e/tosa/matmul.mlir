// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// tosa.matmul: batched [N, H, C] x [N, C, W] with zero-point operands.

// CHECK: {{^}}matmul_f32: PASS
// CHECK: {{^}}matmul_batch_f32: PASS
// CHECK: {{^}}matmul_4x5x3_f32: PASS
// CHECK: {{^}}matmul_identity_f32: PASS
// CHECK: {{^}}matmul_i8: PASS
// CHECK: {{^}}matmul_i8_zero_points: PASS
// CHECK: {{^}}matmul_f16_to_f32: PASS
// CHECK: {{^}}matmul_bias_relu_f32: PASS
// CHECK: {{^}}8 passed, 0 failed

func.func @matmul_f32() {
  %a = util.unfoldable_constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
  %b = util.unfoldable_constant dense<[[[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<1x3x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[58.0, 64.0], [139.0, 154.0]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}

func.func @matmul_batch_f32() {
  %a = util.unfoldable_constant dense<[[[-2.0, -1.5, -1.0], [-0.5, 0.0, 0.5]], [[1.0, 1.5, 2.0], [2.5, 3.0, 3.5]]]> : tensor<2x2x3xf32>
  %b = util.unfoldable_constant dense<[[[-1.0, 0.75], [-0.25, 1.5], [0.5, -0.5]], [[1.25, 0.25], [-0.75, 1.0], [0.0, -1.0]]]> : tensor<2x3x2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x2x3xf32>, tensor<2x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[1.875, -3.25], [0.75, -0.625]], [[0.125, -0.25], [0.875, 0.125]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}

func.func @matmul_4x5x3_f32() {
  %a = util.unfoldable_constant dense<[[[-9.0, 9.0, 8.0, 7.0, 6.0], [5.0, 4.0, 3.0, 2.0, 1.0], [0.0, -1.0, -2.0, -3.0, -4.0], [-5.0, -6.0, -7.0, -8.0, -9.0]]]> : tensor<1x4x5xf32>
  %b = util.unfoldable_constant dense<[[[-6.0, 4.0, 1.0], [-2.0, -5.0, 5.0], [2.0, -1.0, -4.0], [6.0, 3.0, 0.0], [-3.0, -6.0, 4.0]]]> : tensor<1x5x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x5xf32>, tensor<1x5x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
  check.expect_almost_eq_const(%0, dense<[[[76.0, -104.0, 28.0], [-23.0, -3.0, 17.0], [-8.0, 22.0, -13.0], [7.0, 47.0, -43.0]]]> : tensor<1x4x3xf32>) : tensor<1x4x3xf32>
  return
}

// An identity right-hand side returns the left-hand side.
func.func @matmul_identity_f32() {
  %a = util.unfoldable_constant dense<[[[1.5, -2.0, 3.25], [0.0, 7.0, -1.0]]]> : tensor<1x2x3xf32>
  %b = util.unfoldable_constant dense<[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]]> : tensor<1x3x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  check.expect_eq(%0, %a) : tensor<1x2x3xf32>
  return
}

func.func @matmul_i8() {
  %a = util.unfoldable_constant dense<[[[-128, -5, 0], [7, 127, 3]]]> : tensor<1x2x3xi8>
  %b = util.unfoldable_constant dense<[[[1, -2], [100, -128], [127, 0]]]> : tensor<1x3x2xi8>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  check.expect_eq_const(%0, dense<[[[-628, 896], [13088, -16270]]]> : tensor<1x2x2xi32>) : tensor<1x2x2xi32>
  return
}

// sum_k (a - 3) * (b + 2)
func.func @matmul_i8_zero_points() {
  %a = util.unfoldable_constant dense<[[[-128, -5, 0], [7, 127, 3]]]> : tensor<1x2x3xi8>
  %b = util.unfoldable_constant dense<[[[1, -2], [100, -128], [127, 0]]]> : tensor<1x3x2xi8>
  %a_zp = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %b_zp = "tosa.const"() <{values = dense<-2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %a_zp, %b_zp : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  check.expect_eq_const(%0, dense<[[[-1596, 1002], [12660, -15624]]]> : tensor<1x2x2xi32>) : tensor<1x2x2xi32>
  return
}

// f16 operands accumulate into an f32 result.
func.func @matmul_f16_to_f32() {
  %a = util.unfoldable_constant dense<[[[0.5, -1.0], [2.0, 0.25]]]> : tensor<1x2x2xf16>
  %b = util.unfoldable_constant dense<[[[4.0, 1.0], [-2.0, 8.0]]]> : tensor<1x2x2xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x2xf16>, tensor<1x2x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[4.0, -7.5], [7.5, 4.0]]]> : tensor<1x2x2xf32>) : tensor<1x2x2xf32>
  return
}

// Matmul followed by a bias add and a ReLU (clamp), as in a dense layer.
func.func @matmul_bias_relu_f32() {
  %a = util.unfoldable_constant dense<[[[1.0, -1.0], [2.0, 3.0]]]> : tensor<1x2x2xf32>
  %b = util.unfoldable_constant dense<[[[1.0, 2.0, -3.0], [4.0, -5.0, 6.0]]]> : tensor<1x2x3xf32>
  %bias = "tosa.const"() <{values = dense<[[[0.5, 1.0, -1.0]]]> : tensor<1x1x3xf32>}> : () -> tensor<1x1x3xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %1 = tosa.add %0, %bias : (tensor<1x2x3xf32>, tensor<1x1x3xf32>) -> tensor<1x2x3xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  check.expect_almost_eq_const(%2, dense<[[[0.0, 8.0, 0.0], [14.5, 0.0, 11.0]]]> : tensor<1x2x3xf32>) : tensor<1x2x3xf32>
  return
}
