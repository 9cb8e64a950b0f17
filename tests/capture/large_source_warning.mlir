// Tests that a captured text above 262,127 bytes (what Tracy transfers) is
// reported by the compiler and flagged by kiln-dump, and still embedded.
//
// RUN: %python %S/Inputs/generate_long_chain.py 6000 > %t.mlir
// RUN: kiln-compile %t.mlir --executable-debug-level=3 --executable-capture-stages=0.source -o %t.kiln 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: kiln-dump %t.kiln --sources | FileCheck %s --check-prefix=DUMP
// COMPILE: warning: captured source '{{.*}}_main_dispatch_0_cpu.0.source.mlir' is {{[0-9]+}} bytes, above the 262127 bytes a profiler such as Tracy transfers
// DUMP: _main_dispatch_0_cpu.0.source.mlir {{.*}}too large for Tracy
// DUMP: 1 files (1 distinct contents): {{.*}}; 1 too large for Tracy
