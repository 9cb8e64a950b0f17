// f8E4M3FN (OCP fp8: 4 exponent bits, 3 mantissa bits, no infinities, NaN
// 0x7F/0xFF, largest 448) end to end: conversions both ways, arithmetic
// rounded to the type after each op, a matmul accumulating in f32, a sum
// accumulating in f32 and rounded once, and values through kiln-run's text.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: kiln-run %t.kiln --function=scale --input="6xf8E4M3FN=1,-2.5,0.1,448,-0,nan" --input=f32=1.5 | FileCheck %s --check-prefix=OUT

// CHECK: {{^}}round_trip: PASS
// CHECK: {{^}}arithmetic: PASS
// CHECK: {{^}}overflow_is_nan: PASS
// CHECK: {{^}}matmul_f32_accumulator: PASS
// CHECK: {{^}}sum_accumulates_in_f32: PASS
// CHECK: 5 passed, 0 failed

// The input reads 0.1 as 0.1015625 (the nearest value), and the results
// print as the f32 they are; 448 * 1.5 overflows to NaN (no infinity).
// OUT: 6xf8E4M3FN=1.5 -3.75 0.15625 nan -0 nan
// OUT-NEXT: 6xf32=1 -2.5 0.1015625 448 -0 nan

func.func @round_trip() {
  %x = util.unfoldable_constant dense<[1.0, 0.3, -2.7, 500.0, 0.001, -0.0, 464.0, 0.0009765625]> : tensor<8xf32>
  %t = arith.truncf %x : tensor<8xf32> to tensor<8xf8E4M3FN>
  %w = arith.extf %t : tensor<8xf8E4M3FN> to tensor<8xf32>
  // 0.3 -> 0.3125, -2.7 -> -2.75, 500 -> NaN, 0.001 -> 0.001953125 (1/512,
  // the smallest subnormal), 464 -> 448 (the tie goes to even), 2^-10 -> 0
  // (the tie goes to even 0).
  check.expect_almost_eq_const(%w, dense<[1.0, 0.3125, -2.75, 0x7FC00000, 0.001953125, -0.0, 448.0, 0.0]> : tensor<8xf32>, atol 0.0) : tensor<8xf32>
  return
}

func.func @arithmetic() {
  %a = util.unfoldable_constant dense<[1.0, 3.0, -5.0, 0.5, 10.0, 200.0]> : tensor<6xf8E4M3FN>
  %b = util.unfoldable_constant dense<[0.125, 3.0, 1.5, -0.25, 3.0, 100.0]> : tensor<6xf8E4M3FN>
  %e = tensor.empty() : tensor<6xf8E4M3FN>
  %sum = linalg.add ins(%a, %b : tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>) outs(%e : tensor<6xf8E4M3FN>) -> tensor<6xf8E4M3FN>
  %prod = linalg.mul ins(%a, %b : tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>) outs(%e : tensor<6xf8E4M3FN>) -> tensor<6xf8E4M3FN>
  %quot = linalg.div ins(%a, %b : tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>) outs(%e : tensor<6xf8E4M3FN>) -> tensor<6xf8E4M3FN>
  %max = linalg.max ins(%a, %b : tensor<6xf8E4M3FN>, tensor<6xf8E4M3FN>) outs(%e : tensor<6xf8E4M3FN>) -> tensor<6xf8E4M3FN>
  // 1.125, 6, -3.5, 0.25, 13 (exact: 8 to 16 step 1), 300 -> 288 (step 32).
  check.expect_eq_const(%sum, dense<[1.125, 6.0, -3.5, 0.25, 13.0, 288.0]> : tensor<6xf8E4M3FN>) : tensor<6xf8E4M3FN>
  // 0.125, 9, -7.5, -0.125, 30 -> 30 (16 to 32 step 2), 20000 -> NaN.
  check.expect_eq_const(%prod, dense<[0.125, 9.0, -7.5, -0.125, 30.0, 0x7F]> : tensor<6xf8E4M3FN>) : tensor<6xf8E4M3FN>
  // 8, 1, -3.333 -> -3.25, -2, 3.333 -> 3.25, 2.
  check.expect_eq_const(%quot, dense<[8.0, 1.0, -3.25, -2.0, 3.25, 2.0]> : tensor<6xf8E4M3FN>) : tensor<6xf8E4M3FN>
  check.expect_eq_const(%max, dense<[1.0, 3.0, 1.5, 0.5, 10.0, 200.0]> : tensor<6xf8E4M3FN>) : tensor<6xf8E4M3FN>
  %exp = math.exp %b : tensor<6xf8E4M3FN>
  // e^0.125 = 1.133 -> 1.125, e^3 = 20.09 -> 20, e^1.5 = 4.48 -> 4.5,
  // e^-0.25 = 0.7788 -> 0.75 (0.75 to 1 step 0.0625: 0.8125? 0.7788 is
  // nearer 0.75), e^3 -> 20, e^100 -> NaN.
  check.expect_eq_const(%exp, dense<[1.125, 20.0, 4.5, 0.75, 20.0, 0x7F]> : tensor<6xf8E4M3FN>) : tensor<6xf8E4M3FN>
  return
}

func.func @overflow_is_nan() {
  %a = util.unfoldable_constant dense<[448.0, -448.0, 448.0]> : tensor<3xf8E4M3FN>
  %b = util.unfoldable_constant dense<[16.0, -16.0, 8.0]> : tensor<3xf8E4M3FN>
  %e = tensor.empty() : tensor<3xf8E4M3FN>
  %sum = linalg.add ins(%a, %b : tensor<3xf8E4M3FN>, tensor<3xf8E4M3FN>) outs(%e : tensor<3xf8E4M3FN>) -> tensor<3xf8E4M3FN>
  // 464 rounds to even 448; -464 to -448; 456 to 448.
  check.expect_eq_const(%sum, dense<[448.0, -448.0, 448.0]> : tensor<3xf8E4M3FN>) : tensor<3xf8E4M3FN>
  %prod = linalg.mul ins(%a, %b : tensor<3xf8E4M3FN>, tensor<3xf8E4M3FN>) outs(%e : tensor<3xf8E4M3FN>) -> tensor<3xf8E4M3FN>
  %bits = arith.bitcast %prod : tensor<3xf8E4M3FN> to tensor<3xi8>
  // NaN keeps the sign: 0x7F, 0x7F (-448 * -16), 0x7F.
  check.expect_eq_const(%bits, dense<[127, 127, 127]> : tensor<3xi8>) : tensor<3xi8>
  return
}

func.func @matmul_f32_accumulator() {
  // 3x64 times 64x5: every product is exact in f32, the sums too.
  %a = util.unfoldable_constant dense<0.1015625> : tensor<3x64xf8E4M3FN>
  %b = util.unfoldable_constant dense<-1.75> : tensor<64x5xf8E4M3FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x64xf8E4M3FN>, tensor<64x5xf8E4M3FN>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  // 64 * 0.1015625 * -1.75 = -11.375
  check.expect_almost_eq_const(%r, dense<-11.375> : tensor<3x5xf32>, atol 0.0) : tensor<3x5xf32>
  return
}

func.func @sum_accumulates_in_f32() {
  // 4096 * 0.0625 = 256. Kept in f8E4M3FN between steps a partial sum
  // stops at 2, where 0.0625 is below half a step (0.25).
  %x = util.unfoldable_constant dense<0.0625> : tensor<4096xf8E4M3FN>
  %z = arith.constant 0.0 : f8E4M3FN
  %e = tensor.empty() : tensor<f8E4M3FN>
  %f = linalg.fill ins(%z : f8E4M3FN) outs(%e : tensor<f8E4M3FN>) -> tensor<f8E4M3FN>
  %s = linalg.reduce ins(%x : tensor<4096xf8E4M3FN>) outs(%f : tensor<f8E4M3FN>) dimensions = [0]
    (%v: f8E4M3FN, %acc: f8E4M3FN) {
      %a = arith.addf %v, %acc : f8E4M3FN
      linalg.yield %a : f8E4M3FN
    }
  check.expect_eq_const(%s, dense<256.0> : tensor<f8E4M3FN>) : tensor<f8E4M3FN>
  return
}

// Takes and returns f8E4M3FN tensors: the input is scaled by an f32.
func.func @scale(%x: tensor<6xf8E4M3FN>, %s: tensor<f32>) -> (tensor<6xf8E4M3FN>, tensor<6xf32>) {
  %e = tensor.empty() : tensor<6xf8E4M3FN>
  %e32 = tensor.empty() : tensor<6xf32>
  %r, %w = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<6xf8E4M3FN>, tensor<f32>) outs(%e, %e32 : tensor<6xf8E4M3FN>, tensor<6xf32>) {
  ^bb0(%v: f8E4M3FN, %k: f32, %o: f8E4M3FN, %o32: f32):
    %w = arith.extf %v : f8E4M3FN to f32
    %m = arith.mulf %w, %k : f32
    %t = arith.truncf %m : f32 to f8E4M3FN
    linalg.yield %t, %w : f8E4M3FN, f32
  } -> (tensor<6xf8E4M3FN>, tensor<6xf32>)
  return %r, %w : tensor<6xf8E4M3FN>, tensor<6xf32>
}
