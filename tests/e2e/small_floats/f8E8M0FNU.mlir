// f8E8M0FNU (the OCP microscaling scale: powers of two from 2^-127 to
// 2^127, no sign, no zero, NaN 0xFF) end to end: conversions both ways,
// products of scales, block-scaled fp8 and fp4 values (scaling_extf and
// scaling_truncf), and values through kiln-run.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: kiln-run %t.kiln --function=times_two --input="5xf8E8M0FNU=0.25,1,3,1e38,nan" | FileCheck %s --check-prefix=OUT

// CHECK: {{^}}round_trip: PASS
// CHECK: {{^}}products: PASS
// CHECK: {{^}}block_scaled: PASS
// CHECK: 3 passed, 0 failed

// 3 reads as 4 (the midpoint 3 rounds up), 1e38 as 2^126 (8.5e37), whose
// double is the largest value, 2^127.
// OUT: 5xf8E8M0FNU=0.5 2 8 1.7014118e+38 nan

func.func @round_trip() {
  %x = util.unfoldable_constant dense<[1.0, 1.4, 1.5, 0.75, -2.0, 0.0, 1.0e-40, 3.0e38, 0xFF800000]> : tensor<9xf32>
  %t = arith.truncf %x : tensor<9xf32> to tensor<9xf8E8M0FNU>
  %bits = arith.bitcast %t : tensor<9xf8E8M0FNU> to tensor<9xi8>
  // 1 (0x7F), 1.4 -> 1, 1.5 -> 2 (0x80), 0.75 -> 1, -2 -> NaN (0xFF),
  // 0 -> 2^-127 (0x00, the nearest), 1e-40 -> 2^-127, 3e38 -> NaN
  // (beyond 2^127), -inf -> NaN.
  check.expect_eq_const(%bits, dense<[0x7F, 0x7F, 0x80, 0x7F, 0xFF, 0x00, 0x00, 0xFF, 0xFF]> : tensor<9xi8>) : tensor<9xi8>
  %w = arith.extf %t : tensor<9xf8E8M0FNU> to tensor<9xf32>
  check.expect_almost_eq_const(%w, dense<[1.0, 1.0, 2.0, 1.0, 0x7FC00000, 5.877471754111438e-39, 5.877471754111438e-39, 0x7FC00000, 0x7FC00000]> : tensor<9xf32>, atol 0.0, rtol 0.0) : tensor<9xf32>
  return
}

func.func @products() {
  %a = util.unfoldable_constant dense<[2.0, 0.5, 1.0e30, 1.0e-30]> : tensor<4xf8E8M0FNU>
  %b = util.unfoldable_constant dense<[8.0, 0.25, 1.0e30, 1.0e30]> : tensor<4xf8E8M0FNU>
  %e = tensor.empty() : tensor<4xf8E8M0FNU>
  %m = linalg.mul ins(%a, %b : tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>) outs(%e : tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU>
  %d = linalg.div ins(%a, %b : tensor<4xf8E8M0FNU>, tensor<4xf8E8M0FNU>) outs(%e : tensor<4xf8E8M0FNU>) -> tensor<4xf8E8M0FNU>
  %mbits = arith.bitcast %m : tensor<4xf8E8M0FNU> to tensor<4xi8>
  %dbits = arith.bitcast %d : tensor<4xf8E8M0FNU> to tensor<4xi8>
  // 1e30 is 2^100 (0xE3), 1e-30 is 2^-100 (0x1B): 16 (0x83), 2^-3 (0x7C),
  // 2^200 -> NaN, 2^0 (0x7F).
  check.expect_eq_const(%mbits, dense<[0x83, 0x7C, 0xFF, 0x7F]> : tensor<4xi8>) : tensor<4xi8>
  // 0.25 (0x7D), 2 (0x80), 1 (0x7F), 2^-200 -> 2^-127 (0x00).
  check.expect_eq_const(%dbits, dense<[0x7D, 0x80, 0x7F, 0x00]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @block_scaled() {
  // Two blocks of four f8E4M3FN values, one scale each.
  %v = util.unfoldable_constant dense<[1.0, -2.0, 0.5, 448.0, 3.0, 0.0, -1.5, 6.0]> : tensor<8xf8E4M3FN>
  %s = util.unfoldable_constant dense<[0.25, 1024.0]> : tensor<2xf8E8M0FNU>
  %e = tensor.empty() : tensor<8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 floordiv 4)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v, %s : tensor<8xf8E4M3FN>, tensor<2xf8E8M0FNU>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f8E4M3FN, %k: f8E8M0FNU, %o: f32):
    %r = arith.scaling_extf %a, %k : f8E4M3FN, f8E8M0FNU to f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  check.expect_almost_eq_const(%x, dense<[0.25, -0.5, 0.125, 112.0, 3072.0, 0.0, -1536.0, 6144.0]> : tensor<8xf32>, atol 0.0, rtol 0.0) : tensor<8xf32>
  // Back to f4E2M1FN with the same scales: 0.25 / 0.25 = 1, -2, 0.5, 448
  // -> 6 (saturated); 3072 / 1024 = 3, 0, -1.5, 6.
  %e4 = tensor.empty() : tensor<8xf4E2M1FN>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0 floordiv 4)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<8xf32>, tensor<2xf8E8M0FNU>) outs(%e4 : tensor<8xf4E2M1FN>) {
  ^bb0(%a: f32, %k: f8E8M0FNU, %o: f4E2M1FN):
    %r = arith.scaling_truncf %a, %k : f32, f8E8M0FNU to f4E2M1FN
    linalg.yield %r : f4E2M1FN
  } -> tensor<8xf4E2M1FN>
  check.expect_eq_const(%q, dense<[1.0, -2.0, 0.5, 6.0, 3.0, 0.0, -1.5, 6.0]> : tensor<8xf4E2M1FN>) : tensor<8xf4E2M1FN>
  return
}

func.func @times_two(%x: tensor<5xf8E8M0FNU>) -> tensor<5xf8E8M0FNU> {
  %two = arith.constant dense<2.0> : tensor<5xf8E8M0FNU>
  %e = tensor.empty() : tensor<5xf8E8M0FNU>
  %r = linalg.mul ins(%x, %two : tensor<5xf8E8M0FNU>, tensor<5xf8E8M0FNU>) outs(%e : tensor<5xf8E8M0FNU>) -> tensor<5xf8E8M0FNU>
  return %r : tensor<5xf8E8M0FNU>
}
