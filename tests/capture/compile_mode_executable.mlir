// Tests that a captured stage text compiles again on its own, resuming at
// the stage it was captured at: 0.source and 1.configured go through the
// remaining codegen, 2.translated goes straight to LLVM.
//
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.0.source.mlir --compile-mode=executable --compile-to=codegen -o - | FileCheck %s --check-prefix=SOURCE
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.1.configured.mlir --compile-mode=executable --compile-to=codegen -o - | FileCheck %s --check-prefix=CONFIGURED
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.2.translated.mlir --compile-mode=executable --compile-to=codegen -o - | FileCheck %s --check-prefix=TRANSLATED
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.0.source.mlir --compile-mode=executable -o %t.0.kiln
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.1.configured.mlir --compile-mode=executable -o %t.1.kiln
// RUN: kiln-compile %S/Inputs/matmul_bias_relu.2.translated.mlir --compile-mode=executable -o %t.2.kiln
// RUN: not kiln-compile %s --compile-mode=executable -o %t.bad.kiln 2>&1 | FileCheck %s --check-prefix=NOT-CAPTURED
// RUN: not kiln-compile %S/Inputs/unknown_stage.mlir --compile-mode=executable -o %t.bad.kiln 2>&1 | FileCheck %s --check-prefix=UNKNOWN-STAGE

// Strategy selection ran again: the export got its workgroup count.
// SOURCE: kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(4) workgroups([1, 1, 1])
// SOURCE: llvm.func @main_dispatch_0_matmul_4x16x8_f32(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) -> i32
// SOURCE-NOT: linalg.

// CONFIGURED: llvm.func @main_dispatch_0_matmul_4x16x8_f32(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) -> i32
// CONFIGURED-NOT: linalg.

// TRANSLATED: kiln.executable @main_dispatch_0 attributes {kiln.stage = "2.translated"}
// TRANSLATED: llvm.func @main_dispatch_0_matmul_4x16x8_f32(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) -> i32

// NOT-CAPTURED: compile_mode_executable.mlir: error: not a captured stage text: --compile-mode=executable expects a stage file written by kiln-dump --extract-sources
// NOT-CAPTURED-NOT: :0:0
// NOT-CAPTURED: compile_mode_executable.mlir:[[@LINE+3]]:1: note: 'func.func' is not a kiln.executable
// UNKNOWN-STAGE: unknown_stage.mlir:1:1: error: unknown stage '7.nowhere'; stages are 0.source, 1.configured, 2.translated

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
