// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --function=insert --input=4x3xf32=1 --input=2x3xf32=7 | FileCheck %s --check-prefix=INSERT
// RUN: not kiln-run %t.kiln --function=insert --input=1x3xf32=1 --input=2x3xf32=7 2>&1 | FileCheck %s --check-prefix=INSERT-OUT
// RUN: kiln-run %t.kiln --function=extract --input=5x3xf32=[[0,0,0],[1,1,1],[2,2,2],[3,3,3],[4,4,4]] | FileCheck %s --check-prefix=EXTRACT
// RUN: not kiln-run %t.kiln --function=extract --input=2x3xf32=1 2>&1 | FileCheck %s --check-prefix=EXTRACT-OUT
// Tests that a slice whose offset the program computes from the call's
// sizes runs where it lies inside its tensor and fails its dispatch, with
// nothing written or read, where those sizes put it outside: the insert of
// two rows at row n / 2 into n rows, the extract of two rows from row n - 3.
// INSERT: 4x3xf32=[1 1 1][1 1 1][7 7 7][7 7 7]
// INSERT-OUT: kiln-run: error: function 'insert' instruction {{[0-9]+}}: dispatch 'insert_dispatch_0_insert_slice_Dx3_f32' failed: workgroup (0, 0, 0) found a slice outside its tensor at this call's sizes
// EXTRACT: 2x3xf32=[2 2 2][3 3 3]
// EXTRACT-OUT: kiln-run: error: function 'extract' instruction {{[0-9]+}}: dispatch 'extract_dispatch_0_extract_slice_2x3_f32' failed: {{.*}} found a slice outside its tensor

func.func @insert(%x: tensor<?x3xf32>, %y: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %h = arith.divui %n, %c2 : index
  %r = tensor.insert_slice %y into %x[%h, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

func.func @extract(%x: tensor<?x3xf32>) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %o = arith.subi %n, %c3 : index
  %r = tensor.extract_slice %x[%o, 0] [2, 3] [1, 1] : tensor<?x3xf32> to tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
