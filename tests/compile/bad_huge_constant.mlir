// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a constant too large for a module (no allocation is attempted) is a clear error at its location, not a crash.
// CHECK: bad_huge_constant.mlir:7:8: error: constant of type 'tensor<100000000000xf32>' holds more than
func.func @main() -> tensor<100000000000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000000000xf32>
  return %c : tensor<100000000000xf32>
}
