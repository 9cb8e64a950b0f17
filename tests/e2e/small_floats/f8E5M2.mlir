// f8E5M2 (OCP fp8: 5 exponent bits, 2 mantissa bits, IEEE infinities and
// NaNs, largest 57344) end to end: conversions both ways, arithmetic
// rounded to the type after each op, a batch matmul accumulating in f32, a
// sum accumulating in f32 and rounded once, and values through kiln-run.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: kiln-run %t.kiln --function=negate --input="5xf8E5M2=1.25,-inf,60000,0,0.00001" | FileCheck %s --check-prefix=OUT

// CHECK: {{^}}round_trip: PASS
// CHECK: {{^}}arithmetic: PASS
// CHECK: {{^}}batch_matmul_f32_accumulator: PASS
// CHECK: {{^}}sum_accumulates_in_f32: PASS
// CHECK: 4 passed, 0 failed

// 60000 reads as 57344, 0.00001 as 0.0000152587890625 (2^-16, the
// smallest subnormal); 0 negates to -0.
// OUT: 5xf8E5M2=-1.25 inf -57344 -0 -1.5258789e-05

func.func @round_trip() {
  %x = util.unfoldable_constant dense<[1.0, 0.3, -2.7, 61440.0, -1.0e6, 1.0e-5, 7.62939453125e-6, 0x7FC00000]> : tensor<8xf32>
  %t = arith.truncf %x : tensor<8xf32> to tensor<8xf8E5M2>
  %w = arith.extf %t : tensor<8xf8E5M2> to tensor<8xf32>
  // 0.3 -> 0.3125, -2.7 -> -2.5, 61440 (the midpoint above the largest,
  // whose mantissa is odd) -> inf, -1e6 -> -inf, 1e-5 -> 2^-16, 2^-17 (a
  // tie) -> 0.
  check.expect_almost_eq_const(%w, dense<[1.0, 0.3125, -2.5, 0x7F800000, 0xFF800000, 1.52587890625e-5, 0.0, 0x7FC00000]> : tensor<8xf32>, atol 0.0) : tensor<8xf32>
  return
}

func.func @arithmetic() {
  %a = util.unfoldable_constant dense<[1.0, 40000.0, 0x7C, 0x7C, -0.0, 3.0]> : tensor<6xf8E5M2>
  %b = util.unfoldable_constant dense<[0.25, 40000.0, 0x7C, 1.0, 0.0, 0.75]> : tensor<6xf8E5M2>
  %e = tensor.empty() : tensor<6xf8E5M2>
  %sum = linalg.add ins(%a, %b : tensor<6xf8E5M2>, tensor<6xf8E5M2>) outs(%e : tensor<6xf8E5M2>) -> tensor<6xf8E5M2>
  %bits = arith.bitcast %sum : tensor<6xf8E5M2> to tensor<6xi8>
  // 1.25 (0x3D), 80000 -> inf (0x7C), inf + inf = inf, inf + 1 = inf,
  // -0 + 0 = +0 (0x00), 3.75 -> 4 (a tie between 3.5 and 4, to even)
  // (0x44).
  check.expect_eq_const(%bits, dense<[0x3D, 0x7C, 0x7C, 0x7C, 0x00, 0x44]> : tensor<6xi8>) : tensor<6xi8>
  %prod = linalg.mul ins(%a, %b : tensor<6xf8E5M2>, tensor<6xf8E5M2>) outs(%e : tensor<6xf8E5M2>) -> tensor<6xf8E5M2>
  %pbits = arith.bitcast %prod : tensor<6xf8E5M2> to tensor<6xi8>
  // 0.25 (0x34), inf, inf, inf, -0 (0x80), 2.25 -> 2 (a tie between 2
  // and 2.5, to even) (0x40).
  check.expect_eq_const(%pbits, dense<[0x34, 0x7C, 0x7C, 0x7C, 0x80, 0x40]> : tensor<6xi8>) : tensor<6xi8>
  %neg = linalg.negf ins(%b : tensor<6xf8E5M2>) outs(%e : tensor<6xf8E5M2>) -> tensor<6xf8E5M2>
  check.expect_eq_const(%neg, dense<[-0.25, -40960.0, 0xFC, -1.0, -0.0, -0.75]> : tensor<6xf8E5M2>) : tensor<6xf8E5M2>
  // inf - inf is NaN (of either sign: x86 makes it negative); 3 - 0.75 =
  // 2.25 -> 2.
  %diff = linalg.sub ins(%a, %b : tensor<6xf8E5M2>, tensor<6xf8E5M2>) outs(%e : tensor<6xf8E5M2>) -> tensor<6xf8E5M2>
  check.expect_almost_eq_const(%diff, dense<[0.75, 0.0, 0x7E, 0x7C, -0.0, 2.0]> : tensor<6xf8E5M2>, atol 0.0) : tensor<6xf8E5M2>
  return
}

func.func @batch_matmul_f32_accumulator() {
  %a = util.unfoldable_constant dense<1.5> : tensor<2x3x40xf8E5M2>
  %b = util.unfoldable_constant dense<0.375> : tensor<2x40x4xf8E5M2>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x40xf8E5M2>, tensor<2x40x4xf8E5M2>) outs(%c : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // 40 * 1.5 * 0.375 = 22.5
  check.expect_almost_eq_const(%r, dense<22.5> : tensor<2x3x4xf32>, atol 0.0) : tensor<2x3x4xf32>
  return
}

func.func @sum_accumulates_in_f32() {
  // 1000 * 0.25 = 250 -> 256 (128 to 256 step 32, 250 nearer 256). Kept
  // in f8E5M2 between steps a partial sum stops at 2 (step 0.5).
  %x = util.unfoldable_constant dense<0.25> : tensor<4x1000xf8E5M2>
  %z = arith.constant 0.0 : f8E5M2
  %e = tensor.empty() : tensor<4xf8E5M2>
  %f = linalg.fill ins(%z : f8E5M2) outs(%e : tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  %s = linalg.reduce ins(%x : tensor<4x1000xf8E5M2>) outs(%f : tensor<4xf8E5M2>) dimensions = [1]
    (%v: f8E5M2, %acc: f8E5M2) {
      %a = arith.addf %v, %acc : f8E5M2
      linalg.yield %a : f8E5M2
    }
  check.expect_eq_const(%s, dense<256.0> : tensor<4xf8E5M2>) : tensor<4xf8E5M2>
  return
}

func.func @negate(%x: tensor<5xf8E5M2>) -> tensor<5xf8E5M2> {
  %e = tensor.empty() : tensor<5xf8E5M2>
  %r = linalg.negf ins(%x : tensor<5xf8E5M2>) outs(%e : tensor<5xf8E5M2>) -> tensor<5xf8E5M2>
  return %r : tensor<5xf8E5M2>
}
