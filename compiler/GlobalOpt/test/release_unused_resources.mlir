// RUN: kiln-opt %s --split-input-file --kiln-release-unused-resources | FileCheck %s

// Tests that a resource a constant still uses keeps its bytes (the pass
// releases only those nothing refers to, which print no more either way).
func.func @used(%a: tensor<2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense_resource<weights> : tensor<2xf32>
  %0 = arith.addf %a, %w : tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040",
      dead: "0x040000000000404000008040"
    }
  }
#-}

// CHECK-LABEL: func.func @used
// CHECK:         arith.constant dense_resource<weights>
// CHECK:       weights: "0x040000000000803F00000040"

// -----

// Tests that a resource an attribute refers to (an embedded text) keeps
// its bytes too.
module attributes {kiln.input_files = {"m.mlir" = dense_resource<text> : tensor<2xi8>}} {
  func.func @f() {
    return
  }
}

{-#
  dialect_resources: {
    builtin: {
      text: "0x010000006869"
    }
  }
#-}

// CHECK-LABEL: func.func @f
// CHECK:       text: "0x010000006869"
