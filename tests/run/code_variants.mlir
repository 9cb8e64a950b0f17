// Tests what a module for two CPUs shows of the variant that runs: forced
// to its baseline x86-64 code (which every x86-64 machine runs), kiln-run
// says so and its trace zones name that variant's stage texts; kiln-dump
// lists both variants, and the module holds each variant's own texts; an
// unknown variant is an error naming those there are. (tests/e2e runs every
// variant against the reference: run_e2e.py --variants.)
//
// RUN: kiln-compile %s --cpu=x86-64-v3,x86-64 --executable-debug-level=3 -o %t.kiln
// RUN: kiln-run %t.kiln --variant=x86-64 --list-functions 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: kiln-run %t.kiln --variant=x86-64 --input=4x8xf32=0.5 --trace=console 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: kiln-dump %t.kiln --json | FileCheck %s --check-prefix=JSON
// RUN: kiln-dump %t.kiln --sources | FileCheck %s --check-prefix=SOURCES
// RUN: not kiln-run %t.kiln --variant=x86-64-v2 --list-functions 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// LIST-DAG: main(4x8xf32) -> (4x16xf32)
// LIST-DAG: kiln-run: code variant x86-64 runs (as --variant says)

// TRACE-DAG: main_dispatch_0_matmul_4x16x8_f32 {{.*}}_main_dispatch_0_x86-64.0.source.mlir:{{[0-9]+}}
// TRACE-DAG: 4x16xf32=[2.5 2.5

// JSON-DAG: "name": "x86-64-v3"
// JSON-DAG: "name": "x86-64"
// JSON-DAG: "cpu": "x86-64-v3"

// SOURCES-DAG: _main_dispatch_0_x86-64.2.translated.mlir
// SOURCES-DAG: _main_dispatch_0_x86-64-v3.2.translated.mlir

// UNKNOWN: no code variant 'x86-64-v2' (available: x86-64-v3, x86-64)

func.func @main(%a: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<0.5> : tensor<8x16xf32>
  %bias = arith.constant dense<0.5> : tensor<4x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.add ins(%m, %bias : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
