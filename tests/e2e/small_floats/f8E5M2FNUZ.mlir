// f8E5M2FNUZ (5 exponent bits, 2 mantissa bits, bias 16, no infinities,
// no -0, NaN 0x80, largest 57344) end to end: conversions both ways,
// arithmetic, a matmul accumulating in f32, and values through kiln-run.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: kiln-run %t.kiln --function=halve --input="5xf8E5M2FNUZ=-0,nan,3,0.0000076293945,57344" | FileCheck %s --check-prefix=OUT

// CHECK: {{^}}round_trip: PASS
// CHECK: {{^}}no_negative_zero: PASS
// CHECK: {{^}}matmul_f32_accumulator: PASS
// CHECK: 3 passed, 0 failed

// -0 reads as 0; 2^-17 halves to 0 (a tie, to even).
// OUT: 5xf8E5M2FNUZ=0 nan 1.5 0 28672

func.func @round_trip() {
  %x = util.unfoldable_constant dense<[1.0, -0.3, 1.0e5, 0xFF800000, 3.0e-6, 4.0e-6]> : tensor<6xf32>
  %t = arith.truncf %x : tensor<6xf32> to tensor<6xf8E5M2FNUZ>
  %bits = arith.bitcast %t : tensor<6xf8E5M2FNUZ> to tensor<6xi8>
  // 1 (0x40), -0.3125 (0xB9), overflow and -inf -> NaN (0x80), 3e-6 -> 0
  // (below half of 2^-17), 4e-6 -> 2^-17 (0x01).
  check.expect_eq_const(%bits, dense<[0x40, 0xB9, 0x80, 0x80, 0x00, 0x01]> : tensor<6xi8>) : tensor<6xi8>
  %w = arith.extf %t : tensor<6xf8E5M2FNUZ> to tensor<6xf32>
  check.expect_almost_eq_const(%w, dense<[1.0, -0.3125, 0x7FC00000, 0x7FC00000, 0.0, 7.62939453125e-6]> : tensor<6xf32>, atol 0.0) : tensor<6xf32>
  return
}

func.func @no_negative_zero() {
  %a = util.unfoldable_constant dense<[0.0, 1.0, -1.0e-5, 40000.0]> : tensor<4xf8E5M2FNUZ>
  %e = tensor.empty() : tensor<4xf8E5M2FNUZ>
  %n = linalg.negf ins(%a : tensor<4xf8E5M2FNUZ>) outs(%e : tensor<4xf8E5M2FNUZ>) -> tensor<4xf8E5M2FNUZ>
  %bits = arith.bitcast %n : tensor<4xf8E5M2FNUZ> to tensor<4xi8>
  // -0 is 0 (0x80 would be NaN): 0x00; -1 (0xC0); -1e-5 read as -2^-17
  // negates to 2^-17 (0x01); 40000 read as 40960 negates to -40960 (0xFD).
  check.expect_eq_const(%bits, dense<[0x00, 0xC0, 0x01, 0xFD]> : tensor<4xi8>) : tensor<4xi8>
  %m = linalg.mul ins(%a, %a : tensor<4xf8E5M2FNUZ>, tensor<4xf8E5M2FNUZ>) outs(%e : tensor<4xf8E5M2FNUZ>) -> tensor<4xf8E5M2FNUZ>
  %mbits = arith.bitcast %m : tensor<4xf8E5M2FNUZ> to tensor<4xi8>
  // 0, 1 (0x40), 5.8e-11 -> 0, 1.7e9 -> NaN.
  check.expect_eq_const(%mbits, dense<[0x00, 0x40, 0x00, 0x80]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @matmul_f32_accumulator() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [-4.0, 0.5, 0.25]]> : tensor<2x3xf8E5M2FNUZ>
  %b = util.unfoldable_constant dense<[[1.0, 0.5], [2.0, 0.25], [8.0, -1.0]]> : tensor<3x2xf8E5M2FNUZ>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf8E5M2FNUZ>, tensor<3x2xf8E5M2FNUZ>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%r, dense<[[29.0, -2.0], [-1.0, -2.125]]> : tensor<2x2xf32>, atol 0.0) : tensor<2x2xf32>
  return
}

func.func @halve(%x: tensor<5xf8E5M2FNUZ>) -> tensor<5xf8E5M2FNUZ> {
  %h = arith.constant dense<0.5> : tensor<5xf8E5M2FNUZ>
  %e = tensor.empty() : tensor<5xf8E5M2FNUZ>
  %r = linalg.mul ins(%x, %h : tensor<5xf8E5M2FNUZ>, tensor<5xf8E5M2FNUZ>) outs(%e : tensor<5xf8E5M2FNUZ>) -> tensor<5xf8E5M2FNUZ>
  return %r : tensor<5xf8E5M2FNUZ>
}
