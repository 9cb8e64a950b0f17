// RUN: not kiln-compile %s --cpu=notacpu -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln
// RUN: not kiln-compile %s --cpu=x86-64-v3,notacpu -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln
// RUN: not kiln-compile %s --cpu=x86-64-v3,x86-64,x86-64-v3 -o %t.kiln 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not test -e %t.kiln
// RUN: not kiln-compile %s --cpu= -o %t.kiln 2>&1 | FileCheck %s --check-prefix=EMPTY

// Tests that an unknown --cpu, alone or in a list, a CPU listed twice and
// an empty entry are clear errors, not a crash.
// CHECK: kiln-compile: error: unknown --cpu 'notacpu'; use host, x86-64-v2, x86-64-v3, x86-64-v4 or an LLVM x86 CPU name (e.g. skylake-avx512), or a list of them
// TWICE: kiln-compile: error: --cpu lists 'x86-64-v3' twice
// EMPTY: kiln-compile: error: unknown --cpu ''
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
