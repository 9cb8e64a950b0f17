// Tests that gdb resolves a module's export by name and its lines in the
// 2.translated text: a pending breakpoint on the export (the library loads
// at run time) stops there, and `info line` and `bt` name a line of the text.
// With --perf (as here) gdb reads the library file on disk; without it,
// the memfd through /proc/PID/fd.
//
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.kiln
// RUN: %python %S/check_native_tools.py gdb %t.kiln -o %t --bin-dir=%kiln_bin_dir --stage=2.translated --export=mmt4d -- --threads=1 --input=64x64xf32=1 --input=64x64xf32=1 --output=@%t.out.npy | FileCheck %s

// CHECK: main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}: breakpoint, info line and bt at gdb_breakpoint-{{[0-9a-f]+}}_main_dispatch_{{[0-9]+}}_cpu.2.translated.mlir:{{[1-9][0-9]*}}

func.func @main(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %product = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                           outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %product : tensor<64x64xf32>
}
