// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-expand-small-floats))" | FileCheck %s

// Tests that vector arithmetic on an fp8 type computes in f32 and that the
// conversions on either side become integer operations on i32 lanes: no
// extf or truncf of the small type is left.
// CHECK-LABEL: func.func @add_vector
//   CHECK-NOT:   arith.extf
//   CHECK-DAG:   %[[A:.+]] = arith.bitcast %{{.+}} : vector<8xf8E4M3FN> to vector<8xi8>
//   CHECK-DAG:   arith.extui %[[A]] : vector<8xi8> to vector<8xi32>
//       CHECK:   %[[SUM:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<8xf32>
//       CHECK:   arith.bitcast %[[SUM]] : vector<8xf32> to vector<8xi32>
//       CHECK:   %[[NARROW:.+]] = arith.trunci %{{.+}} : vector<8xi32> to vector<8xi8>
//       CHECK:   %[[R:.+]] = arith.bitcast %[[NARROW]] : vector<8xi8> to vector<8xf8E4M3FN>
//   CHECK-NOT:   arith.truncf
//       CHECK:   return %[[R]]
func.func @add_vector(%a: vector<8xf8E4M3FN>, %b: vector<8xf8E4M3FN>) -> vector<8xf8E4M3FN> {
  %s = arith.addf %a, %b : vector<8xf8E4M3FN>
  return %s : vector<8xf8E4M3FN>
}

// -----

// Tests that widening f8E5M2 places the exponent and mantissa in f32 bits,
// computes subnormals as mantissa * 2^-16 and selects infinity (0x7F800000)
// or a quiet NaN (0x7FC00000 and the payload) at the top exponent.
// CHECK-LABEL: func.func @extf_scalar
//   CHECK-DAG:   %[[INF:.+]] = arith.constant 2139095040 : i32
//   CHECK-DAG:   %[[QNAN:.+]] = arith.constant 2143289344 : i32
//   CHECK-DAG:   %[[SCALE:.+]] = arith.constant 1.52587891E-5 : f32
//   CHECK-DAG:   %[[REBIAS:.+]] = arith.constant 939524096 : i32
//       CHECK:   arith.addi %{{.+}}, %[[REBIAS]] : i32
//       CHECK:   %[[M:.+]] = arith.uitofp %{{.+}} : i32 to f32
//       CHECK:   arith.mulf %[[M]], %[[SCALE]] : f32
//       CHECK:   arith.ori %{{.+}}, %[[QNAN]] : i32
//       CHECK:   arith.select %{{.+}}, %[[INF]], %{{.+}} : i32
//       CHECK:   %[[R:.+]] = arith.bitcast %{{.+}} : i32 to f32
//       CHECK:   return %[[R]]
func.func @extf_scalar(%a: f8E5M2) -> f32 {
  %r = arith.extf %a : f8E5M2 to f32
  return %r : f32
}

// -----

// Tests that f8E8M0FNU 0x00 widens to 2^-127 (the f32 subnormal 0x00400000),
// 0xFF to NaN, and that f64 results go through f32.
// CHECK-LABEL: func.func @extf_e8m0_to_f64
//   CHECK-DAG:   %[[QNAN:.+]] = arith.constant 2143289344 : i32
//   CHECK-DAG:   %[[SMALLEST:.+]] = arith.constant 4194304 : i32
//       CHECK:   arith.select %{{.+}}, %[[SMALLEST]], %{{.+}} : i32
//       CHECK:   arith.select %{{.+}}, %[[QNAN]], %{{.+}} : i32
//       CHECK:   %[[F:.+]] = arith.bitcast %{{.+}} : i32 to f32
//       CHECK:   %[[R:.+]] = arith.extf %[[F]] : f32 to f64
//       CHECK:   return %[[R]]
func.func @extf_e8m0_to_f64(%a: f8E8M0FNU) -> f64 {
  %r = arith.extf %a : f8E8M0FNU to f64
  return %r : f64
}

// -----

// Tests that narrowing from f64 rounds once, on i64 bits (through f32 it
// would round twice), and that every FNUZ NaN, infinity or overflow is 0x80.
// CHECK-LABEL: func.func @truncf_f64
//   CHECK-NOT:   arith.truncf
//       CHECK:   arith.bitcast %{{.+}} : f64 to i64
//       CHECK:   arith.cmpi ugt, %{{.+}}, %c127_i64 : i64
//       CHECK:   arith.select %{{.+}}, %c128_i64, %{{.+}} : i64
//       CHECK:   arith.trunci %{{.+}} : i64 to i8
//       CHECK:   arith.bitcast %{{.+}} : i8 to f8E4M3FNUZ
func.func @truncf_f64(%a: f64) -> f8E4M3FNUZ {
  %r = arith.truncf %a : f64 to f8E4M3FNUZ
  return %r : f8E4M3FNUZ
}

// -----

// Tests that f16 widens to f32 (exactly) before narrowing to f4E2M1FN, whose
// overflow saturates to 6 (magnitude 7) and whose NaN is a zero.
// CHECK-LABEL: func.func @truncf_f16_to_f4
//       CHECK:   %[[MAX:.+]] = arith.constant dense<7> : vector<4xi32>
//       CHECK:   arith.extf %{{.+}} : vector<4xf16> to vector<4xf32>
//       CHECK:   arith.cmpi ugt, %{{.+}}, %[[MAX]] : vector<4xi32>
//       CHECK:   arith.select %{{.+}}, %[[MAX]], %{{.+}} : vector<4xi1>, vector<4xi32>
//       CHECK:   arith.trunci %{{.+}} : vector<4xi32> to vector<4xi4>
//       CHECK:   arith.bitcast %{{.+}} : vector<4xi4> to vector<4xf4E2M1FN>
func.func @truncf_f16_to_f4(%a: vector<4xf16>) -> vector<4xf4E2M1FN> {
  %r = arith.truncf %a : vector<4xf16> to vector<4xf4E2M1FN>
  return %r : vector<4xf4E2M1FN>
}

// -----

// Tests that math on a small float computes in f32.
// CHECK-LABEL: func.func @exp
//       CHECK:   %[[X:.+]] = arith.bitcast %{{.+}} : i32 to f32
//       CHECK:   %[[E:.+]] = math.exp %[[X]] : f32
//       CHECK:   arith.bitcast %[[E]] : f32 to i32
//       CHECK:   arith.bitcast %{{.+}} : i8 to f8E5M2FNUZ
func.func @exp(%a: f8E5M2FNUZ) -> f8E5M2FNUZ {
  %r = math.exp %a : f8E5M2FNUZ
  return %r : f8E5M2FNUZ
}

// -----

// Tests that a scaled widening multiplies by the f32 value of its scale.
// CHECK-LABEL: func.func @scaling_extf
//   CHECK-NOT:   arith.scaling_extf
//       CHECK:   %[[S:.+]] = arith.bitcast %{{.+}} : i32 to f32
//       CHECK:   %[[X:.+]] = arith.bitcast %{{.+}} : i32 to f32
//       CHECK:   %[[R:.+]] = arith.mulf %[[X]], %[[S]] : f32
//       CHECK:   return %[[R]]
func.func @scaling_extf(%a: f4E2M1FN, %s: f8E8M0FNU) -> f32 {
  %r = arith.scaling_extf %a, %s : f4E2M1FN, f8E8M0FNU to f32
  return %r : f32
}

// -----

// Tests that selects and bitcasts of small floats stay (LLVM moves them as
// bytes) and that functions without them are left alone.
// CHECK-LABEL: func.func @select_and_plain
//       CHECK:   arith.select %{{.+}}, %{{.+}}, %{{.+}} : f8E4M3FN
//       CHECK:   arith.bitcast %{{.+}} : f8E4M3FN to i8
//       CHECK:   arith.addf %{{.+}}, %{{.+}} : f32
func.func @select_and_plain(%c: i1, %a: f8E4M3FN, %b: f8E4M3FN, %x: f32) -> (i8, f32) {
  %s = arith.select %c, %a, %b : f8E4M3FN
  %i = arith.bitcast %s : f8E4M3FN to i8
  %y = arith.addf %x, %x : f32
  return %i, %y : i8, f32
}
