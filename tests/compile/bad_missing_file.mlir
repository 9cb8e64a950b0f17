// RUN: not kiln-compile %t.does-not-exist.mlir -o %t.kiln 2>&1 | FileCheck %s
// RUN: not kiln-compile %s 2>&1 | FileCheck %s --check-prefix=NOOUT

// Tests that a missing input and a missing output file are clear errors.
// CHECK: kiln-compile: error: {{.*}}does-not-exist.mlir{{.*}}
// NOOUT: kiln-compile: error: no output file; pass -o FILE.kiln
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
