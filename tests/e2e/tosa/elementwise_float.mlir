// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// Elementwise TOSA math on f32 tensors, one op per function.

// CHECK: {{^}}abs_f32: PASS
// CHECK: {{^}}add_f32: PASS
// CHECK: {{^}}add_broadcast_f32: PASS
// CHECK: {{^}}add_broadcast_column_f32: PASS
// CHECK: {{^}}add_scalar_0d_f32: PASS
// CHECK: {{^}}sub_f32: PASS
// CHECK: {{^}}mul_f32: PASS
// CHECK: {{^}}negate_f32: PASS
// CHECK: {{^}}exp_f32: PASS
// CHECK: {{^}}log_f32: PASS
// CHECK: {{^}}tanh_f32: PASS
// CHECK: {{^}}sigmoid_f32: PASS
// CHECK: {{^}}reciprocal_f32: PASS
// CHECK: {{^}}rsqrt_f32: PASS
// CHECK: {{^}}floor_f32: PASS
// CHECK: {{^}}ceil_f32: PASS
// CHECK: {{^}}pow_f32: PASS
// CHECK: {{^}}maximum_f32: PASS
// CHECK: {{^}}minimum_f32: PASS
// CHECK: {{^}}clamp_f32: PASS
// CHECK: {{^}}sin_f32: PASS
// CHECK: {{^}}cos_f32: PASS
// CHECK: {{^}}erf_f32: PASS
// CHECK: {{^}}chain_f32: PASS
// CHECK: {{^}}24 passed, 0 failed

func.func @abs_f32() {
  %0 = util.unfoldable_constant dense<[-1.5, 0.0, 2.25, -3000.0]> : tensor<4xf32>
  %1 = tosa.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[1.5, 0.0, 2.25, 3000.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @add_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %1 = util.unfoldable_constant dense<[[0.5, -2.0, 10.0], [-4.0, 0.25, 100.0]]> : tensor<2x3xf32>
  %2 = tosa.add %0, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%2, dense<[[1.5, 0.0, 13.0], [0.0, 5.25, 106.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @add_broadcast_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %1 = util.unfoldable_constant dense<[[10.0, 20.0, 30.0]]> : tensor<1x3xf32>
  %2 = tosa.add %0, %1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%2, dense<[[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @add_broadcast_column_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %1 = util.unfoldable_constant dense<[[100.0], [-100.0]]> : tensor<2x1xf32>
  %2 = tosa.add %0, %1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%2, dense<[[101.0, 102.0, 103.0], [-96.0, -95.0, -94.0]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}

func.func @add_scalar_0d_f32() {
  %0 = util.unfoldable_constant dense<1.25> : tensor<f32>
  %1 = util.unfoldable_constant dense<-3.5> : tensor<f32>
  %2 = tosa.add %0, %1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const(%2, dense<-2.25> : tensor<f32>) : tensor<f32>
  return
}

func.func @sub_f32() {
  %0 = util.unfoldable_constant dense<[1.0, 2.0, -3.0, 0.5]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[4.0, -2.0, -3.0, 0.25]> : tensor<4xf32>
  %2 = tosa.sub %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%2, dense<[-3.0, 4.0, 0.0, 0.25]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @mul_f32() {
  %0 = util.unfoldable_constant dense<[1.5, -2.0, 3.0, 0.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[2.0, 4.0, -0.5, 7.0]> : tensor<4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %2 = tosa.mul %0, %1, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  check.expect_almost_eq_const(%2, dense<[3.0, -8.0, -1.5, 0.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @negate_f32() {
  %0 = util.unfoldable_constant dense<[1.5, -2.0, 0.0, 1000.0]> : tensor<4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = tosa.negate %0, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[-1.5, 2.0, 0.0, -1000.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @exp_f32() {
  %0 = util.unfoldable_constant dense<[-2.0, -0.5, 0.0, 1.0, 2.5]> : tensor<5xf32>
  %1 = tosa.exp %0 : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_almost_eq_const(%1, dense<[0.135335281, 0.606530666, 1.0, 2.71828175, 12.1824942]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @log_f32() {
  %0 = util.unfoldable_constant dense<[0.5, 1.0, 2.0, 10.0]> : tensor<4xf32>
  %1 = tosa.log %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[-0.693147182, 0.0, 0.693147182, 2.30258512]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @tanh_f32() {
  %0 = util.unfoldable_constant dense<[-2.0, -0.5, 0.0, 0.5, 3.0]> : tensor<5xf32>
  %1 = tosa.tanh %0 : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_almost_eq_const(%1, dense<[-0.964027584, -0.462117165, 0.0, 0.462117165, 0.995054781]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @sigmoid_f32() {
  %0 = util.unfoldable_constant dense<[-4.0, -1.0, 0.0, 1.0, 4.0]> : tensor<5xf32>
  %1 = tosa.sigmoid %0 : (tensor<5xf32>) -> tensor<5xf32>
  check.expect_almost_eq_const(%1, dense<[0.0179862101, 0.268941432, 0.5, 0.731058598, 0.982013762]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @reciprocal_f32() {
  %0 = util.unfoldable_constant dense<[-4.0, 0.5, 3.0, 8.0]> : tensor<4xf32>
  %1 = tosa.reciprocal %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[-0.25, 2.0, 0.333333343, 0.125]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @rsqrt_f32() {
  %0 = util.unfoldable_constant dense<[0.25, 1.0, 2.0, 16.0]> : tensor<4xf32>
  %1 = tosa.rsqrt %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[2.0, 1.0, 0.707106769, 0.25]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @floor_f32() {
  %0 = util.unfoldable_constant dense<[-1.5, -0.25, 0.0, 0.75, 2.0, 3.999]> : tensor<6xf32>
  %1 = tosa.floor %0 : (tensor<6xf32>) -> tensor<6xf32>
  check.expect_almost_eq_const(%1, dense<[-2.0, -1.0, 0.0, 0.0, 2.0, 3.0]> : tensor<6xf32>) : tensor<6xf32>
  return
}

func.func @ceil_f32() {
  %0 = util.unfoldable_constant dense<[-1.5, -0.25, 0.0, 0.75, 2.0, 3.001]> : tensor<6xf32>
  %1 = tosa.ceil %0 : (tensor<6xf32>) -> tensor<6xf32>
  check.expect_almost_eq_const(%1, dense<[-1.0, 0.0, 0.0, 1.0, 2.0, 4.0]> : tensor<6xf32>) : tensor<6xf32>
  return
}

func.func @pow_f32() {
  %0 = util.unfoldable_constant dense<[2.0, 4.0, 9.0, 1.5]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[3.0, 0.5, -0.5, 2.0]> : tensor<4xf32>
  %2 = tosa.pow %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%2, dense<[8.0, 2.0, 0.333333343, 2.25]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @maximum_f32() {
  %0 = util.unfoldable_constant dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[0.5, -1.0, 3.5, -5.0]> : tensor<4xf32>
  %2 = tosa.maximum %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%2, dense<[1.0, -1.0, 3.5, -4.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @minimum_f32() {
  %0 = util.unfoldable_constant dense<[1.0, -2.0, 3.0, -4.0]> : tensor<4xf32>
  %1 = util.unfoldable_constant dense<[0.5, -1.0, 3.5, -5.0]> : tensor<4xf32>
  %2 = tosa.minimum %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%2, dense<[0.5, -2.0, 3.0, -5.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @clamp_f32() {
  %0 = util.unfoldable_constant dense<[-10.0, -1.0, -0.5, 0.0, 0.5, 6.0, 6.5, 100.0]> : tensor<8xf32>
  %1 = tosa.clamp %0 {min_val = -1.0 : f32, max_val = 6.0 : f32} : (tensor<8xf32>) -> tensor<8xf32>
  check.expect_almost_eq_const(%1, dense<[-1.0, -1.0, -0.5, 0.0, 0.5, 6.0, 6.0, 6.0]> : tensor<8xf32>) : tensor<8xf32>
  return
}

func.func @sin_f32() {
  %0 = util.unfoldable_constant dense<[0.0, 0.5, 1.0, -2.0]> : tensor<4xf32>
  %1 = tosa.sin %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[0.0, 0.47942555, 0.841470957, -0.909297407]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @cos_f32() {
  %0 = util.unfoldable_constant dense<[0.0, 0.5, 1.0, -2.0]> : tensor<4xf32>
  %1 = tosa.cos %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[1.0, 0.87758255, 0.540302277, -0.416146845]> : tensor<4xf32>) : tensor<4xf32>
  return
}

func.func @erf_f32() {
  %0 = util.unfoldable_constant dense<[-1.0, 0.0, 0.5, 2.0]> : tensor<4xf32>
  %1 = tosa.erf %0 : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_almost_eq_const(%1, dense<[-0.842700779, 0.0, 0.520499885, 0.995322287]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// Several ops in one function: (x * 2 - 1) clamped to [0, 4], then exp.
func.func @chain_f32() {
  %0 = util.unfoldable_constant dense<[[-1.0, 0.5], [1.0, 3.0]]> : tensor<2x2xf32>
  %two = "tosa.const"() <{values = dense<2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.mul %0, %two, %shift : (tensor<2x2xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x2xf32>
  %2 = tosa.sub %1, %one : (tensor<2x2xf32>, tensor<1x1xf32>) -> tensor<2x2xf32>
  %3 = tosa.clamp %2 {min_val = 0.0 : f32, max_val = 4.0 : f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %4 = tosa.exp %3 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%4, dense<[[1.0, 1.0], [2.71828175, 54.5981483]]> : tensor<2x2xf32>, atol 1.0e-4, rtol 1.0e-6) : tensor<2x2xf32>
  return
}
