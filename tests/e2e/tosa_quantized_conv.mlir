// RUN: %e2e %s -o %t
// An int8 quantized convolution block in TOSA, as a quantizing exporter
// writes it: conv2d with an input zero point accumulating in i32, a
// per-channel tosa.rescale back to i8 (through tosa.apply_scale), a clamp
// and a max pool. Integers compared exactly against upstream MLIR.
// INPUT: 1x9x9x4xi8=random
// INPUT: 8x3x3x4xi8=random
// INPUT: 8xi32=random

func.func @main(%x: tensor<1x9x9x4xi8>, %w: tensor<8x3x3x4xi8>, %bias: tensor<8xi32>) -> tensor<1x3x3x8xi8> {
  %x_zp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w_zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %bias, %x_zp, %w_zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x9x9x4xi8>, tensor<8x3x3x4xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x8xi32>
  %multiplier = "tosa.const"() <{values = dense<[1073741824, 1518500250, 1276901417, 1895736933, 1610612736, 1207959552, 2013265920, 1342177280]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %shift = "tosa.const"() <{values = dense<[33, 34, 32, 35, 33, 32, 34, 33]> : tensor<8xi8>}> : () -> tensor<8xi8>
  %in_zp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %out_zp = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %q = tosa.rescale %acc, %multiplier, %shift, %in_zp, %out_zp {rounding_mode = DOUBLE_ROUND, scale32 = true, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x7x7x8xi32>, tensor<8xi32>, tensor<8xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x7x7x8xi8>
  %relu = tosa.clamp %q {min_val = -5 : i8, max_val = 127 : i8} : (tensor<1x7x7x8xi8>) -> tensor<1x7x7x8xi8>
  %pool = tosa.max_pool2d %relu {kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x7x8xi8>) -> tensor<1x3x3x8xi8>
  return %pool : tensor<1x3x3x8xi8>
}
