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
// HIDDEN-NOT: --x86-
//
// RUN: kiln-compile --version | FileCheck %s --check-prefix=VERSION
// VERSION: kiln-compile {{[0-9]+\.[0-9]+\.[0-9]+}} (module format {{[0-9]+}}, LLVM 22.
//
// An op of no dialect kiln reads says so, not how another tool would take it.
// RUN: printf 'func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n' > %t.unregistered.mlir
// RUN: not kiln-compile %t.unregistered.mlir -o %t.unregistered.kiln 2>&1 | FileCheck %s --check-prefix=UNREGISTERED
// UNREGISTERED: unregistered.mlir:2:3: error: 'foo.bar' is not an op kiln compiles
// UNREGISTERED-NOT: allow-unregistered-dialect

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
