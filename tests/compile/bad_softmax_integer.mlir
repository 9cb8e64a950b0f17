// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s

// Tests that a softmax over integers, which upstream MLIR verifies but
// cannot decompose, is an error at its op rather than a crash.
// CHECK: bad_softmax_integer.mlir:[[@LINE+3]]:8: error: linalg.softmax needs a floating-point element type, got 'i16'
func.func @main(%x: tensor<7x5xi16>) -> tensor<7x5xi16> {
  %e = tensor.empty() : tensor<7x5xi16>
  %r = linalg.softmax dimension(0) ins(%x : tensor<7x5xi16>) outs(%e : tensor<7x5xi16>) -> tensor<7x5xi16>
  return %r : tensor<7x5xi16>
}
