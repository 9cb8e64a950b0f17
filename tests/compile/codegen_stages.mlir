// RUN: kiln-compile %s --dump-stage=0.source -o %t.kiln 2>&1 | FileCheck %s --check-prefix=SOURCE
// RUN: kiln-compile %s --dump-stage=1.configured -o %t.kiln 2>&1 | FileCheck %s --check-prefix=CONFIGURED
// RUN: kiln-compile %s --dump-stage=2.translated -o %t.kiln 2>&1 | FileCheck %s --check-prefix=TRANSLATED
// RUN: not kiln-compile %s --dump-stage=3.nowhere -o %t.kiln 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// Tests that every named codegen checkpoint exists and shows the variant as
// it stands there.

// The matmul is packed (data tiling): its stages are those of the mmt4d
// dispatch between the packs and the unpack. Variants print in any order.
// SOURCE: // -----// 0.source main_dispatch_{{[0-9]+}}::cpu //----- //
// SOURCE: kiln.executable.export @main_dispatch_{{[0-9]+}}_mmt4d_{{.+}}_f32 ordinal(0) bindings(3)
// SOURCE-NOT: workgroups
// SOURCE: linalg.mmt4d ins

// CONFIGURED: // -----// 1.configured main_dispatch_{{[0-9]+}}::cpu //----- //
// CONFIGURED: kiln.executable.export @main_dispatch_{{[0-9]+}}_mmt4d_{{.+}}_f32 ordinal(0) bindings(3) workgroups(
// CONFIGURED: linalg.mmt4d {lowering_config = #kiln.lowering_config<

// TRANSLATED: // -----// 2.translated main_dispatch_{{[0-9]+}}::cpu //----- //
// TRANSLATED: llvm.func @main_dispatch_{{[0-9]+}}_mmt4d_{{.+}}_f32(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) -> i32
// TRANSLATED-NOT: linalg.

// UNKNOWN: for the --dump-stage option: Cannot find option named '3.nowhere'!

func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}
