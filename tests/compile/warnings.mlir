// Tests the compiler's warnings about flags and programs that compile but
// do not do what their author may think, and that --help lists kiln's own
// options only.
//
// RUN: kiln-compile %s --executable-capture-stages=0.source -o %t.kiln 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: kiln-compile: warning: --executable-capture-stages has no effect below --executable-debug-level=3 (got 2)
//
// RUN: sed -n '/^func.func/,$p' %s | sed 's/@main/private @main/' > %t.private.mlir
// RUN: kiln-compile %t.private.mlir -o %t.private.kiln 2>&1 | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: private.mlir: warning: no public functions: the module has nothing to run
// PRIVATE-NOT: :0:0
//
// RUN: kiln-compile --help | FileCheck %s --check-prefix=HELP
// RUN: kiln-compile --help-hidden | FileCheck %s --check-prefix=HIDDEN
// HELP: --executable-debug-level=
// HELP-NOT: --mlir-print-debuginfo
// HELP-NOT: --x86-
// HIDDEN: --mlir-print-debuginfo

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
