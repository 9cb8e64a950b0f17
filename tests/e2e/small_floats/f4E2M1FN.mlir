// f4E2M1FN (OCP fp4: 2 exponent bits, 1 mantissa bit, no infinities or
// NaNs, values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives; kiln stores
// one per byte) end to end: conversions both ways, saturating arithmetic,
// IREE's packed layout through flow.tensor.bitcast, tensors passed between
// dispatches and sliced on the host, a matmul accumulating in f32, and
// values through kiln-run.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-check --guard-pages %t.kiln | FileCheck %s
// RUN: kiln-run %t.kiln --function=double --input="6xf4E2M1FN=0.5,-6,2.4,-0,1.25,1.75" | FileCheck %s --check-prefix=OUT

// CHECK: {{^}}round_trip: PASS
// CHECK: {{^}}saturating_arithmetic: PASS
// CHECK: {{^}}packed_bitcasts: PASS
// CHECK: {{^}}between_dispatches: PASS
// CHECK: {{^}}matmul_f32_accumulator: PASS
// CHECK: 5 passed, 0 failed

// 2.4 reads as 2, 1.25 as 1 and 1.75 as 2 (ties to even); doubles
// saturate at 6.
// OUT: 6xf4E2M1FN=1 -6 4 -0 2 4

func.func @round_trip() {
  %x = util.unfoldable_constant dense<[0.25, 0.26, 2.5, 5.0, 5.1, 7.0, -100.0, -0.1, 0xFF800000, 0x7FC00000]> : tensor<10xf32>
  %t = arith.truncf %x : tensor<10xf32> to tensor<10xf4E2M1FN>
  %bits = arith.bitcast %t : tensor<10xf4E2M1FN> to tensor<10xi4>
  %wide = arith.extui %bits : tensor<10xi4> to tensor<10xi8>
  // 0.25 -> 0 (tie), 0.26 -> 0.5, 2.5 -> 2 (tie, 0x4), 5 -> 4 (tie, 0x6),
  // 5.1 -> 6 (0x7), 7 and -100 saturate (0x7, 0xF), -0.1 -> -0 (0x8),
  // -inf saturates (0xF), NaN -> 0.
  check.expect_eq_const(%wide, dense<[0x0, 0x1, 0x4, 0x6, 0x7, 0x7, 0xF, 0x8, 0xF, 0x0]> : tensor<10xi8>) : tensor<10xi8>
  %w = arith.extf %t : tensor<10xf4E2M1FN> to tensor<10xf32>
  check.expect_eq_const(%w, dense<[0.0, 0.5, 2.0, 4.0, 6.0, 6.0, -6.0, -0.0, -6.0, 0.0]> : tensor<10xf32>) : tensor<10xf32>
  return
}

func.func @saturating_arithmetic() {
  %a = util.unfoldable_constant dense<[1.5, 4.0, -3.0, 0.5, 6.0]> : tensor<5xf4E2M1FN>
  %b = util.unfoldable_constant dense<[1.5, 3.0, -4.0, 0.5, 0.5]> : tensor<5xf4E2M1FN>
  %e = tensor.empty() : tensor<5xf4E2M1FN>
  %s = linalg.add ins(%a, %b : tensor<5xf4E2M1FN>, tensor<5xf4E2M1FN>) outs(%e : tensor<5xf4E2M1FN>) -> tensor<5xf4E2M1FN>
  // 3, 7 -> 6, -7 -> -6, 1, 6.5 -> 6.
  check.expect_eq_const(%s, dense<[3.0, 6.0, -6.0, 1.0, 6.0]> : tensor<5xf4E2M1FN>) : tensor<5xf4E2M1FN>
  %m = linalg.mul ins(%a, %b : tensor<5xf4E2M1FN>, tensor<5xf4E2M1FN>) outs(%e : tensor<5xf4E2M1FN>) -> tensor<5xf4E2M1FN>
  // 2.25 -> 2, 12 -> 6, 12 -> 6, 0.25 -> 0 (tie), 3.
  check.expect_eq_const(%m, dense<[2.0, 6.0, 6.0, 0.0, 3.0]> : tensor<5xf4E2M1FN>) : tensor<5xf4E2M1FN>
  return
}

func.func @packed_bitcasts() {
  // IREE packs two f4E2M1FN values per byte, the first in the low bits.
  %packed = util.unfoldable_constant dense<[[0x21, 0xF8], [0x7A, 0x03]]> : tensor<2x2xi8>
  %x = flow.tensor.bitcast %packed : tensor<2x2xi8> -> tensor<2x4xf4E2M1FN>
  %w = arith.extf %x : tensor<2x4xf4E2M1FN> to tensor<2x4xf32>
  check.expect_eq_const(%w, dense<[[0.5, 1.0, -0.0, -6.0], [-1.0, 6.0, 1.5, 0.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf4E2M1FN>
  %n = linalg.negf ins(%x : tensor<2x4xf4E2M1FN>) outs(%e : tensor<2x4xf4E2M1FN>) -> tensor<2x4xf4E2M1FN>
  %back = flow.tensor.bitcast %n : tensor<2x4xf4E2M1FN> -> tensor<4xi8>
  check.expect_eq_const(%back, dense<[0xA9, 0x70, 0xF2, 0x8B]> : tensor<4xi8>) : tensor<4xi8>
  return
}

func.func @between_dispatches() {
  %x = util.unfoldable_constant dense<[[0.5, 1.0, 1.5, 2.0], [3.0, 4.0, 6.0, -0.5]]> : tensor<2x4xf4E2M1FN>
  %e = tensor.empty() : tensor<2x4xf4E2M1FN>
  %d = linalg.add ins(%x, %x : tensor<2x4xf4E2M1FN>, tensor<2x4xf4E2M1FN>) outs(%e : tensor<2x4xf4E2M1FN>) -> tensor<2x4xf4E2M1FN>
  %b = util.optimization_barrier %d : tensor<2x4xf4E2M1FN>
  %s = tensor.extract_slice %b[1, 1] [1, 3] [1, 1] : tensor<2x4xf4E2M1FN> to tensor<3xf4E2M1FN>
  %e3 = tensor.empty() : tensor<3xf4E2M1FN>
  %h = linalg.sub ins(%s, %s : tensor<3xf4E2M1FN>, tensor<3xf4E2M1FN>) outs(%e3 : tensor<3xf4E2M1FN>) -> tensor<3xf4E2M1FN>
  check.expect_eq_const(%s, dense<[6.0, 6.0, -1.0]> : tensor<3xf4E2M1FN>) : tensor<3xf4E2M1FN>
  check.expect_eq_const(%h, dense<[0.0, 0.0, 0.0]> : tensor<3xf4E2M1FN>) : tensor<3xf4E2M1FN>
  return
}

func.func @matmul_f32_accumulator() {
  %a = util.unfoldable_constant dense<6.0> : tensor<4x32xf4E2M1FN>
  %b = util.unfoldable_constant dense<-1.5> : tensor<32x3xf4E2M1FN>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x32xf4E2M1FN>, tensor<32x3xf4E2M1FN>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  check.expect_eq_const(%r, dense<-288.0> : tensor<4x3xf32>) : tensor<4x3xf32>
  return
}

func.func @double(%x: tensor<6xf4E2M1FN>) -> tensor<6xf4E2M1FN> {
  %e = tensor.empty() : tensor<6xf4E2M1FN>
  %r = linalg.add ins(%x, %x : tensor<6xf4E2M1FN>, tensor<6xf4E2M1FN>) outs(%e : tensor<6xf4E2M1FN>) -> tensor<6xf4E2M1FN>
  return %r : tensor<6xf4E2M1FN>
}
