// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that a TOSA op kiln cannot compile is named at its own line (not
// by what upstream converts it to).
// CHECK: bad_tosa_scatter.mlir:9:8: error: 'tosa.scatter' is not supported: its conversion reads and writes tensor elements at computed positions on the host
// CHECK-NOT: error
func.func @main(%values: tensor<1x4x2xf32>, %indices: tensor<1x2xi32>, %input: tensor<1x2x2xf32>) -> tensor<1x4x2xf32> {
  %0 = tosa.scatter %values, %indices, %input : (tensor<1x4x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}
