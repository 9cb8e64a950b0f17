// Tests that an option taking one of named values refuses any other value,
// naming the option and the value, and that --split-input-file needs an
// output that can hold each part's, before anything is compiled or written.
//
// RUN: not kiln-compile %s --compile-to=linking -o %t.kiln 2>&1 | FileCheck %s --check-prefix=PHASE
// RUN: not kiln-compile %s --compile-mode=program -o %t.kiln 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not kiln-compile %s --tosa-validation=loose -o %t.kiln 2>&1 | FileCheck %s --check-prefix=TOSA
// RUN: not test -e %t.kiln
// RUN: not kiln-compile %s --split-input-file -o %t.kiln 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not test -e %t.kiln
// RUN: kiln-compile --help | FileCheck %s --check-prefix=HELP
// SPLIT: kiln-compile: error: --split-input-file makes a module of each part, which one file cannot hold; add --verify-diagnostics or --compile-to=PHASE
// PHASE: for the --compile-to option: Cannot find option named 'linking'
// MODE: for the --compile-mode option: Cannot find option named 'program'
// TOSA: for the --tosa-validation option: Cannot find option named 'loose'
// HELP: --compile-to=<value>
// HELP-NEXT: =input
// HELP-NEXT: =global-optimization
// HELP-NEXT: =dispatch
// HELP-NEXT: =host
// HELP-NEXT: =codegen
// HELP-NEXT: =end

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
