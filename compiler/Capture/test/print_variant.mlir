// RUN: kiln-opt %s --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-print-variant{stage=1.configured})))" --mlir-disable-threading -o %t.mlir 2>&1 | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-print-variant)))" --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-STAGE
// RUN: kiln-opt %s | diff - %t.mlir
// RUN: kiln-opt %s --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-print-variant{stage=1.configured})))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADED

// Tests that each variant is printed to stderr under a header naming the
// stage, its executable and itself, and that the IR is left unchanged.

//      CHECK: // -----// 1.configured ex::cpu //----- //
// CHECK-NEXT: kiln.executable.variant @cpu target("llvm-cpu")
//      CHECK:   kiln.executable.export @entry ordinal(0) bindings(1)
//      CHECK: // -----// 1.configured other::cpu //----- //

// With threads, each text is still whole.
// THREADED: // -----// 1.configured {{ex|other}}::cpu //----- //
// THREADED-NEXT: kiln.executable.variant @cpu
// THREADED: // -----// 1.configured {{ex|other}}::cpu //----- //
// THREADED-NEXT: kiln.executable.variant @cpu

// NO-STAGE: // -----// ex::cpu //----- //

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @entry ordinal(0) bindings(1)
    builtin.module {
      func.func @entry() {
        return
      }
    }
  }
}
kiln.executable @other {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @entry ordinal(0) bindings(1)
    builtin.module {
      func.func @entry() {
        return
      }
    }
  }
}
