// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// TOSA ops that take !tosa.shape operands: reshape, pad and tile (tile lowers
// through a reshape), conditions reshaped to 0-d for cond_if and while_loop,
// and a strided transpose_conv2d (decomposed into reshapes and a pad). The
// tosa.const_shape ops the conversions leave behind are dead and erased.

// CHECK: {{^}}reshape_2x3_to_3x2: PASS
// CHECK: {{^}}reshape_to_rank1_f32: PASS
// CHECK: {{^}}reshape_0d_to_1x1: PASS
// CHECK: {{^}}pad_2d_f32: PASS
// CHECK: {{^}}pad_1d_i8: PASS
// CHECK: {{^}}tile_2d_i32: PASS
// CHECK: {{^}}tile_1d_f32: PASS
// CHECK: {{^}}cond_if_condition_from_reduction: PASS
// CHECK: {{^}}while_loop_condition_from_reduction: PASS
// CHECK: {{^}}transpose_conv2d_stride2_f32: PASS
// CHECK: {{^}}10 passed, 0 failed

func.func @reshape_2x3_to_3x2() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %shape = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.reshape %0, %shape : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

func.func @reshape_to_rank1_f32() {
  %0 = util.unfoldable_constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %shape = tosa.const_shape {values = dense<[8]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %1 = tosa.reshape %0, %shape : (tensor<2x2x2xf32>, !tosa.shape<1>) -> tensor<8xf32>
  check.expect_almost_eq_const(%1, dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>) : tensor<8xf32>
  return
}

func.func @reshape_0d_to_1x1() {
  %0 = util.unfoldable_constant dense<7> : tensor<i32>
  %shape = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.reshape %0, %shape : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  check.expect_eq_const(%1, dense<[[7]]> : tensor<1x1xi32>) : tensor<1x1xi32>
  return
}

// padding = [before0, after0, before1, after1]
func.func @pad_2d_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %padding = tosa.const_shape {values = dense<[1, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pad_value = "tosa.const"() <{values = dense<-1.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %1 = tosa.pad %0, %padding, %pad_value : (tensor<2x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x4xf32>
  check.expect_almost_eq_const(%1, dense<[[-1.5, -1.5, -1.5, -1.5], [1.0, 2.0, -1.5, -1.5], [3.0, 4.0, -1.5, -1.5]]> : tensor<3x4xf32>) : tensor<3x4xf32>
  return
}

func.func @pad_1d_i8() {
  %0 = util.unfoldable_constant dense<[5, -6, 7]> : tensor<3xi8>
  %padding = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %pad_value = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.pad %0, %padding, %pad_value : (tensor<3xi8>, !tosa.shape<2>, tensor<1xi8>) -> tensor<6xi8>
  check.expect_eq_const(%1, dense<[0, 0, 5, -6, 7, 0]> : tensor<6xi8>) : tensor<6xi8>
  return
}

func.func @tile_2d_i32() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %multiples = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.tile %0, %multiples : (tensor<2x3xi32>, !tosa.shape<2>) -> tensor<4x6xi32>
  check.expect_eq_const(%1, dense<[[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6], [1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]> : tensor<4x6xi32>) : tensor<4x6xi32>
  return
}

func.func @tile_1d_f32() {
  %0 = util.unfoldable_constant dense<[1.5, -2.5]> : tensor<2xf32>
  %multiples = tosa.const_shape {values = dense<[3]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %1 = tosa.tile %0, %multiples : (tensor<2xf32>, !tosa.shape<1>) -> tensor<6xf32>
  check.expect_almost_eq_const(%1, dense<[1.5, -2.5, 1.5, -2.5, 1.5, -2.5]> : tensor<6xf32>) : tensor<6xf32>
  return
}

// The condition reduces a whole tensor (is any element negative?) and is
// reshaped to the 0-d tensor<i1> tosa.cond_if takes.
func.func @cond_if_condition_from_reduction() {
  %x = util.unfoldable_constant dense<[1.0, -2.0, 3.0, 4.0]> : tensor<4xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %neg = tosa.greater %zero, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %any = tosa.reduce_any %neg {axis = 0 : i32} : (tensor<4xi1>) -> tensor<1xi1>
  %scalar = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %c = tosa.reshape %any, %scalar : (tensor<1xi1>, !tosa.shape<0>) -> tensor<i1>
  %0 = tosa.cond_if %c : tensor<i1> -> tensor<4xf32> {
    %1 = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %1 : tensor<4xf32>
  } else {
    tosa.yield %x : tensor<4xf32>
  }
  check.expect_almost_eq_const(%0, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// Doubles a vector until its sum reaches 100: 10 -> 20 -> 40 -> 80 -> 160.
func.func @while_loop_condition_from_reduction() {
  %init = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %limit = "tosa.const"() <{values = dense<100.0> : tensor<f32>}> : () -> tensor<f32>
  %0 = tosa.while_loop (%v = %init) : (tensor<4xf32>) -> tensor<4xf32> {
    %sum = tosa.reduce_sum %v {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
    %scalar = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
    %s = tosa.reshape %sum, %scalar : (tensor<1xf32>, !tosa.shape<0>) -> tensor<f32>
    %c = tosa.greater %limit, %s : (tensor<f32>, tensor<f32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%v: tensor<4xf32>):
    %next = tosa.add %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %next : tensor<4xf32>
  }
  check.expect_almost_eq_const(%0, dense<[16.0, 32.0, 48.0, 64.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// Strided tosa.transpose_conv2d decomposes into reshapes and pads: stride 2,
// two input and two output channels, with bias.
func.func @transpose_conv2d_stride2_f32() {
  %x = util.unfoldable_constant dense<[[[[1.0, -1.0], [2.0, 0.5]], [[-2.0, 1.0], [0.0, 3.0]]]]> : tensor<1x2x2x2xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 1.0], [-1.0, 0.5]]], [[[0.5, 0.5], [1.0, -1.0]], [[0.0, 2.0], [1.0, 1.0]]]]> : tensor<2x2x2x2xf32>
  %bias = "tosa.const"() <{values = dense<[0.5, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x2x2x2xf32>, tensor<2x2x2x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[1.5, -1.0], [-0.5, 1.0], [2.5, 0.25], [1.0, 0.5]], [[1.5, -3.0], [-1.0, -1.0], [5.0, 0.0], [-1.25, 1.5]], [[-1.5, -1.5], [1.5, -4.0], [0.5, 0.5], [3.5, -4.0]], [[-2.5, 1.0], [3.0, -2.0], [3.5, 5.0], [2.0, 2.0]]]]> : tensor<1x4x4x2xf32>) : tensor<1x4x4x2xf32>
  return
}
