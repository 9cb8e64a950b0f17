// RUN: kiln-compile %s -o %t.kiln
// RUN: not kiln-run %t.kiln --input=5xf32=1 --input=3xf32=2 2>&1 | FileCheck %s
// RUN: kiln-run %t.kiln --input=2xf32=1 --input=2xf32=2 | FileCheck %s --check-prefix=AGREE
// RUN: kiln-run %t.kiln --dispatch=main_dispatch_0::main_dispatch_0_elementwise_D_f32 --binding=40000xf32=1 --binding=40000xf32=2 --binding=40000xf32=7 | FileCheck %s --check-prefix=DISPATCH
// RUN: not kiln-run %t.kiln --dispatch=main_dispatch_0::main_dispatch_0_elementwise_D_f32 --binding=3xf32=1 --binding=2xf32=2 --binding=3xf32=0 2>&1 | FileCheck %s --check-prefix=DISAGREE
// Tests that inputs whose sizes the program says agree (one loop runs over
// both) are refused when they do not, before the kernel reads past the
// shorter one, and run when they do; the same for a dispatch run on its
// own, which gets the workgroups its bindings' sizes need (every element of
// 40000 written).
// CHECK: kiln-run: error: function 'main' instruction 1: dispatch of 'main_dispatch_0_elementwise_D_f32': binding 0 dimension 0 is 5 but binding 1 dimension 0 is 3
// AGREE: 2xf32=3 3
// The result line holds nothing but 3s (an element no workgroup wrote
// would still be 7).
// DISPATCH: {{^40000xf32=3( 3)*$}}
// DISAGREE: binding 0 dimension 0 is 3 but binding 1 dimension 0 is 2

func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
