// RUN: rm -f %t.kiln
// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that constants that together take the module past 2 GiB (each is
// within the per-constant limit) are an error at the one that does, as the
// runtime would refuse the module.
// CHECK: bad_module_over_2gib.mlir:[[# @LINE + 3]]:8: error: the module would exceed 2 GiB, the most a kiln module holds, with this constant
func.func @main() -> (tensor<268435456xf32>, tensor<268435456xf32>, tensor<2xf32>) {
  %a = arith.constant dense<1.0> : tensor<268435456xf32>
  %b = arith.constant dense<2.0> : tensor<268435456xf32>
  %c = arith.constant dense<3.0> : tensor<2xf32>
  return %a, %b, %c : tensor<268435456xf32>, tensor<268435456xf32>, tensor<2xf32>
}
