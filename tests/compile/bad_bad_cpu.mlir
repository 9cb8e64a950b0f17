// RUN: not kiln-compile %s --cpu=notacpu -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that an unknown --cpu is a clear error at its location, not a crash.
// CHECK: kiln-compile: error: unknown --cpu 'notacpu'; use host, x86-64-v2, x86-64-v3, x86-64-v4 or an LLVM x86 CPU name (e.g. skylake-avx512)
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
