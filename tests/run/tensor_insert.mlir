// Tests that tensor.insert at constant indices writes that one element of a
// copy of its destination, leaving the input as it was.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --input=2x3xf32=1,2,3,4,5,6 | FileCheck %s
// CHECK: 2x3xf32=[1 2 3][4 5 9.5]
// CHECK-NEXT: 2x3xf32=[1 2 3][4 5 6]

func.func @main(%t: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %s = arith.constant 9.5 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tensor.insert %s into %t[%c1, %c2] : tensor<2x3xf32>
  return %r, %t : tensor<2x3xf32>, tensor<2x3xf32>
}
