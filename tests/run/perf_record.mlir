// Tests that perf resolves a kernel's samples to its export and to lines of
// its 2.translated text after the process has exited: kiln-run --perf loads
// the library from a file that `perf report --sort sym,srcline` reads (no
// `perf inject`). A matmul of about a third of a second on one thread; the
// test fails, saying why, where perf cannot record.
//
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.kiln
// RUN: %python %S/check_native_tools.py perf %t.kiln -o %t --bin-dir=%kiln_bin_dir --stage=2.translated --export=mmt4d --min-samples=100 --min-share=0.8 -- --threads=1 --input=1536x1536xf32=1 --input=1536x1536xf32=1 --output=@%t.out.npy | FileCheck %s

// CHECK: main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}: {{[0-9]+}} samples, {{[0-9]+}}% on lines of perf_record-{{[0-9a-f]+}}_main_dispatch_{{[0-9]+}}_cpu.2.translated.mlir ({{[1-9][0-9]*}} distinct)

func.func @main(%a: tensor<1536x1536xf32>, %b: tensor<1536x1536xf32>) -> tensor<1536x1536xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1536x1536xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1536x1536xf32>) -> tensor<1536x1536xf32>
  %product = linalg.matmul ins(%a, %b : tensor<1536x1536xf32>, tensor<1536x1536xf32>)
                           outs(%init : tensor<1536x1536xf32>) -> tensor<1536x1536xf32>
  return %product : tensor<1536x1536xf32>
}
