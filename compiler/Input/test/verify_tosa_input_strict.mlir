// RUN: kiln-opt %s --verify-diagnostics --kiln-attach-tosa-target "--kiln-verify-tosa-input=strict=true" | FileCheck %s

// Tests that when strict the pass reports nothing about element types
// outside the target's profiles: the TOSA validation that follows in the
// conversion refuses them (tests/compile/tosa_validation.mlir).
// CHECK-LABEL: func.func @clamp_i32
//       CHECK:   tosa.clamp
func.func @clamp_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.clamp %x {min_val = 0 : i32, max_val = 10 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
