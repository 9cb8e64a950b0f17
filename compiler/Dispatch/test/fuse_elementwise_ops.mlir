// RUN: kiln-opt %s --split-input-file --kiln-fuse-elementwise-ops | FileCheck %s

// Tests that a chain of named elementwise ops becomes one generic.
// CHECK-LABEL: func.func @chain
//       CHECK:   %[[G:.+]] = linalg.generic
//       CHECK:     arith.addf
//       CHECK:     math.exp
//       CHECK:     linalg.yield
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[G]]
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.exp ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Tests that a producer with two users is not fused (it would be computed
// twice) and that linalg.fill stays named.
// CHECK-LABEL: func.func @shared_producer
//       CHECK:   linalg.fill
//       CHECK:   %[[P:.+]] = linalg.generic
//       CHECK:     arith.addf
//       CHECK:   linalg.generic {{.*}} ins(%[[P]]
//       CHECK:   linalg.generic {{.*}} ins(%[[P]]
func.func @shared_producer(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %0 = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.exp ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %2 = linalg.log ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %f : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
