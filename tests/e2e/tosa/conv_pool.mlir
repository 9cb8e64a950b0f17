// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// tosa.conv2d (NHWC input, OHWI weights), tosa.depthwise_conv2d (HWCM
// weights), tosa.max_pool2d, tosa.avg_pool2d, tosa.conv3d and
// tosa.transpose_conv2d.

// CHECK: {{^}}conv2d_3x3_pad1_f32: PASS
// CHECK: {{^}}conv2d_1x1_f32: PASS
// CHECK: {{^}}conv2d_stride2_batch2_f32: PASS
// CHECK: {{^}}conv2d_dilation2_f32: PASS
// CHECK: {{^}}conv2d_asymmetric_pad_f32: PASS
// CHECK: {{^}}conv2d_i8_input_zero_point: PASS
// CHECK: {{^}}depthwise_conv2d_f32: PASS
// CHECK: {{^}}depthwise_conv2d_multiplier2_stride2_f32: PASS
// CHECK: {{^}}max_pool2d_f32: PASS
// CHECK: {{^}}max_pool2d_pad_f32: PASS
// CHECK: {{^}}max_pool2d_negative_pad_f32: PASS
// CHECK: {{^}}max_pool2d_i8: PASS
// CHECK: {{^}}avg_pool2d_f32: PASS
// CHECK: {{^}}avg_pool2d_pad_f32: PASS
// CHECK: {{^}}conv3d_f32: PASS
// CHECK: {{^}}transpose_conv2d_f32: PASS
// CHECK: {{^}}16 passed, 0 failed

func.func @conv2d_3x3_pad1_f32() {
  %x = util.unfoldable_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0], [0.0], [-1.0]], [[2.0], [0.0], [-2.0]], [[1.0], [0.0], [-1.0]]], [[[0.0], [1.0], [0.0]], [[1.0], [-4.0], [1.0]], [[0.0], [1.0], [0.0]]]]> : tensor<2x3x3x1xf32>
  %bias = "tosa.const"() <{values = dense<[0.5, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf32>, tensor<2x3x3x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-8.5, 1.0], [-5.5, 0.0], [9.5, -5.0]], [[-19.5, -4.0], [-7.5, -1.0], [20.5, -8.0]], [[-20.5, -17.0], [-5.5, -12.0], [21.5, -23.0]]]]> : tensor<1x3x3x2xf32>) : tensor<1x3x3x2xf32>
  return
}

func.func @conv2d_1x1_f32() {
  %x = util.unfoldable_constant dense<[[[[-1.0, 1.5, 0.5], [-0.5, 2.0, 1.0]], [[0.0, -1.0, 1.5], [0.5, -0.5, 2.0]]]]> : tensor<1x2x2x3xf32>
  %w = util.unfoldable_constant dense<[[[[1.0, 2.0, -1.0]]], [[[0.5, 0.0, 3.0]]]]> : tensor<2x1x1x3xf32>
  %bias = "tosa.const"() <{values = dense<[0.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[1.5, 2.0], [2.5, 3.75]], [[-3.5, 5.5], [-2.5, 7.25]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

func.func @conv2d_stride2_batch2_f32() {
  %x = util.unfoldable_constant dense<[[[[0.0], [1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0], [7.0]], [[8.0], [9.0], [10.0], [11.0]], [[12.0], [13.0], [14.0], [15.0]]], [[[16.0], [17.0], [18.0], [19.0]], [[20.0], [21.0], [22.0], [23.0]], [[24.0], [25.0], [26.0], [27.0]], [[28.0], [29.0], [30.0], [31.0]]]]> : tensor<2x4x4x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0], [-1.0]], [[2.0], [0.5]]]]> : tensor<1x2x2x1xf32>
  %bias = "tosa.const"() <{values = dense<[1.0]> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x4x4x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x2x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[10.5], [15.5]], [[30.5], [35.5]]], [[[50.5], [55.5]], [[70.5], [75.5]]]]> : tensor<2x2x2x1xf32>) : tensor<2x2x2x1xf32>
  return
}

func.func @conv2d_dilation2_f32() {
  %x = util.unfoldable_constant dense<[[[[0.0], [3.0], [6.0], [1.0], [4.0]], [[7.0], [2.0], [5.0], [0.0], [3.0]], [[6.0], [1.0], [4.0], [7.0], [2.0]], [[5.0], [0.0], [3.0], [6.0], [1.0]], [[4.0], [7.0], [2.0], [5.0], [0.0]]]]> : tensor<1x5x5x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %bias = "tosa.const"() <{values = dense<[0.0]> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[46.0], [36.0], [34.0]], [[44.0], [26.0], [24.0]], [[34.0], [56.0], [14.0]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}

// pad = [top, bottom, left, right] = [0, 1, 1, 0]; the weights are powers of
// ten so each output digit names the input that fed it.
func.func @conv2d_asymmetric_pad_f32() {
  %x = util.unfoldable_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0], [10.0]], [[100.0], [1000.0]]]]> : tensor<1x2x2x1xf32>
  %bias = "tosa.const"() <{values = dense<[0.0]> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[4010.0], [5421.0], [6532.0]], [[7040.0], [8754.0], [9865.0]], [[70.0], [87.0], [98.0]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}

// int8 conv with an input zero point of -3: sum (x + 3) * w + bias, in i32.
func.func @conv2d_i8_input_zero_point() {
  %x = util.unfoldable_constant dense<[[[[-128], [-50], [0]], [[50], [127], [3]], [[-7], [9], [100]]]]> : tensor<1x3x3x1xi8>
  %w = util.unfoldable_constant dense<[[[[1], [-1]], [[2], [-2]]], [[[3], [0]], [[0], [-3]]]]> : tensor<2x2x2x1xi8>
  %bias = "tosa.const"() <{values = dense<[10, -10]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %x_zp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w_zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %bias, %x_zp, %w_zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xi8>, tensor<2x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  check.expect_eq_const(%0, dense<[[[[-222, -775], [208, -169]], [[-99, 113], [-48, 71]]]]> : tensor<1x2x2x2xi32>) : tensor<1x2x2x2xi32>
  return
}

func.func @depthwise_conv2d_f32() {
  %x = util.unfoldable_constant dense<[[[[-2.0, -1.0], [0.0, 1.0], [2.0, -2.0]], [[-1.0, 0.0], [1.0, 2.0], [-2.0, -1.0]], [[0.0, 1.0], [2.0, -2.0], [-1.0, 0.0]]]]> : tensor<1x3x3x2xf32>
  %w = util.unfoldable_constant dense<[[[[1.0], [2.0]], [[-1.0], [0.5]]], [[[0.0], [1.0]], [[2.0], [-1.0]]]]> : tensor<2x2x2x1xf32>
  %bias = "tosa.const"() <{values = dense<[0.0, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xf32>, tensor<2x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[0.0, -2.5], [-6.0, 5.0]], [[2.0, 5.0], [1.0, 2.5]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

// Channel multiplier 2, top and left padding 1 and stride 2: output channel m of input
// channel c is c * 2 + m.
func.func @depthwise_conv2d_multiplier2_stride2_f32() {
  %x = util.unfoldable_constant dense<[[[[0.0], [1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0], [7.0]], [[8.0], [9.0], [10.0], [11.0]], [[12.0], [13.0], [14.0], [15.0]]]]> : tensor<1x4x4x1xf32>
  %w = util.unfoldable_constant dense<[[[[0.0, 1.0]], [[1.0, 0.0]], [[0.0, -1.0]]], [[[1.0, 0.0]], [[1.0, 0.0]], [[1.0, 0.0]]], [[[0.0, -1.0]], [[1.0, 0.0]], [[0.0, 1.0]]]]> : tensor<3x3x1x2xf32>
  %bias = "tosa.const"() <{values = dense<[0.0, 0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>, tensor<3x3x1x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[5.0, 5.5], [12.0, 2.5]], [[33.0, 8.5], [50.0, 0.5]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

func.func @max_pool2d_f32() {
  %x = util.unfoldable_constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[2.0], [5.0]], [[3.0], [5.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

// Padding never wins the max, even where every real value is negative.
func.func @max_pool2d_pad_f32() {
  %x = util.unfoldable_constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[2.0], [4.0], [5.0], [5.0]], [[3.0], [4.0], [5.0], [5.0]], [[3.0], [5.0], [5.0], [5.0]], [[3.0], [5.0], [5.0], [5.0]]]]> : tensor<1x4x4x1xf32>) : tensor<1x4x4x1xf32>
  return
}

func.func @max_pool2d_negative_pad_f32() {
  %x = util.unfoldable_constant dense<[[[[-5.0], [-6.0]], [[-7.0], [-8.0]]]]> : tensor<1x2x2x1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-5.0], [-5.0]], [[-5.0], [-5.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

func.func @max_pool2d_i8() {
  %x = util.unfoldable_constant dense<[[[[-100, -63], [-26, 11], [48, 85]], [[-78, -41], [-4, 33], [70, -93]], [[-56, -19], [18, 55], [92, -71]]]]> : tensor<1x3x3x2xi8>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x2xi8>) -> tensor<1x2x2x2xi8>
  check.expect_eq_const(%0, dense<[[[[-4, 33], [70, 85]], [[18, 55], [92, 55]]]]> : tensor<1x2x2x2xi8>) : tensor<1x2x2x2xi8>
  return
}

func.func @avg_pool2d_f32() {
  %x = util.unfoldable_constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-1.25], [1.75]], [[-0.25], [0.0]]]]> : tensor<1x2x2x1xf32>) : tensor<1x2x2x1xf32>
  return
}

// The divisor counts only the input elements under the window, not padding.
func.func @avg_pool2d_pad_f32() {
  %x = util.unfoldable_constant dense<[[[[-5.0], [2.0], [-2.0], [5.0]], [[1.0], [-3.0], [4.0], [0.0]], [[-4.0], [3.0], [-1.0], [-5.0]], [[2.0], [-2.0], [5.0], [1.0]]]]> : tensor<1x4x4x1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-1.25], [-0.5], [1.0], [1.75]], [[-1.0], [-0.555555582], [0.333333343], [0.166666672]], [[-0.5], [0.555555582], [0.222222224], [0.666666687]], [[-0.25], [0.5], [0.166666672], [0.0]]]]> : tensor<1x4x4x1xf32>) : tensor<1x4x4x1xf32>
  return
}

// x = 1..8 over a 2x2x2 volume; the weights pick the first and the last.
func.func @conv3d_f32() {
  %x = util.unfoldable_constant dense<[[[[[1.0], [2.0]], [[3.0], [4.0]]], [[[5.0], [6.0]], [[7.0], [8.0]]]]]> : tensor<1x2x2x2x1xf32>
  %w = util.unfoldable_constant dense<[[[[[1.0], [0.0]], [[0.0], [0.0]]], [[[0.0], [0.0]], [[0.0], [2.0]]]]]> : tensor<1x2x2x2x1xf32>
  %bias = "tosa.const"() <{values = dense<[0.5]> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv3d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x2x2x2x1xf32>, tensor<1x2x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x1x1xf32>
  check.expect_almost_eq_const(%0, dense<17.5> : tensor<1x1x1x1x1xf32>) : tensor<1x1x1x1x1xf32>
  return
}

// out[iy + ky, ix + kx] += x[iy, ix] * w[ky, kx]; powers of ten show which
// input and tap fed each output.
func.func @transpose_conv2d_f32() {
  %x = util.unfoldable_constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0], [10.0]], [[100.0], [1000.0]]]]> : tensor<1x2x2x1xf32>
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[1.0], [12.0], [20.0]], [[103.0], [1234.0], [2040.0]], [[300.0], [3400.0], [4000.0]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}
