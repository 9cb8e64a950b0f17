// Tests kiln's own sampler (kiln-run --profile, --profile-output) on a
// matmul of about a fifth of a second of CPU time over two threads and a
// cheap elementwise op fused after it: the matmul's samples land on the
// lines of its 2.translated text that hold its vector FMAs and the loads
// feeding them, the collapsed stacks parse and name lines of the exports'
// texts, and the table agrees with them and shows each line's text. No
// perf, no file beside the module.
//
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.kiln
// RUN: %python %S/check_profile.py %t.kiln -o %t --bin-dir=%kiln_bin_dir --stage=2.translated --export=mmt4d --min-samples=100 --min-share=0.8 -- --threads=2 --input=1536x1536xf32=1 --input=1536x1536xf32=1 --output=@%t.out.npy | FileCheck %s
// RUN: kiln-run %t.kiln --threads=2 --input=1536x1536xf32=1 --input=1536x1536xf32=1 --output=@%t.out.npy --profile=500 | FileCheck %s --check-prefix=TABLE
// RUN: not kiln-run %t.kiln --input=1536x1536xf32=1 --input=1536x1536xf32=1 --profile=0 2>&1 | FileCheck %s --check-prefix=BADRATE

// CHECK: main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}: {{[1-9][0-9]+}} samples, {{[0-9]+}}% on lines holding its vector FMAs or the loads feeding them
// CHECK: host: {{[0-9]+}} samples

// TABLE: profile of main: {{[0-9]+}} samples at 500 Hz of CPU time on 2 threads; host {{[0-9]+}} ({{[0-9.]+}}%)
// TABLE: {{[0-9.]+}}%  {{[0-9]+}} samples  main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}
// TABLE-NEXT: {{[0-9.]+}}%  profile-{{[0-9a-f]+}}_main_dispatch_{{[0-9]+}}_cpu.2.translated.mlir:{{[0-9]+}}  {{.+}}

// BADRATE: kiln-run: error: --profile expects a rate in [1, 100000] samples per second, got '0'

func.func @main(%a: tensor<1536x1536xf32>, %b: tensor<1536x1536xf32>) -> tensor<1536x1536xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1536x1536xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1536x1536xf32>) -> tensor<1536x1536xf32>
  %product = linalg.matmul ins(%a, %b : tensor<1536x1536xf32>, tensor<1536x1536xf32>)
                           outs(%init : tensor<1536x1536xf32>) -> tensor<1536x1536xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%product : tensor<1536x1536xf32>) outs(%empty : tensor<1536x1536xf32>) {
  ^bb0(%p: f32, %out: f32):
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1536x1536xf32>
  return %result : tensor<1536x1536xf32>
}
