// RUN: kiln-opt %s --split-input-file --kiln-form-dispatch-regions --kiln-outline-dispatch-regions=cpu=x86-64-v3 --kiln-deduplicate-executables | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-form-dispatch-regions --kiln-outline-dispatch-regions=cpu=x86-64-v4,x86-64-v3 --kiln-deduplicate-executables | FileCheck %s --check-prefix=VARIANTS

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

// -----

// Tests that the kept export lists the input ops of every dispatch it now
// computes, each numbered by the dispatch it came from and by the kernel
// op computing it, its own first, even an op both dispatches share (the
// fill); with several CPUs, in every variant.
// Every variant's export inherits the duplicate's provenance.
//       VARIANTS: kiln.executable.variant @"x86-64-v4"
//       VARIANTS:   kiln.executable.export @sites_dispatch_0_matmul_8x8x8_f32
//  VARIANTS-SAME:   kiln.provenance_sites = array<i32: 0, 0, 1, 1>
//       VARIANTS: kiln.executable.variant @"x86-64-v3"
//       VARIANTS:   kiln.executable.export @sites_dispatch_0_matmul_8x8x8_f32
//  VARIANTS-SAME:   kiln.provenance_sites = array<i32: 0, 0, 1, 1>
//   VARIANTS-NOT: kiln.executable @sites_dispatch_1
//       CHECK: #[[FILL:.+]] = loc("{{.*}}":[[# @LINE + 14]]:8)
//       CHECK: #[[M0:.+]] = loc("{{.*}}":[[# @LINE + 14]]:8)
//       CHECK: #[[M1:.+]] = loc("{{.*}}":[[# @LINE + 14]]:8)
//       CHECK: #[[FILL_OP:.+]] = loc("linalg.fill"(#[[FILL]]))
//       CHECK: #[[M0_OP:.+]] = loc("linalg.matmul"(#[[M0]]))
//       CHECK: #[[M1_OP:.+]] = loc("linalg.matmul"(#[[M1]]))
//       CHECK: kiln.executable.export @sites_dispatch_0_matmul_8x8x8_f32
//  CHECK-SAME:   kiln.provenance = [#[[FILL_OP]], #[[M0_OP]], #[[FILL_OP]], #[[M1_OP]]]
//  CHECK-SAME:   kiln.provenance_kernel_ops = array<i32: 0, 1, 0, 1>
//  CHECK-SAME:   kiln.provenance_sites = array<i32: 0, 0, 1, 1>
//   CHECK-NOT: kiln.executable @sites_dispatch_1
func.func @sites(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
