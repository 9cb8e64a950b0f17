// Tests kiln's own sampler (kiln-run --profile, --profile-output) on a
// matmul of 39 GFLOP (a sixth of a second of CPU time over two threads where
// AVX-512 runs it near peak, on AMD Zen 5; more with AVX2), with a
// cheap elementwise op fused after it: the matmul's samples land in the
// innermost loop of its 2.translated text, most on the lines that hold its
// vector FMAs and the loads feeding them; the collapsed stacks parse and
// name lines of the exports' texts; the table agrees with them and shows
// each line's text. No perf, no file beside the module. K is long (32768)
// and the result small: first touches of a fresh result page fault in the
// store after the loop, which a 1536^3 matmul pays for about 10% of its
// samples. About 90% of the matmul's samples fall in its loop on a quiet
// machine, 64-80% while another test shares the two cores (the packing of
// B, from memory, takes the rest).
//
// RUN: kiln-compile %s --executable-debug-level=3 --executable-embed-input-files -o %t.kiln
// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=DUMP
// RUN: %python %S/check_profile.py %t.kiln -o %t --bin-dir=%kiln_bin_dir --stage=2.translated --export=mmt4d --min-samples=100 --min-loop-share=0.5 --min-fma-share=0.4 -- --threads=2 --input=768x32768xf32=1 --input=32768x768xf32=1 --output=@%t.out.npy | FileCheck %s
// RUN: kiln-run %t.kiln --threads=2 --input=768x32768xf32=1 --input=32768x768xf32=1 --output=@%t.out.npy --profile=500 | FileCheck %s --check-prefix=TABLE
// RUN: kiln-run %t.kiln --threads=2 --input=768x32768xf32=1 --input=32768x768xf32=1 --output=@%t.out.npy --profile --profile-stage=0.source | FileCheck %s --check-prefix=SOURCE
// RUN: kiln-run %t.kiln --threads=2 --input=768x32768xf32=1 --input=32768x768xf32=1 --output=@%t.out.npy --profile --profile-stage=input | FileCheck %s --check-prefix=INPUT
// RUN: kiln-run %t.kiln --threads=2 --input=768x32768xf32=1 --input=32768x768xf32=1 --output=@%t.out.npy --profile-output=%t.folded --profile-stage=0.source --trace=chrome=%t.trace.json
// RUN: FileCheck %s --check-prefix=CHROME < %t.trace.json
// RUN: not kiln-run %t.kiln --input=768x32768xf32=1 --input=32768x768xf32=1 --profile=0 2>&1 | FileCheck %s --check-prefix=BADRATE
// RUN: not kiln-run %t.kiln --input=768x32768xf32=1 --input=32768x768xf32=1 --profile --profile-stage=3.linked 2>&1 | FileCheck %s --check-prefix=BADSTAGE
// RUN: not kiln-run %t.kiln --input=768x32768xf32=1 --input=32768x768xf32=1 --profile-stage=input 2>&1 | FileCheck %s --check-prefix=NOPROFILE

// DUMP: libraries (1)
// DUMP-NEXT: 0  elf-x86_64  cpu {{.+}}  {{[0-9]+}} bytes  {{[1-9][0-9]*}} line rows

// CHECK: main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}: {{[1-9][0-9]+}} samples, {{[0-9]+}}% in the loop around its vector FMAs, {{[0-9]+}}% on the lines of the FMAs and the loads feeding them
// CHECK: host: {{[0-9]+}} samples

// TABLE: profile of main: {{[0-9]+}} samples in {{[0-9.e+-]+}} s of CPU time on 2 threads: {{[0-9]+}} Hz of the 500 Hz asked, by {{the cpu-clock event|CPU-time timers}}; host {{[0-9]+}} ({{[0-9.]+}}%)
// TABLE: {{[0-9.]+}}%  {{[0-9]+}} samples  main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}
// TABLE-NEXT: {{[0-9.]+}}%  profile-{{[0-9a-f]+}}_main_dispatch_{{[0-9]+}}_cpu.2.translated.mlir:{{[0-9]+}}  {{.+}}

// Rolled up through the line maps, the matmul export's top line in its
// 0.source text is its contraction (the matmul, data-tiled into an mmt4d
// before the kernel is formed) and in the input program the linalg.matmul
// below, each with at least 60% of the export's samples: 80-90% on a quiet
// machine; while another test shares the two cores, the packing of B and
// the first touches of the result's pages take 15-30%.
// SOURCE: profile of main:
// SOURCE: {{[0-9.]+}}%  {{[0-9]+}} samples  main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}
// SOURCE-NEXT: {{([6-9][0-9]|100)\.[0-9]}}%  profile-{{[0-9a-f]+}}_main_dispatch_{{[0-9]+}}_cpu.0.source.mlir:{{[0-9]+}}  %{{[0-9]+}} = linalg.mmt4d ins(
// INPUT: profile of main:
// INPUT: {{[0-9.]+}}%  {{[0-9]+}} samples  main_dispatch_{{[0-9]+}}_mmt4d_{{.*}}
// INPUT-NEXT: {{([6-9][0-9]|100)\.[0-9]}}%  {{.*}}profile.mlir:{{[0-9]+}}  %product = linalg.matmul ins(

// The chrome trace holds an instant event per profiled export with its
// hottest lines and their texts, and embeds the texts they name.
// CHROME: {"name":"main_dispatch_{{[0-9]+}}_mmt4d_{{[^"]*}}","cat":"kiln.profile","ph":"i",{{.*}}"lines":[{"path":"[[PATH:profile-[0-9a-f]+_main_dispatch_[0-9]+_cpu.0.source.mlir]]","line":{{[0-9]+}},"samples":{{[0-9]+}},"text":"%{{[0-9]+}} = linalg.mmt4d ins(
// CHROME: "kilnProfile":{
// CHROME: "kilnSources":{
// CHROME: "[[PATH]]":

// BADRATE: kiln-run: error: --profile expects a rate in [1, 100000] samples per second, got '0'
// BADSTAGE: kiln-run: error: --profile-stage: the module has no stage '3.linked'; it has 0.source, 1.configured, 2.translated, input
// NOPROFILE: kiln-run: error: --profile-stage applies to --profile or --profile-output

func.func @main(%a: tensor<768x32768xf32>, %b: tensor<32768x768xf32>) -> tensor<768x768xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<768x768xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<768x768xf32>) -> tensor<768x768xf32>
  %product = linalg.matmul ins(%a, %b : tensor<768x32768xf32>, tensor<32768x768xf32>)
                           outs(%init : tensor<768x768xf32>) -> tensor<768x768xf32>
  %result = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%product : tensor<768x768xf32>) outs(%empty : tensor<768x768xf32>) {
  ^bb0(%p: f32, %out: f32):
    %r = arith.maximumf %p, %zero : f32
    linalg.yield %r : f32
  } -> tensor<768x768xf32>
  return %result : tensor<768x768xf32>
}
