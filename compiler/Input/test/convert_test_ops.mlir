// RUN: kiln-opt %s --split-input-file --kiln-convert-test-ops | FileCheck %s

// Tests that an unfoldable constant is a constant behind a barrier and that
// _const checks become checks against constants.
// CHECK-LABEL: func.func @constants
//       CHECK:   %[[C:.+]] = arith.constant dense<[1, 2]> : tensor<2xi32>
//       CHECK:   %[[B:.+]] = util.optimization_barrier %[[C]] : tensor<2xi32>
//       CHECK:   %[[E:.+]] = arith.constant dense<[1, 2]> : tensor<2xi32>
//       CHECK:   check.expect_eq(%[[B]], %[[E]]) : tensor<2xi32>
//       CHECK:   %[[H:.+]] = arith.constant dense<5.000000e-01> : tensor<2xf32>
//       CHECK:   util.optimization_barrier %[[H]] : tensor<2xf32>
//       CHECK:   %[[F:.+]] = arith.constant dense<5.000000e-01> : tensor<2xf32>
//       CHECK:   check.expect_almost_eq(%{{.+}}, %[[F]], atol 0.00999999977) : tensor<2xf32>
func.func @constants() {
  %0 = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const(%0, dense<[1, 2]> : tensor<2xi32>) : tensor<2xi32>
  %1 = util.unfoldable_constant dense<0.5> : tensor<2xf32>
  check.expect_almost_eq_const(%1, dense<0.5> : tensor<2xf32>, atol 1.0e-2) : tensor<2xf32>
  return
}

// -----

// Tests that a dynamic constant is a constant behind a barrier, cast to its
// dynamic type.
// CHECK-LABEL: func.func @dynamic_constant
//       CHECK:   %[[C:.+]] = arith.constant dense<[1, 2]> : tensor<2xi32>
//       CHECK:   %[[B:.+]] = util.optimization_barrier %[[C]] : tensor<2xi32>
//       CHECK:   %[[D:.+]] = tensor.cast %[[B]] : tensor<2xi32> to tensor<?xi32>
//       CHECK:   return %[[D]] : tensor<?xi32>
func.func @dynamic_constant() -> tensor<?xi32> {
  %0 = flow.tensor.dynamic_constant dense<[1, 2]> : tensor<2xi32> -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// Tests that a bitcast from bytes to f4E2M1FN splits each byte, low bits
// first, into two elements of i4 bits.
// CHECK-LABEL: func.func @bitcast_unpack
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<4x2xi4>
//       CHECK:   %[[G:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<4xi8>) outs(%[[E]] : tensor<4x2xi4>)
//       CHECK:     %[[J:.+]] = linalg.index 1 : index
//       CHECK:     %[[JI:.+]] = arith.index_cast %[[J]] : index to i8
//       CHECK:     %[[S:.+]] = arith.muli %[[JI]], %{{.+}} : i8
//       CHECK:     %[[V:.+]] = arith.shrui %{{.+}}, %[[S]] : i8
//       CHECK:     arith.trunci %[[V]] : i8 to i4
//       CHECK:   %[[F:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1]] : tensor<4x2xi4> into tensor<8xi4>
//       CHECK:   %[[R:.+]] = arith.bitcast %[[F]] : tensor<8xi4> to tensor<8xf4E2M1FN>
//       CHECK:   return %[[R]]
func.func @bitcast_unpack(%x: tensor<4xi8>) -> tensor<8xf4E2M1FN> {
  %r = flow.tensor.bitcast %x : tensor<4xi8> -> tensor<8xf4E2M1FN>
  return %r : tensor<8xf4E2M1FN>
}

// -----

// Tests that a bitcast to bytes assembles each byte from two elements, the
// first in the low bits.
// CHECK-LABEL: func.func @bitcast_pack
//       CHECK:   %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<2x4xf4E2M1FN> into tensor<8xf4E2M1FN>
//       CHECK:   %[[PAIRS:.+]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [4, 2] : tensor<8xf4E2M1FN> into tensor<4x2xf4E2M1FN>
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[PAIRS]], %[[PAIRS]] : tensor<4x2xf4E2M1FN>, tensor<4x2xf4E2M1FN>) outs(%{{.+}} : tensor<4xi8>)
//       CHECK:   ^bb0(%[[LO:.+]]: f4E2M1FN, %[[HI:.+]]: f4E2M1FN, %{{.+}}: i8):
//       CHECK:     %[[LOB:.+]] = arith.bitcast %[[LO]] : f4E2M1FN to i4
//       CHECK:     %[[LOW:.+]] = arith.extui %[[LOB]] : i4 to i8
//       CHECK:     %[[HIB:.+]] = arith.bitcast %[[HI]] : f4E2M1FN to i4
//       CHECK:     %[[HIW:.+]] = arith.extui %[[HIB]] : i4 to i8
//       CHECK:     %[[UP:.+]] = arith.shli %[[HIW]], %{{.+}} : i8
//       CHECK:     %[[BYTE:.+]] = arith.ori %[[LOW]], %[[UP]] : i8
//       CHECK:     linalg.yield %[[BYTE]] : i8
//       CHECK:   return %[[R]]
func.func @bitcast_pack(%x: tensor<2x4xf4E2M1FN>) -> tensor<4xi8> {
  %r = flow.tensor.bitcast %x : tensor<2x4xf4E2M1FN> -> tensor<4xi8>
  return %r : tensor<4xi8>
}

// -----

// Tests that a bitcast between types of one width is an elementwise
// arith.bitcast of the flattened tensor, reshaped.
// CHECK-LABEL: func.func @bitcast_same_width
//       CHECK:   %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<2x3xf8E4M3FN> into tensor<6xf8E4M3FN>
//       CHECK:   %[[B:.+]] = arith.bitcast %[[FLAT]] : tensor<6xf8E4M3FN> to tensor<6xi8>
//       CHECK:   %[[R:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xi8> into tensor<3x2xi8>
//       CHECK:   return %[[R]]
func.func @bitcast_same_width(%x: tensor<2x3xf8E4M3FN>) -> tensor<3x2xi8> {
  %r = flow.tensor.bitcast %x : tensor<2x3xf8E4M3FN> -> tensor<3x2xi8>
  return %r : tensor<3x2xi8>
}

// -----

// Tests that a bitcast of dynamic shapes is left for verification to
// report.
// CHECK-LABEL: func.func @bitcast_dynamic
//       CHECK:   flow.tensor.bitcast %{{.+}} : tensor<?xi8>{%{{.+}}} -> tensor<?xf4E2M1FN>{%{{.+}}}
func.func @bitcast_dynamic(%x: tensor<?xi8>, %n: index, %m: index) -> tensor<?xf4E2M1FN> {
  %r = flow.tensor.bitcast %x : tensor<?xi8>{%n} -> tensor<?xf4E2M1FN>{%m}
  return %r : tensor<?xf4E2M1FN>
}
