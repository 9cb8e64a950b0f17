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
