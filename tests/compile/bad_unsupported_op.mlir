// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s

// Tests that an unsupported op is named, at its location.
// CHECK: bad_unsupported_op.mlir:8:8: error: unsupported op 'tensor.generate'; kiln compiles func, linalg, arith,
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c = arith.constant 1.0 : f32
  %0 = tensor.generate {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}
