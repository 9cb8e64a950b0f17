// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-guard-integer-division))" | FileCheck %s

// Tests that a signed division's divisor becomes 1 where it is 0 or where
// the dividend is the minimum and the divisor -1.
// CHECK-LABEL: func.func @signed
//  CHECK-SAME:   (%[[A:.+]]: i32, %[[B:.+]]: i32)
//   CHECK-DAG:   %[[ONE:.+]] = arith.constant 1 : i32
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant 0 : i32
//   CHECK-DAG:   %[[MIN:.+]] = arith.constant -2147483648 : i32
//   CHECK-DAG:   %[[MINUS1:.+]] = arith.constant -1 : i32
//   CHECK-DAG:   %[[ISZERO:.+]] = arith.cmpi eq, %[[B]], %[[ZERO]]
//   CHECK-DAG:   %[[ISMIN:.+]] = arith.cmpi eq, %[[A]], %[[MIN]]
//   CHECK-DAG:   %[[ISMINUS1:.+]] = arith.cmpi eq, %[[B]], %[[MINUS1]]
//       CHECK:   %[[OVERFLOW:.+]] = arith.andi %[[ISMIN]], %[[ISMINUS1]]
//       CHECK:   %[[FAULTS:.+]] = arith.ori %[[ISZERO]], %[[OVERFLOW]]
//       CHECK:   %[[D:.+]] = arith.select %[[FAULTS]], %[[ONE]], %[[B]]
//       CHECK:   arith.remsi %[[A]], %[[D]] : i32
func.func @signed(%a: i32, %b: i32) -> i32 {
  %r = arith.remsi %a, %b : i32
  return %r : i32
}

// -----

// Tests that an unsigned division of vectors guards only the zero
// divisor, with splat constants.
// CHECK-LABEL: func.func @unsigned_vector
//  CHECK-SAME:   (%[[A:.+]]: vector<8xi16>, %[[B:.+]]: vector<8xi16>)
//   CHECK-DAG:   %[[ONE:.+]] = arith.constant dense<1> : vector<8xi16>
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant dense<0> : vector<8xi16>
//       CHECK:   %[[ISZERO:.+]] = arith.cmpi eq, %[[B]], %[[ZERO]]
//   CHECK-NOT:   arith.andi
//       CHECK:   %[[D:.+]] = arith.select %[[ISZERO]], %[[ONE]], %[[B]]
//       CHECK:   arith.divui %[[A]], %[[D]] : vector<8xi16>
func.func @unsigned_vector(%a: vector<8xi16>, %b: vector<8xi16>) -> vector<8xi16> {
  %q = arith.divui %a, %b : vector<8xi16>
  return %q : vector<8xi16>
}

// -----

// Tests that constant divisors that cannot fault are left alone, and that
// a constant -1 in a signed division is still guarded.
// CHECK-LABEL: func.func @constant_divisors
//       CHECK:   arith.divsi %{{.+}}, %[[SEVEN:c7.*]] : index
//       CHECK:   arith.ceildivui %{{.+}}, %[[SEVEN]] : index
//       CHECK:   %[[D:.+]] = arith.select
//       CHECK:   arith.floordivsi %{{.+}}, %[[D]] : index
//   CHECK-NOT:   arith.select
func.func @constant_divisors(%a: index) -> (index, index, index) {
  %c7 = arith.constant 7 : index
  %m1 = arith.constant -1 : index
  %q = arith.divsi %a, %c7 : index
  %c = arith.ceildivui %a, %c7 : index
  %f = arith.floordivsi %a, %m1 : index
  return %q, %c, %f : index, index, index
}
