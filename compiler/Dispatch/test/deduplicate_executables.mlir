// RUN: kiln-opt %s --split-input-file --kiln-form-dispatch-regions --kiln-outline-dispatch-regions=cpu=x86-64-v3 --kiln-deduplicate-executables | FileCheck %s

// Tests that two dispatches doing the same work share one executable, and
// that a different one is kept.
//       CHECK: kiln.executable @main_dispatch_0
//   CHECK-NOT: kiln.executable @main_dispatch_1
//       CHECK: kiln.executable @main_dispatch_2
//   CHECK-NOT: kiln.executable @
// CHECK-LABEL: func.func @main(
//       CHECK:   %[[X:.+]] = kiln.dispatch @main_dispatch_0::@main_dispatch_0_exp_16_f32(%arg0)
//       CHECK:   %[[Y:.+]] = kiln.dispatch @main_dispatch_0::@main_dispatch_0_exp_16_f32(%[[X]])
//       CHECK:   kiln.dispatch @main_dispatch_2::@main_dispatch_2_log_16_f32(%[[Y]])
func.func @main(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %0 = linalg.exp ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %1 = linalg.exp ins(%0 : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %2 = linalg.log ins(%1 : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}
