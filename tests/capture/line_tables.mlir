// Tests the DWARF line tables of a module's library, read with
// llvm-dwarfdump: every export has a symbol named after it; at level 3
// every row of its code names a line of its 2.translated text (or of
// 1.configured when chosen), and the matmul's inner-loop FMAs map to the
// lines of that text holding the vector FMA, not to its entry; at levels 1-2
// the rows name lines of this file; at level 0 there are no line tables,
// only symbols.
//
// RUN: kiln-compile %s --cpu=x86-64-v3 --executable-debug-level=3 -o %t.3.kiln
// RUN: %python %S/check_line_tables.py %t.3.kiln -o %t.3 --bin-dir=%kiln_bin_dir --llvm-bin-dir=%llvm_tools_dir --stage=2.translated --fma-export='mmt4d|matmul' --max-debug-bytes-per-export=2048 | FileCheck %s --check-prefix=TRANSLATED
// RUN: kiln-compile %s --cpu=x86-64-v3 --executable-debug-level=3 --executable-debug-line-stage=1.configured -o %t.3c.kiln
// RUN: %python %S/check_line_tables.py %t.3c.kiln -o %t.3c --bin-dir=%kiln_bin_dir --llvm-bin-dir=%llvm_tools_dir --stage=1.configured | FileCheck %s --check-prefix=CONFIGURED
// RUN: kiln-compile %s --cpu=x86-64-v3 -o %t.2.kiln
// RUN: %python %S/check_line_tables.py %t.2.kiln -o %t.2 --bin-dir=%kiln_bin_dir --llvm-bin-dir=%llvm_tools_dir --expect-file=%s --max-debug-bytes-per-export=700 | FileCheck %s --check-prefix=INPUT
// RUN: kiln-compile %s --cpu=x86-64-v3 --executable-debug-level=0 -o %t.0.kiln
// RUN: not %python %S/check_line_tables.py %t.0.kiln -o %t.0 --bin-dir=%kiln_bin_dir --llvm-bin-dir=%llvm_tools_dir --expect-file=%s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not kiln-compile %s --executable-debug-level=3 --executable-capture-stages=0.source --executable-debug-line-stage=2.translated -o %t.bad.kiln 2>&1 | FileCheck %s --check-prefix=UNCAPTURED
// RUN: kiln-compile %s --executable-debug-line-stage=2.translated -o %t.w.kiln 2>&1 | FileCheck %s --check-prefix=BELOW3

// One dispatch: the packed matmul, reading its LHS in place, with its
// unpack and the fused bias and exp.
// TRANSLATED: main_dispatch_0_mmt4d_{{.*}}: {{[1-9][0-9]*}} rows, {{[1-9][0-9]*}} distinct lines of line_tables-{{[0-9a-f]+}}_main_dispatch_0_cpu.2.translated.mlir
// TRANSLATED: main_dispatch_0_mmt4d_{{.*}}: {{[1-9][0-9]*}} FMA instructions on {{[1-9][0-9]*}} lines holding an FMA
// TRANSLATED-NOT: main_dispatch_1

// CONFIGURED: main_dispatch_0_mmt4d_{{.*}}: {{[1-9][0-9]*}} rows, {{[1-9][0-9]*}} distinct lines of {{.*}}_main_dispatch_0_cpu.1.configured.mlir

// INPUT: main_dispatch_0_mmt4d_{{.*}}: {{[1-9][0-9]*}} rows, {{[1-9][0-9]*}} distinct lines of {{.*}}line_tables.mlir

// NONE: error: main_dispatch_0_{{.*}}: no DWARF subprogram of that name at 0x{{[0-9a-f]+}}

// UNCAPTURED: kiln-compile: error: --executable-debug-line-stage '2.translated' is not a captured stage; captured: 0.source

// BELOW3: kiln-compile: warning: --executable-debug-line-stage has no effect below --executable-debug-level=3 (got 2)

func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>,
                %bias: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x96xf32>) -> tensor<64x96xf32>
  %product = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>)
                           outs(%init : tensor<64x96xf32>) -> tensor<64x96xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%product, %bias : tensor<64x96xf32>, tensor<64x96xf32>) outs(%empty : tensor<64x96xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<64x96xf32>
  return %sum : tensor<64x96xf32>
}
