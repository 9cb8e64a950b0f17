// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// TOSA reductions along each axis (the reduced axis is kept with size 1) and
// tosa.argmax (the axis is removed).

// CHECK: {{^}}reduce_sum_axis0_f32: PASS
// CHECK: {{^}}reduce_sum_axis1_f32: PASS
// CHECK: {{^}}reduce_sum_axis2_f32: PASS
// CHECK: {{^}}reduce_max_axis0_f32: PASS
// CHECK: {{^}}reduce_max_axis1_f32: PASS
// CHECK: {{^}}reduce_max_axis2_f32: PASS
// CHECK: {{^}}reduce_min_axis0_f32: PASS
// CHECK: {{^}}reduce_min_axis1_f32: PASS
// CHECK: {{^}}reduce_min_axis2_f32: PASS
// CHECK: {{^}}reduce_product_axis0_f32: PASS
// CHECK: {{^}}reduce_product_axis1_f32: PASS
// CHECK: {{^}}reduce_sum_axis0_i32: PASS
// CHECK: {{^}}reduce_sum_axis1_i32: PASS
// CHECK: {{^}}reduce_max_axis0_i32: PASS
// CHECK: {{^}}reduce_max_axis1_i32: PASS
// CHECK: {{^}}reduce_min_axis0_i32: PASS
// CHECK: {{^}}reduce_min_axis1_i32: PASS
// CHECK: {{^}}reduce_any_axis0: PASS
// CHECK: {{^}}reduce_any_axis1: PASS
// CHECK: {{^}}reduce_all_axis0: PASS
// CHECK: {{^}}reduce_all_axis1: PASS
// CHECK: {{^}}argmax_axis0_f32: PASS
// CHECK: {{^}}argmax_axis1_f32: PASS
// CHECK: {{^}}argmax_axis2_f32: PASS
// CHECK: {{^}}argmax_ties_i8: PASS
// CHECK: {{^}}argmax_1d_f32: PASS
// CHECK: {{^}}argmax_f16: PASS
// CHECK: {{^}}27 passed, 0 failed

func.func @reduce_sum_axis0_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_sum %0 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  check.expect_almost_eq_const(%1, dense<[[[1.25, 4.25, -3.0, 3.5], [-2.75, -3.75, 1.5, 0.5], [-1.25, -2.5, 3.0, 0.25]]]> : tensor<1x3x4xf32>) : tensor<1x3x4xf32>
  return
}

func.func @reduce_sum_axis1_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_sum %0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  check.expect_almost_eq_const(%1, dense<[[[0.0, -1.25, 1.25, 0.75]], [[-2.75, -0.75, 0.25, 3.5]]]> : tensor<2x1x4xf32>) : tensor<2x1x4xf32>
  return
}

func.func @reduce_sum_axis2_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_sum %0 {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[-0.75], [-1.5], [3.0]], [[6.75], [-3.0], [-3.5]]]> : tensor<2x3x1xf32>) : tensor<2x3x1xf32>
  return
}

func.func @reduce_max_axis0_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_max %0 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  check.expect_almost_eq_const(%1, dense<[[[2.75, 3.0, -0.25, 3.0], [-1.25, -1.75, 0.75, 0.75], [2.75, 0.0, 3.25, 0.75]]]> : tensor<1x3x4xf32>) : tensor<1x3x4xf32>
  return
}

func.func @reduce_max_axis1_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_max %0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  check.expect_almost_eq_const(%1, dense<[[[2.75, 3.0, 3.25, 0.75]], [[2.75, 1.25, 0.75, 3.0]]]> : tensor<2x1x4xf32>) : tensor<2x1x4xf32>
  return
}

func.func @reduce_max_axis2_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_max %0 {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[3.0], [0.75], [3.25]], [[3.0], [0.75], [0.75]]]> : tensor<2x3x1xf32>) : tensor<2x3x1xf32>
  return
}

func.func @reduce_min_axis0_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_min %0 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  check.expect_almost_eq_const(%1, dense<[[[-1.5, 1.25, -2.75, 0.5], [-1.5, -2.0, 0.75, -0.25], [-4.0, -2.5, -0.25, -0.5]]]> : tensor<1x3x4xf32>) : tensor<1x3x4xf32>
  return
}

func.func @reduce_min_axis1_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_min %0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  check.expect_almost_eq_const(%1, dense<[[[-1.5, -2.5, -2.75, -0.5]], [[-4.0, -2.0, -0.25, -0.25]]]> : tensor<2x1x4xf32>) : tensor<2x1x4xf32>
  return
}

func.func @reduce_min_axis2_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.reduce_min %0 {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[[-2.75], [-1.75], [-2.5]], [[-0.25], [-2.0], [-4.0]]]> : tensor<2x3x1xf32>) : tensor<2x3x1xf32>
  return
}

func.func @reduce_product_axis0_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0, -0.5, 3.0], [0.5, -1.0, 4.0, 0.25], [2.0, 2.0, 2.0, -2.0]]> : tensor<3x4xf32>
  %1 = tosa.reduce_product %0 {axis = 0 : i32} : (tensor<3x4xf32>) -> tensor<1x4xf32>
  check.expect_almost_eq_const(%1, dense<[[1.0, -4.0, -4.0, -1.5]]> : tensor<1x4xf32>) : tensor<1x4xf32>
  return
}

func.func @reduce_product_axis1_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0, -0.5, 3.0], [0.5, -1.0, 4.0, 0.25], [2.0, 2.0, 2.0, -2.0]]> : tensor<3x4xf32>
  %1 = tosa.reduce_product %0 {axis = 1 : i32} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  check.expect_almost_eq_const(%1, dense<[[-3.0], [-0.5], [-16.0]]> : tensor<3x1xf32>) : tensor<3x1xf32>
  return
}

func.func @reduce_sum_axis0_i32() {
  %0 = util.unfoldable_constant dense<[[3, 78, 38, -93], [58, -9, -26, 44], [-6, -97, 13, -31]]> : tensor<3x4xi32>
  %1 = tosa.reduce_sum %0 {axis = 0 : i32} : (tensor<3x4xi32>) -> tensor<1x4xi32>
  check.expect_eq_const(%1, dense<[[55, -28, 25, -80]]> : tensor<1x4xi32>) : tensor<1x4xi32>
  return
}

func.func @reduce_sum_axis1_i32() {
  %0 = util.unfoldable_constant dense<[[3, 78, 38, -93], [58, -9, -26, 44], [-6, -97, 13, -31]]> : tensor<3x4xi32>
  %1 = tosa.reduce_sum %0 {axis = 1 : i32} : (tensor<3x4xi32>) -> tensor<3x1xi32>
  check.expect_eq_const(%1, dense<[[26], [67], [-121]]> : tensor<3x1xi32>) : tensor<3x1xi32>
  return
}

func.func @reduce_max_axis0_i32() {
  %0 = util.unfoldable_constant dense<[[3, 78, 38, -93], [58, -9, -26, 44], [-6, -97, 13, -31]]> : tensor<3x4xi32>
  %1 = tosa.reduce_max %0 {axis = 0 : i32} : (tensor<3x4xi32>) -> tensor<1x4xi32>
  check.expect_eq_const(%1, dense<[[58, 78, 38, 44]]> : tensor<1x4xi32>) : tensor<1x4xi32>
  return
}

func.func @reduce_max_axis1_i32() {
  %0 = util.unfoldable_constant dense<[[3, 78, 38, -93], [58, -9, -26, 44], [-6, -97, 13, -31]]> : tensor<3x4xi32>
  %1 = tosa.reduce_max %0 {axis = 1 : i32} : (tensor<3x4xi32>) -> tensor<3x1xi32>
  check.expect_eq_const(%1, dense<[[78], [58], [13]]> : tensor<3x1xi32>) : tensor<3x1xi32>
  return
}

func.func @reduce_min_axis0_i32() {
  %0 = util.unfoldable_constant dense<[[3, 78, 38, -93], [58, -9, -26, 44], [-6, -97, 13, -31]]> : tensor<3x4xi32>
  %1 = tosa.reduce_min %0 {axis = 0 : i32} : (tensor<3x4xi32>) -> tensor<1x4xi32>
  check.expect_eq_const(%1, dense<[[-6, -97, -26, -93]]> : tensor<1x4xi32>) : tensor<1x4xi32>
  return
}

func.func @reduce_min_axis1_i32() {
  %0 = util.unfoldable_constant dense<[[3, 78, 38, -93], [58, -9, -26, 44], [-6, -97, 13, -31]]> : tensor<3x4xi32>
  %1 = tosa.reduce_min %0 {axis = 1 : i32} : (tensor<3x4xi32>) -> tensor<3x1xi32>
  check.expect_eq_const(%1, dense<[[-93], [-26], [-97]]> : tensor<3x1xi32>) : tensor<3x1xi32>
  return
}

func.func @reduce_any_axis0() {
  %0 = util.unfoldable_constant dense<[[true, false, true, true], [true, true, true, true], [false, false, true, false]]> : tensor<3x4xi1>
  %1 = tosa.reduce_any %0 {axis = 0 : i32} : (tensor<3x4xi1>) -> tensor<1x4xi1>
  check.expect_eq_const(%1, dense<[[true, true, true, true]]> : tensor<1x4xi1>) : tensor<1x4xi1>
  return
}

func.func @reduce_any_axis1() {
  %0 = util.unfoldable_constant dense<[[true, false, true, true], [true, true, true, true], [false, false, true, false]]> : tensor<3x4xi1>
  %1 = tosa.reduce_any %0 {axis = 1 : i32} : (tensor<3x4xi1>) -> tensor<3x1xi1>
  check.expect_eq_const(%1, dense<[[true], [true], [true]]> : tensor<3x1xi1>) : tensor<3x1xi1>
  return
}

func.func @reduce_all_axis0() {
  %0 = util.unfoldable_constant dense<[[true, false, true, true], [true, true, true, true], [false, false, true, false]]> : tensor<3x4xi1>
  %1 = tosa.reduce_all %0 {axis = 0 : i32} : (tensor<3x4xi1>) -> tensor<1x4xi1>
  check.expect_eq_const(%1, dense<[[false, false, true, false]]> : tensor<1x4xi1>) : tensor<1x4xi1>
  return
}

func.func @reduce_all_axis1() {
  %0 = util.unfoldable_constant dense<[[true, false, true, true], [true, true, true, true], [false, false, true, false]]> : tensor<3x4xi1>
  %1 = tosa.reduce_all %0 {axis = 1 : i32} : (tensor<3x4xi1>) -> tensor<3x1xi1>
  check.expect_eq_const(%1, dense<[[false], [true], [false]]> : tensor<3x1xi1>) : tensor<3x1xi1>
  return
}

func.func @argmax_axis0_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.argmax %0 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<3x4xi32>
  check.expect_eq_const(%1, dense<[[1, 0, 1, 1], [0, 0, 0, 0], [0, 1, 0, 1]]> : tensor<3x4xi32>) : tensor<3x4xi32>
  return
}

func.func @argmax_axis1_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.argmax %0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  check.expect_eq_const(%1, dense<[[2, 0, 2, 1], [0, 0, 1, 0]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}

func.func @argmax_axis2_f32() {
  %0 = util.unfoldable_constant dense<[[[-1.5, 3.0, -2.75, 0.5], [-1.25, -1.75, 0.75, 0.75], [2.75, -2.5, 3.25, -0.5]], [[2.75, 1.25, -0.25, 3.0], [-1.5, -2.0, 0.75, -0.25], [-4.0, 0.0, -0.25, 0.75]]]> : tensor<2x3x4xf32>
  %1 = tosa.argmax %0 {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[1, 2, 2], [3, 2, 3]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

// Ties resolve to the first index.
func.func @argmax_ties_i8() {
  %0 = util.unfoldable_constant dense<[[3, 7, 7, 1], [5, 5, 5, 5], [-2, -9, -2, -9]]> : tensor<3x4xi8>
  %1 = tosa.argmax %0 {axis = 1 : i32} : (tensor<3x4xi8>) -> tensor<3xi32>
  check.expect_eq_const(%1, dense<[1, 0, 0]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @argmax_1d_f32() {
  %0 = util.unfoldable_constant dense<[4.0, -2.75, -0.25, 1.75, -1.0, -3.25, -1.25]> : tensor<7xf32>
  %1 = tosa.argmax %0 {axis = 0 : i32} : (tensor<7xf32>) -> tensor<i32>
  check.expect_eq_const(%1, dense<0> : tensor<i32>) : tensor<i32>
  return
}

func.func @argmax_f16() {
  %0 = util.unfoldable_constant dense<[[1.0, 3.0, 2.0], [-0.5, -0.25, -4.0]]> : tensor<2x3xf16>
  %1 = tosa.argmax %0 {axis = 1 : i32} : (tensor<2x3xf16>) -> tensor<2xi32>
  check.expect_eq_const(%1, dense<[1, 1]> : tensor<2xi32>) : tensor<2xi32>
  return
}
