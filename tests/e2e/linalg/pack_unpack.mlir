// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// linalg.pack and linalg.unpack (tiles, outer_dims_perm, padding), which kiln
// decomposes into pads, reshapes and transposes. Expected values by hand.

// CHECK: {{^}}pack_2d_f32: PASS
// CHECK: {{^}}pack_outer_dims_perm_f32: PASS
// CHECK: {{^}}pack_padding_value_f32: PASS
// CHECK: {{^}}unpack_2d_f32: PASS
// CHECK: {{^}}unpack_drops_padding_f32: PASS
// CHECK: {{^}}pack_unpack_roundtrip_i32: PASS
// CHECK: {{^}}6 passed, 0 failed

// out[i, j, a, b] = x[2 * i + a, 3 * j + b]
func.func @pack_2d_f32() {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]> : tensor<4x6xf32>
  %dest = tensor.empty() : tensor<2x2x2x3xf32>
  %0 = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %dest : tensor<4x6xf32> -> tensor<2x2x2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0]], [[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]]], [[[12.0, 13.0, 14.0], [18.0, 19.0, 20.0]], [[15.0, 16.0, 17.0], [21.0, 22.0, 23.0]]]]> : tensor<2x2x2x3xf32>) : tensor<2x2x2x3xf32>
  return
}

// outer_dims_perm = [1, 0]: out[j, i, a, b] = x[2 * i + a, 3 * j + b]
func.func @pack_outer_dims_perm_f32() {
  %x = util.unfoldable_constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]> : tensor<4x6xf32>
  %dest = tensor.empty() : tensor<2x2x2x3xf32>
  %0 = linalg.pack %x outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %dest : tensor<4x6xf32> -> tensor<2x2x2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0]], [[12.0, 13.0, 14.0], [18.0, 19.0, 20.0]]], [[[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]], [[15.0, 16.0, 17.0], [21.0, 22.0, 23.0]]]]> : tensor<2x2x2x3xf32>) : tensor<2x2x2x3xf32>
  return
}

// 3x5 does not divide into 2x2 tiles: the rest is filled with -1.
func.func @pack_padding_value_f32() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<3x5xf32>
  %pad = arith.constant -1.0 : f32
  %dest = tensor.empty() : tensor<2x3x2x2xf32>
  %0 = linalg.pack %x padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %dest : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[[1.0, 2.0], [6.0, 7.0]], [[3.0, 4.0], [8.0, 9.0]], [[5.0, -1.0], [10.0, -1.0]]], [[[11.0, 12.0], [-1.0, -1.0]], [[13.0, 14.0], [-1.0, -1.0]], [[15.0, -1.0], [-1.0, -1.0]]]]> : tensor<2x3x2x2xf32>) : tensor<2x3x2x2xf32>
  return
}

func.func @unpack_2d_f32() {
  %p = util.unfoldable_constant dense<[[[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0]], [[3.0, 4.0, 5.0], [9.0, 10.0, 11.0]]], [[[12.0, 13.0, 14.0], [18.0, 19.0, 20.0]], [[15.0, 16.0, 17.0], [21.0, 22.0, 23.0]]]]> : tensor<2x2x2x3xf32>
  %dest = tensor.empty() : tensor<4x6xf32>
  %0 = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %dest : tensor<2x2x2x3xf32> -> tensor<4x6xf32>
  check.expect_almost_eq_const(%0, dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [18.0, 19.0, 20.0, 21.0, 22.0, 23.0]]> : tensor<4x6xf32>) : tensor<4x6xf32>
  return
}

// unpack drops the padding of a partial last tile.
func.func @unpack_drops_padding_f32() {
  %p = util.unfoldable_constant dense<[[[[1.0, 2.0], [6.0, 7.0]], [[3.0, 4.0], [8.0, 9.0]], [[5.0, -1.0], [10.0, -1.0]]], [[[11.0, 12.0], [-1.0, -1.0]], [[13.0, 14.0], [-1.0, -1.0]], [[15.0, -1.0], [-1.0, -1.0]]]]> : tensor<2x3x2x2xf32>
  %dest = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %dest : tensor<2x3x2x2xf32> -> tensor<3x5xf32>
  check.expect_almost_eq_const(%0, dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<3x5xf32>) : tensor<3x5xf32>
  return
}

// pack then unpack round-trips an i32 tensor.
func.func @pack_unpack_roundtrip_i32() {
  %x = util.unfoldable_constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]> : tensor<4x4xi32>
  %d0 = tensor.empty() : tensor<2x2x2x2xi32>
  %0 = linalg.pack %x outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %d0 : tensor<4x4xi32> -> tensor<2x2x2x2xi32>
  %d1 = tensor.empty() : tensor<4x4xi32>
  %1 = linalg.unpack %0 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %d1 : tensor<2x2x2x2xi32> -> tensor<4x4xi32>
  check.expect_eq(%1, %x) : tensor<4x4xi32>
  return
}
