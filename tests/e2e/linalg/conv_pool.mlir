// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// linalg convolutions (conv_2d_nhwc_hwcf, depthwise_conv_2d_nhwc_hwc) and
// pooling (pooling_nhwc_max, pooling_nhwc_sum).

// CHECK: {{^}}conv_2d_nhwc_hwcf_f32: PASS
// CHECK: {{^}}conv_2d_nhwc_hwcf_stride2_batch2_f32: PASS
// CHECK: {{^}}conv_2d_nhwc_hwcf_dilation2_f32: PASS
// CHECK: {{^}}conv_2d_nhwc_hwcf_tensor_pad_f32: PASS
// CHECK: {{^}}conv_2d_nhwc_hwcf_i8_i32: PASS
// CHECK: {{^}}depthwise_conv_2d_nhwc_hwc_f32: PASS
// CHECK: {{^}}depthwise_conv_2d_nhwc_hwc_stride2_f32: PASS
// CHECK: {{^}}pooling_nhwc_max_f32: PASS
// CHECK: {{^}}pooling_nhwc_sum_f32: PASS
// CHECK: {{^}}pooling_nhwc_max_i32: PASS
// CHECK: {{^}}10 passed, 0 failed

func.func @conv_2d_nhwc_hwcf_f32() {
  %x = util.unfoldable_constant dense<[[[[0.5, -2.0], [-1.5, 2.0], [-1.0, -1.0], [-2.0, 1.0]], [[-0.5, 1.0], [-2.0, 2.0], [-0.5, 1.5], [-1.0, 1.0]], [[-1.0, -1.0], [-0.5, 0.5], [1.5, 0.0], [1.0, -2.0]], [[0.5, 1.5], [-0.5, -1.0], [-0.5, -1.0], [0.0, -1.0]]]]> : tensor<1x4x4x2xf32>
  %w = util.unfoldable_constant dense<[[[[-2.0, 2.0, 0.0], [-0.5, -1.0, -1.0]], [[1.5, 1.5, 0.0], [-1.5, -0.5, 0.0]], [[0.5, -0.5, -1.5], [-1.0, -2.0, -1.5]]], [[[-1.0, 2.0, 0.5], [-2.0, -2.0, -1.5]], [[-1.0, 1.0, 1.0], [-1.5, 0.5, -2.0]], [[0.0, 2.0, -0.5], [2.0, 1.5, 1.0]]], [[[-1.5, 2.0, 0.0], [-0.5, 2.0, 1.0]], [[-1.5, 0.5, -2.0], [-2.0, 2.0, -0.5]], [[-1.5, -0.5, 2.0], [0.0, -2.0, 1.5]]]]> : tensor<3x3x2x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>) outs(%init : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-4.75, -4.5, 1.75], [-5.0, -11.0, -10.0]], [[-2.5, -2.0, -3.25], [-3.5, -13.75, -5.0]]]]> : tensor<1x2x2x3xf32>) : tensor<1x2x2x3xf32>
  return
}

func.func @conv_2d_nhwc_hwcf_stride2_batch2_f32() {
  %x = util.unfoldable_constant dense<[[[[0.0], [0.5], [0.5], [-2.0], [-0.5]], [[1.0], [-1.0], [2.0], [1.5], [1.5]], [[-1.0], [1.0], [-2.0], [-1.0], [-1.0]], [[1.0], [2.0], [1.5], [-2.0], [-1.5]], [[-1.5], [0.5], [0.5], [1.5], [-0.5]]], [[[0.5], [2.0], [1.5], [-2.0], [0.0]], [[1.0], [0.0], [1.0], [2.0], [2.0]], [[-0.5], [0.0], [2.0], [-0.5], [0.0]], [[1.5], [1.5], [0.5], [0.0], [-1.0]], [[-2.0], [-2.0], [-1.0], [1.0], [-1.5]]]]> : tensor<2x5x5x1xf32>
  %w = util.unfoldable_constant dense<[[[[2.0, 1.5]], [[1.0, -1.5]], [[1.0, 1.5]]], [[[0.0, 1.0]], [[1.5, 2.0]], [[-2.0, 1.5]]], [[[1.0, -1.0]], [[2.0, 0.0]], [[-0.5, 0.0]]]]> : tensor<3x3x1x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<2x5x5x1xf32>, tensor<3x3x1x2xf32>) outs(%init : tensor<2x2x2x2xf32>) -> tensor<2x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-2.5, 3.0], [-5.75, 12.25]], [[-3.75, 2.75], [-2.25, -8.25]]], [[[1.0, 3.0], [1.0, 11.25]], [[-3.25, 9.5], [7.25, 3.75]]]]> : tensor<2x2x2x2xf32>) : tensor<2x2x2x2xf32>
  return
}

func.func @conv_2d_nhwc_hwcf_dilation2_f32() {
  %x = util.unfoldable_constant dense<[[[[1.0], [-2.0], [0.0], [-2.0], [-1.0]], [[-0.5], [0.5], [-1.0], [1.0], [1.5]], [[-0.5], [-1.0], [-0.5], [-0.5], [2.0]], [[-0.5], [0.0], [1.0], [1.5], [-1.5]], [[-1.5], [-1.0], [2.0], [0.0], [-1.5]]]]> : tensor<1x5x5x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x3x3x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x5x5x1xf32>, tensor<2x2x1x1xf32>) outs(%init : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-2.5], [-11.0], [4.5]], [[0.0], [8.5], [-1.0]], [[2.0], [-5.0], [3.5]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}

// "Same" padding written as tensor.pad before the convolution.
func.func @conv_2d_nhwc_hwcf_tensor_pad_f32() {
  %x = util.unfoldable_constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %w = util.unfoldable_constant dense<[[[[1.0]], [[1.0]], [[1.0]]], [[[1.0]], [[1.0]], [[1.0]]], [[[1.0]], [[1.0]], [[1.0]]]]> : tensor<3x3x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x3x1xf32> to tensor<1x5x5x1xf32>
  %empty = tensor.empty() : tensor<1x3x3x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%padded, %w : tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) outs(%init : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  check.expect_almost_eq_const(%0, dense<[[[[12.0], [21.0], [16.0]], [[27.0], [45.0], [33.0]], [[24.0], [39.0], [28.0]]]]> : tensor<1x3x3x1xf32>) : tensor<1x3x3x1xf32>
  return
}

// i8 input and filter accumulated in i32 (the named op sign-extends).
func.func @conv_2d_nhwc_hwcf_i8_i32() {
  %x = util.unfoldable_constant dense<[[[[-32, 1], [-120, -89], [-103, -120]], [[125, -112], [123, 86], [19, -2]], [[99, 23], [-124, 125], [-20, 54]]]]> : tensor<1x3x3x2xi8>
  %w = util.unfoldable_constant dense<[[[[-51, 88], [116, -31]], [[-86, -100], [21, 1]]], [[[-106, 21], [-84, 69]], [[-49, 78], [-44, 24]]]]> : tensor<2x2x2x2xi8>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<1x2x2x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x3x3x2xi8>, tensor<2x2x2x2xi8>) outs(%init : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  check.expect_eq_const(%0, dense<[[[[-3454, 15619], [-18971, 12330]], [[-39989, -748], [3275, 12013]]]]> : tensor<1x2x2x2xi32>) : tensor<1x2x2x2xi32>
  return
}

func.func @depthwise_conv_2d_nhwc_hwc_f32() {
  %x = util.unfoldable_constant dense<[[[[0.5, 0.5, 0.5], [0.0, -1.0, 0.0], [0.5, 0.0, -0.5], [1.0, -0.5, -2.0]], [[-0.5, 1.0, -2.0], [1.5, -2.0, -1.5], [1.5, 0.0, 0.0], [1.5, -0.5, 2.0]], [[0.0, 1.0, -1.0], [-0.5, 0.5, 1.0], [-1.5, 1.5, -1.0], [1.0, 0.5, -1.5]], [[-1.0, 1.0, 0.0], [-2.0, -0.5, -1.0], [1.0, 0.0, 1.0], [0.0, 0.0, 2.0]]]]> : tensor<1x4x4x3xf32>
  %w = util.unfoldable_constant dense<[[[-0.5, -2.0, -2.0], [1.0, 0.0, 0.0], [-1.5, -2.0, -2.0]], [[1.5, 0.0, 1.0], [-0.5, 1.0, 0.0], [-0.5, -2.0, -2.0]], [[1.5, -1.0, 0.0], [-2.0, 1.0, 1.5], [-2.0, 1.0, 1.5]]]> : tensor<3x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x4x4x3xf32>, tensor<3x3x3xf32>) outs(%init : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[[[0.75, -2.0, -2.0], [0.0, 5.5, -5.25]], [[1.0, -6.0, 5.0], [-7.0, 6.0, 7.5]]]]> : tensor<1x2x2x3xf32>) : tensor<1x2x2x3xf32>
  return
}

func.func @depthwise_conv_2d_nhwc_hwc_stride2_f32() {
  %x = util.unfoldable_constant dense<[[[[-2.0, 1.5], [0.0, -0.5], [1.0, 0.0], [1.0, 1.5], [-0.5, 2.0]], [[-2.0, -1.0], [2.0, 0.0], [0.0, 1.0], [-1.0, 1.0], [2.0, 1.5]], [[2.0, 2.0], [1.5, 0.5], [0.5, 2.0], [1.5, 1.0], [2.0, 0.5]], [[-0.5, -0.5], [0.5, 0.5], [2.0, -0.5], [-1.0, -2.0], [0.5, 0.5]], [[0.0, -0.5], [0.0, 0.5], [2.0, 0.5], [0.0, -2.0], [-2.0, -0.5]]]]> : tensor<1x5x5x2xf32>
  %w = util.unfoldable_constant dense<[[[-1.5, 0.5], [-0.5, 2.0], [-0.5, -0.5]], [[0.0, 1.0], [1.0, -1.5], [1.0, 2.0]], [[1.5, -0.5], [-2.0, -0.5], [-1.0, 1.5]]]> : tensor<3x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x5x5x2xf32>, tensor<3x3x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[4.0, 2.5], [-5.0, 3.75]], [[-3.5, -0.5], [2.0, 6.25]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

// Max pooling starts from -inf; the window is given by the shape of a dummy
// tensor.
func.func @pooling_nhwc_max_f32() {
  %x = util.unfoldable_constant dense<[[[[-1.0, -1.5], [-1.0, 2.0], [0.0, -1.5], [2.0, 1.0]], [[-2.0, 0.5], [2.0, 1.0], [0.5, -2.0], [-1.5, 1.0]], [[-2.0, -0.5], [0.5, 1.0], [2.0, -2.0], [0.5, -1.5]], [[1.0, -1.0], [-1.0, 1.0], [1.5, 2.0], [-0.5, 2.0]]]]> : tensor<1x4x4x2xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<1x2x2x2xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%empty : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %window : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[2.0, 2.0], [2.0, 1.0]], [[1.0, 1.0], [2.0, 2.0]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

func.func @pooling_nhwc_sum_f32() {
  %x = util.unfoldable_constant dense<[[[[-1.0, -1.5], [-1.0, 2.0], [0.0, -1.5], [2.0, 1.0]], [[-2.0, 0.5], [2.0, 1.0], [0.5, -2.0], [-1.5, 1.0]], [[-2.0, -0.5], [0.5, 1.0], [2.0, -2.0], [0.5, -1.5]], [[1.0, -1.0], [-1.0, 1.0], [1.5, 2.0], [-0.5, 2.0]]]]> : tensor<1x4x4x2xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %window : tensor<1x4x4x2xf32>, tensor<3x3xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[-1.0, -3.0], [5.0, -1.0]], [[2.5, 0.0], [4.0, 2.5]]]]> : tensor<1x2x2x2xf32>) : tensor<1x2x2x2xf32>
  return
}

func.func @pooling_nhwc_max_i32() {
  %x = util.unfoldable_constant dense<[[[[88, -84], [-4, 894], [-334, 14], [-662, 883]], [[-822, 501], [736, -491], [719, -15], [-615, 814]], [[406, 58], [-343, 281], [458, -507], [254, -271]], [[-811, 207], [-39, 785], [774, -470], [788, -518]]]]> : tensor<1x4x4x2xi32>
  %window = tensor.empty() : tensor<2x2xi32>
  %min = arith.constant -2147483648 : i32
  %empty = tensor.empty() : tensor<1x2x2x2xi32>
  %init = linalg.fill ins(%min : i32) outs(%empty : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %window : tensor<1x4x4x2xi32>, tensor<2x2xi32>) outs(%init : tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi32>
  check.expect_eq_const(%0, dense<[[[[736, 894], [719, 883]], [[406, 785], [788, -271]]]]> : tensor<1x2x2x2xi32>) : tensor<1x2x2x2xi32>
  return
}
