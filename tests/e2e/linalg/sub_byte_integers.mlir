// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// i2 and i4 tensors: one element per byte between dispatches, their own
// type inside kernels (wrapping arithmetic, sign and zero extension).

// CHECK: {{^}}inline_i4_constant: PASS
// CHECK: {{^}}i4_add_wraps: PASS
// CHECK: {{^}}i2_through_host: PASS
// CHECK: 3 passed, 0 failed

func.func @inline_i4_constant() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]> : tensor<16xf32>
  %c = arith.constant dense<[1, -2, 3, -4, 5, -6, 7, -8, 1, 2, 3, 4, 5, 6, 7, 0]> : tensor<16xi4>
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%x, %c : tensor<16xf32>, tensor<16xi4>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: i4, %o: f32):
    %w = arith.sitofp %b : i4 to f32
    %m = arith.mulf %a, %w : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, -4.0, 9.0, -16.0, 25.0, -36.0, 49.0, -64.0, 9.0, 20.0, 33.0, 48.0, 65.0, 84.0, 105.0, 0.0]> : tensor<16xf32>) : tensor<16xf32>
  return
}
func.func @i4_add_wraps() {
  %x = util.unfoldable_constant dense<[7, -8, 5, -1, 3, 2, 1, 0]> : tensor<8xi4>
  %y = util.unfoldable_constant dense<[1, -1, 5, -1, 3, 2, 1, 0]> : tensor<8xi4>
  %e = tensor.empty() : tensor<8xi4>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%x, %y : tensor<8xi4>, tensor<8xi4>) outs(%e : tensor<8xi4>) {
  ^bb0(%a: i4, %b: i4, %o: i4):
    %m = arith.addi %a, %b : i4
    linalg.yield %m : i4
  } -> tensor<8xi4>
  %b = util.optimization_barrier %s : tensor<8xi4>
  %e8 = tensor.empty() : tensor<8xi8>
  %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%b : tensor<8xi4>) outs(%e8 : tensor<8xi8>) {
  ^bb0(%a: i4, %o: i8):
    %m = arith.extsi %a : i4 to i8
    linalg.yield %m : i8
  } -> tensor<8xi8>
  check.expect_eq_const(%w, dense<[-8, 7, -6, -2, 6, 4, 2, 0]> : tensor<8xi8>) : tensor<8xi8>
  return
}
func.func @i2_through_host() {
  %x = util.unfoldable_constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi8>
  %e = tensor.empty() : tensor<8xi2>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
    ins(%x : tensor<8xi8>) outs(%e : tensor<8xi2>) {
  ^bb0(%a: i8, %o: i2):
    %m = arith.trunci %a : i8 to i2
    linalg.yield %m : i2
  } -> tensor<8xi2>
  %b = util.optimization_barrier %t : tensor<8xi2>
  %r = tensor.expand_shape %b [[0, 1]] output_shape [2, 4] : tensor<8xi2> into tensor<2x4xi2>
  %e32 = tensor.empty() : tensor<2x4xi32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%r : tensor<2x4xi2>) outs(%e32 : tensor<2x4xi32>) {
  ^bb0(%a: i2, %o: i32):
    %m = arith.extsi %a : i2 to i32
    linalg.yield %m : i32
  } -> tensor<2x4xi32>
  check.expect_eq_const(%w, dense<[[0, 1, -2, -1], [0, 1, -2, -1]]> : tensor<2x4xi32>) : tensor<2x4xi32>
  return
}
