// Tests what each debug level leaves on executables in the IR, and that
// --executable-capture-stages narrows level 3.
//
// RUN: kiln-compile %s --executable-debug-level=2 --compile-to=codegen -o - | FileCheck %s --check-prefix=LEVEL2
// RUN: kiln-compile %s --executable-debug-level=3 --compile-to=codegen -o - | FileCheck %s --check-prefix=LEVEL3
// RUN: kiln-compile %s --executable-debug-level=3 --executable-capture-stages=1.configured --compile-to=codegen -o - | FileCheck %s --check-prefix=NARROW
// RUN: not kiln-compile %s --executable-debug-level=3 --executable-capture-stages=1.configured,9.later -o %t.kiln 2>&1 | FileCheck %s --check-prefix=BAD-STAGE
// RUN: not kiln-compile %s --executable-debug-level=4 -o %t.kiln 2>&1 | FileCheck %s --check-prefix=BAD-LEVEL

// Provenance is always computed, naming the op as the program wrote it;
// only level 3 captures texts.
// LEVEL2: #[[EXP:.+]] = loc("{{.*}}debug_levels_ir.mlir":[[# @LINE + 18]]:8)
// LEVEL2: #[[PROV:.+]] = loc("linalg.exp"(#[[EXP]]))
// LEVEL2: kiln.executable.export @main_dispatch_0_elementwise_16_f32
// LEVEL2-SAME: kiln.provenance = [#[[PROV]]]
// LEVEL2-NOT: kiln.sources
// LEVEL2-NOT: kiln.source_locs

// LEVEL3: kiln.sources = {"debug_levels_ir-[[HASH:[0-9a-f]+]]_main_dispatch_0_cpu.0.source.mlir" = dense_resource<{{.*}}>, "debug_levels_ir-[[HASH]]_main_dispatch_0_cpu.1.configured.mlir" = dense_resource<{{.*}}>, "debug_levels_ir-[[HASH]]_main_dispatch_0_cpu.2.translated.mlir" = dense_resource<{{.*}}>}
// LEVEL3: kiln.source_locs = {"0.source" = #{{.+}}, "1.configured" = #{{.+}}, "2.translated" = #{{.+}}}

// NARROW: kiln.sources = {"debug_levels_ir-{{[0-9a-f]+}}_main_dispatch_0_cpu.1.configured.mlir" = dense_resource<{{.*}}>}
// NARROW: kiln.source_locs = {"1.configured" = #{{.+}}}

// BAD-STAGE: kiln-compile: error: unknown capture stage '9.later'; stages are 0.source, 1.configured, 2.translated
// BAD-LEVEL: kiln-compile: error: --executable-debug-level must be 0, 1, 2 or 3, got 4

func.func @main(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %0 = linalg.exp ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
