// Tests kiln-run's tracing flags on a compiled program: console lines point
// at the chosen stage, the chrome file alone shows every dispatch's entry,
// and bad flags are clear errors.
//
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.kiln
// RUN: kiln-run %t.kiln --input=4x8xf32=0.5 --trace=console 2>&1 >/dev/null | FileCheck %s --check-prefix=CONSOLE
// RUN: kiln-run %t.kiln --input=4x8xf32=0.5 --trace=console --trace-stage=2.translated --trace-print-source 2>&1 >/dev/null | FileCheck %s --check-prefix=TRANSLATED
// RUN: env KILN_TRACE=console kiln-run %t.kiln --input=4x8xf32=0.5 2>&1 >/dev/null | FileCheck %s --check-prefix=CONSOLE
// RUN: kiln-run %t.kiln --input=4x8xf32=0.5 --trace=chrome=%t.json --trace-workgroups > /dev/null
// RUN: %python %S/Inputs/check_chrome_trace.py %t.json | FileCheck %s --check-prefix=CHROME
// RUN: not kiln-run %t.kiln --input=4x8xf32=0.5 --trace=perfetto 2>&1 | FileCheck %s --check-prefix=BAD-PROVIDER
// RUN: kiln-run %t.kiln --input=4x8xf32=0.5 --trace=console --trace-stage=7.later 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD-STAGE
// RUN: kiln-compile %s --executable-debug-level=1 -o %t.1.kiln
// RUN: kiln-run %t.1.kiln --input=4x8xf32=0.5 --trace=console 2>&1 >/dev/null | FileCheck %s --check-prefix=FALLBACK

// CONSOLE: [kiln] main_dispatch_0_matmul_4x16x8_f32 {{.*}} us  1x1x1  trace_cli-{{[0-9a-f]+}}_main_dispatch_0_cpu.0.source.mlir:{{[0-9]+}}
// CONSOLE: [kiln] main_dispatch_1_elementwise_4x16_f32 {{.*}}_main_dispatch_1_cpu.0.source.mlir:{{[0-9]+}}
// CONSOLE: [kiln] export{{.*}}count{{.*}}total ms{{.*}}mean us{{.*}}share
// CONSOLE: [kiln] all dispatches{{ +}}2

// TRANSLATED: [kiln] main_dispatch_0_matmul_4x16x8_f32 {{.*}}_main_dispatch_0_cpu.2.translated.mlir:[[LINE:[0-9]+]]
// TRANSLATED: [kiln] > {{ *}}[[LINE]]  {{ *}}llvm.func @main_dispatch_0_matmul_4x16x8_f32(

// CHROME: dispatch events: 2, each at its export's entry in an embedded text
// CHROME: workgroup events: 2
// CHROME: embedded texts: 2

// BAD-PROVIDER: kiln-run: error: unknown tracer 'perfetto'; choose one of null, console, chrome=FILE
// BAD-STAGE: kiln-run: warning: --trace-stage=7.later: the module captured 0.source, 1.configured, 2.translated; dispatches point at their input locations
// BAD-STAGE: [kiln] main_dispatch_0_matmul_4x16x8_f32 {{.*}}trace_cli.mlir:{{[0-9]+}}

// Level 1: no texts; zones point into the input program.
// FALLBACK: [kiln] main_dispatch_0_matmul_4x16x8_f32 {{.*}}trace_cli.mlir:[[#@LINE+7]]

func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %w = arith.constant dense<0.25> : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %n = linalg.negf ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.exp ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s = linalg.add ins(%n, %r : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m, %s : tensor<4x16xf32>, tensor<4x16xf32>
}
