// Tests kiln-dump --correlate on a matmul compiled at level 3: each vector
// FMA line of the kernel's 2.translated text leads back to the contraction
// in 1.configured and 0.source and to the linalg.matmul of this file, that
// line leads forward to all of them, and no line it names for any line of
// any stage text lies outside its text.
//
// RUN: kiln-compile %s --executable-debug-level=3 --executable-embed-input-files -o %t.kiln
// RUN: %python %S/check_correlate.py %t.kiln -o %t --bin-dir=%kiln_bin_dir --export=mmt4d --input-op=linalg.matmul | FileCheck %s
// RUN: kiln-dump %t.kiln --correlate=%s:%(line+21) | FileCheck %s --check-prefix=INPUT
// RUN: not kiln-dump %t.kiln --correlate=%s 2>&1 | FileCheck %s --check-prefix=NOLINE
// RUN: not kiln-dump %t.kiln --correlate=missing.mlir:3 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: kiln-compile %s -o %t.level2.kiln
// RUN: not kiln-dump %t.level2.kiln --correlate=%s:30 2>&1 | FileCheck %s --check-prefix=LEVEL2

// CHECK: main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}: {{[1-9][0-9]*}} FMA lines correlate to the contraction and correlate.mlir:{{[0-9]+}}; {{[1-9][0-9]+}} lines checked

// INPUT: input  {{.*}}correlate.mlir:{{[0-9]+}}  %product = linalg.matmul ins(%a, %b
// INPUT-DAG: 0.source      {{.*}}_cpu.0.source.mlir:{{[0-9]+}}  %{{[0-9]+}} = linalg.mmt4d
// INPUT-DAG: 1.configured  {{.*}}_cpu.1.configured.mlir:{{[0-9]+}}  %{{[0-9]+}} = linalg.mmt4d {lowering_config
// INPUT-DAG: 2.translated  {{.*}}_cpu.2.translated.mlir:{{[0-9]+}}  %{{[0-9]+}} = llvm.intr.fmuladd

// NOLINE: kiln-dump: error: --correlate needs a line: --correlate=PATH:LINE
// MISSING: kiln-dump: error: no stage text or input file 'missing.mlir' in the module's line maps (list the texts with --sources)
// LEVEL2: kiln-dump: error: the module carries no cross-stage line maps (compile it with --executable-debug-level=3)

func.func @main(%a: tensor<96x256xf32>, %b: tensor<256x64xf32>) -> tensor<96x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<96x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<96x64xf32>) -> tensor<96x64xf32>
  %product = linalg.matmul ins(%a, %b : tensor<96x256xf32>, tensor<256x64xf32>)
                           outs(%init : tensor<96x64xf32>) -> tensor<96x64xf32>
  return %product : tensor<96x64xf32>
}
