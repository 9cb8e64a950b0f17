// Tests that a sum of 4096 f16 values accumulates in f32 and rounds once:
// 4096 x 1.0996 (1.1 in f16) is 4504 exactly; accumulated in f16 the partial
// sums lose their low bits (--accumulate-half-in-f32=false gives another
// value).
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --input=4096xf16=1.1 | FileCheck %s
// RUN: kiln-compile %s --accumulate-half-in-f32=false -o %t.native.kiln
// RUN: kiln-run %t.native.kiln --input=4096xf16=1.1 | FileCheck %s --check-prefix=NATIVE
// CHECK: f16=4504
// NATIVE-NOT: f16=4504
// NATIVE: f16=

func.func @main(%x: tensor<4096xf16>) -> tensor<f16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<f16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<f16>) -> tensor<f16>
  %r = linalg.reduce ins(%x : tensor<4096xf16>) outs(%f : tensor<f16>) dimensions = [0]
    (%a: f16, %b: f16) { %s = arith.addf %a, %b : f16
      linalg.yield %s : f16 }
  return %r : tensor<f16>
}
