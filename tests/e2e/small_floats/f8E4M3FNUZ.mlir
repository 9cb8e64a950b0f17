// f8E4M3FNUZ (4 exponent bits, 3 mantissa bits, bias 8, no infinities,
// no -0, NaN 0x80, largest 240) end to end: conversions both ways,
// arithmetic, a sum and a max reduction, and values through kiln-run.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: kiln-run %t.kiln --function=square --input="2x2xf8E4M3FNUZ=[1.5,-0.1][16,nan]" | FileCheck %s --check-prefix=OUT

// CHECK: {{^}}round_trip: PASS
// CHECK: {{^}}arithmetic: PASS
// CHECK: {{^}}reductions: PASS
// CHECK: 3 passed, 0 failed

// 1.5^2 = 2.25; -0.1 reads as -0.1015625, whose square 0.0103 rounds to
// 0.0107421875 (subnormal step 2^-10); 16^2 overflows to NaN.
// OUT: 2x2xf8E4M3FNUZ=[2.25 0.0107421875][nan nan]

func.func @round_trip() {
  %x = util.unfoldable_constant dense<[240.0, 247.9, 248.0, -0.0, 0.0009765625, 0.00146484375]> : tensor<6xf32>
  %t = arith.truncf %x : tensor<6xf32> to tensor<6xf8E4M3FNUZ>
  %bits = arith.bitcast %t : tensor<6xf8E4M3FNUZ> to tensor<6xi8>
  // 240 (0x7F), 247.9 -> 240, 248 (the midpoint above 240, odd) -> NaN,
  // -0 -> 0, 2^-10 (0x01), 1.5 * 2^-10 -> 2^-9 (0x02, a tie to even).
  check.expect_eq_const(%bits, dense<[0x7F, 0x7F, 0x80, 0x00, 0x01, 0x02]> : tensor<6xi8>) : tensor<6xi8>
  %w = arith.extf %t : tensor<6xf8E4M3FNUZ> to tensor<6xf64>
  check.expect_almost_eq_const(%w, dense<[240.0, 240.0, 0x7FF8000000000000, 0.0, 0.0009765625, 0.001953125]> : tensor<6xf64>, atol 0.0) : tensor<6xf64>
  return
}

func.func @arithmetic() {
  %a = util.unfoldable_constant dense<[1.0, 7.0, -3.0, 100.0]> : tensor<4xf8E4M3FNUZ>
  %b = util.unfoldable_constant dense<[0.0625, 9.0, 2.5, 200.0]> : tensor<4xf8E4M3FNUZ>
  %e = tensor.empty() : tensor<4xf8E4M3FNUZ>
  %s = linalg.sub ins(%a, %b : tensor<4xf8E4M3FNUZ>, tensor<4xf8E4M3FNUZ>) outs(%e : tensor<4xf8E4M3FNUZ>) -> tensor<4xf8E4M3FNUZ>
  // 0.9375, -2, -5.5, -96 -> -96
  check.expect_eq_const(%s, dense<[0.9375, -2.0, -5.5, -96.0]> : tensor<4xf8E4M3FNUZ>) : tensor<4xf8E4M3FNUZ>
  %d = linalg.add ins(%a, %b : tensor<4xf8E4M3FNUZ>, tensor<4xf8E4M3FNUZ>) outs(%e : tensor<4xf8E4M3FNUZ>) -> tensor<4xf8E4M3FNUZ>
  // 1.0625 -> 1.0 (step 0.125 in [1, 2): a tie, to even), 16, -0.5, 300
  // -> NaN.
  %dbits = arith.bitcast %d : tensor<4xf8E4M3FNUZ> to tensor<4xi8>
  check.expect_eq_const(%dbits, dense<[0x40, 0x60, 0xB8, 0x80]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @reductions() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [-1.0, -0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125]]> : tensor<2x8xf8E4M3FNUZ>
  %z = arith.constant 0.0 : f8E4M3FNUZ
  %e = tensor.empty() : tensor<2xf8E4M3FNUZ>
  %f = linalg.fill ins(%z : f8E4M3FNUZ) outs(%e : tensor<2xf8E4M3FNUZ>) -> tensor<2xf8E4M3FNUZ>
  %s = linalg.reduce ins(%x : tensor<2x8xf8E4M3FNUZ>) outs(%f : tensor<2xf8E4M3FNUZ>) dimensions = [1]
    (%v: f8E4M3FNUZ, %acc: f8E4M3FNUZ) {
      %a = arith.addf %v, %acc : f8E4M3FNUZ
      linalg.yield %a : f8E4M3FNUZ
    }
  // 36 and -1.0078125 -> -1, each rounded once.
  check.expect_eq_const(%s, dense<[36.0, -1.0]> : tensor<2xf8E4M3FNUZ>) : tensor<2xf8E4M3FNUZ>
  %m = linalg.reduce ins(%x : tensor<2x8xf8E4M3FNUZ>) outs(%f : tensor<2xf8E4M3FNUZ>) dimensions = [1]
    (%v: f8E4M3FNUZ, %acc: f8E4M3FNUZ) {
      %a = arith.maximumf %v, %acc : f8E4M3FNUZ
      linalg.yield %a : f8E4M3FNUZ
    }
  check.expect_eq_const(%m, dense<[8.0, 0.25]> : tensor<2xf8E4M3FNUZ>) : tensor<2xf8E4M3FNUZ>
  return
}

func.func @square(%x: tensor<2x2xf8E4M3FNUZ>) -> tensor<2x2xf8E4M3FNUZ> {
  %e = tensor.empty() : tensor<2x2xf8E4M3FNUZ>
  %r = linalg.mul ins(%x, %x : tensor<2x2xf8E4M3FNUZ>, tensor<2x2xf8E4M3FNUZ>) outs(%e : tensor<2x2xf8E4M3FNUZ>) -> tensor<2x2xf8E4M3FNUZ>
  return %r : tensor<2x2xf8E4M3FNUZ>
}
