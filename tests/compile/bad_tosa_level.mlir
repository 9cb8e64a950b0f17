// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not kiln-compile %s --tosa-validation=strict -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a TOSA validation finding other than element types outside the
// profiles (a level's rank limit the module declares) is an error, reported
// once, whether validation is lenient or strict.
// CHECK: bad_tosa_level.mlir:13:8: error: 'tosa.add' op failed level check: operand rank(shape) <= MAX_RANK
// CHECK-NOT: error:

module attributes {tosa.target_env = #tosa.target_env<specification_version = "1.0", level = "8k", profiles = [pro_int, pro_fp], extensions = [int16]>} {
func.func @main(%a: tensor<1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x2xf32> {
  %r = tosa.add %a, %a : (tensor<1x1x1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x2xf32>
  return %r : tensor<1x1x1x1x1x1x1x2xf32>
}
}
