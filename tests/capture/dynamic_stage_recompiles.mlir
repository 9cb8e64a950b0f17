// Tests that the captured stage texts of an executable over dynamic extents
// are reproducers too: each compiles again on its own, and its export runs
// with --dispatch at sizes of the user's choice, its grid from its
// workgroup tiles.
//
// RUN: kiln-compile %s --executable-debug-level=3 -o %t.kiln
// RUN: rm -rf %t.sources && kiln-dump %t.kiln --extract-sources=%t.sources
// RUN: kiln-compile %t.sources/*.0.source.mlir --compile-mode=executable -o %t.0.kiln
// RUN: kiln-compile %t.sources/*.1.configured.mlir --compile-mode=executable -o %t.1.kiln
// RUN: kiln-run %t.0.kiln --dispatch=main_dispatch_0::main_dispatch_0_elementwise_D_f32 --binding=40000xf32=1 --binding=40000xf32=2 --binding=40000xf32=0 --output=- --output=- --output=@%t.0.npy
// RUN: kiln-run %t.0.kiln --dispatch=main_dispatch_0::main_dispatch_0_elementwise_D_f32 --binding=@%t.0.npy --binding=40000xf32=-3 --binding=40000xf32=7 | FileCheck %s
// RUN: kiln-run %t.1.kiln --dispatch=main_dispatch_0::main_dispatch_0_elementwise_D_f32 --binding=3xf32=1 --binding=3xf32=2 --binding=3xf32=0 | FileCheck %s --check-prefix=SMALL
// The first run's result (3 everywhere, if every workgroup ran) plus -3
// gives 0 everywhere: each line holds one value only (an element no
// workgroup wrote would still be 7, in either run).
// CHECK: {{^40000xf32=3( 3)*$}}
// CHECK-NEXT: {{^40000xf32=-3( -3)*$}}
// CHECK-NEXT: {{^40000xf32=0( 0)*$}}
// SMALL: 3xf32=3 3 3

func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
