// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --function=insert --input=4x3xf32=1 --input=2x3xf32=7 | FileCheck %s --check-prefix=INSERT
// RUN: not kiln-run %t.kiln --function=insert --input=1x3xf32=1 --input=2x3xf32=7 2>&1 | FileCheck %s --check-prefix=INSERT-OUT
// RUN: kiln-run %t.kiln --function=extract --input=5x3xf32=[[0,0,0],[1,1,1],[2,2,2],[3,3,3],[4,4,4]] | FileCheck %s --check-prefix=EXTRACT
// RUN: not kiln-run %t.kiln --function=extract --input=2x3xf32=1 2>&1 | FileCheck %s --check-prefix=EXTRACT-OUT
// RUN: kiln-run %t.kiln --function=overwrite --input=4xf32=1 --input=4xf32=2 | FileCheck %s --check-prefix=OVERWRITE
// RUN: kiln-run %t.kiln --function=insert --input=3000000x3xf32=1 --input=2x3xf32=7 --output=@%t.large.npy
// RUN: not kiln-run %t.kiln --function=overwrite --input=4xf32=1 --input=100000xf32=2 2>&1 | FileCheck %s --check-prefix=OVERWRITE-OUT
// RUN: kiln-run %t.kiln --function=every_nth --input=10xf32=[0,1,2,3,4,5,6,7,8,9] --input=3xf32=0 | FileCheck %s --check-prefix=NTH
// RUN: not kiln-run %t.kiln --function=huge_stride --input=4xf32=1 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: kiln-run %t.kiln --function=pack --input=5x4xf32=7 --input=2xf32=0 | FileCheck %s --check-prefix=PACK
// RUN: not kiln-run %t.kiln --function=pack --input=5x4xf32=7 --input=300000xf32=0 2>&1 | FileCheck %s --check-prefix=PACK-OUT
// Tests that a slice whose offset the program computes from the call's
// sizes runs where it lies inside its tensor and fails its dispatch, with
// nothing written or read, where those sizes put it outside: the insert of
// two rows at row n / 2 into n rows, the extract of two rows from row n - 3.
// An insert into 3,000,000 rows (36 MB, more than any thread's stack)
// copies them into its result, not into a temporary. The same for an insert
// whose source is longer than its slice (a stack
// temporary of its destination would have been overrun), and a strided
// slice whose stride comes from a size, or whose last element's index
// overflows; a pack whose tile comes from a
// size gets its tile's temporary where it fits the stack (2) and fails
// where it does not (300000 floats).
// INSERT: 4x3xf32=[1 1 1][1 1 1][7 7 7][7 7 7]
// INSERT-OUT: kiln-run: error: function 'insert' instruction {{[0-9]+}}: dispatch 'insert_dispatch_0_insert_slice_Dx3_f32' failed: workgroup (0, 0, 0) found sizes it computes from this call's that do not fit
// EXTRACT: 2x3xf32=[2 2 2][3 3 3]
// OVERWRITE: 4xf32=2 2 2 2
// OVERWRITE-OUT: dispatch 'overwrite_dispatch_0_insert_slice_D_f32' failed: {{.*}} do not fit
// NTH: 3xf32=0 3 6
// HUGE: dispatch 'huge_stride_dispatch_0_extract_slice_2_f32' failed: {{.*}} do not fit
// PACK: {{^3x4x2xf32=\[\[7 7\].*\]\[\[7 -1\]\[7 -1\]\[7 -1\]\[7 -1\]\]$}}
// PACK-OUT: dispatch 'pack_dispatch_0_pack_Dx4xD_f32' failed: {{.*}} do not fit
// EXTRACT-OUT: kiln-run: error: function 'extract' instruction {{[0-9]+}}: dispatch 'extract_dispatch_0_extract_slice_2x3_f32' failed: {{.*}} found sizes it computes from this call's that do not fit

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

// %y fills all of %x.
func.func @overwrite(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %r = tensor.insert_slice %y into %x[0] [%n] [1] : tensor<?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}

// Three elements of %x, %t apart, where %t is the size of %q.
func.func @every_nth(%x: tensor<?xf32>, %q: tensor<?xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %t = tensor.dim %q, %c0 : tensor<?xf32>
  %r = tensor.extract_slice %x[0] [3] [%t] : tensor<?xf32> to tensor<3xf32>
  return %r : tensor<3xf32>
}

// Rows of %x packed in tiles of as many rows as %q has.
func.func @pack(%x: tensor<?x4xf32>, %q: tensor<?xf32>) -> tensor<?x4x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %t = tensor.dim %q, %c0 : tensor<?xf32>
  %o = arith.ceildivsi %n, %t : index
  %e = tensor.empty(%o, %t) : tensor<?x4x?xf32>
  %z = arith.constant -1.0 : f32
  %p = linalg.pack %x padding_value(%z : f32) inner_dims_pos = [0] inner_tiles = [%t] into %e : tensor<?x4xf32> -> tensor<?x4x?xf32>
  return %p : tensor<?x4x?xf32>
}

// Two elements of %x from its last, 2^63 - 1 apart.
func.func @huge_stride(%x: tensor<?xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %o = arith.subi %n, %c1 : index
  %r = tensor.extract_slice %x[%o] [2] [9223372036854775807] : tensor<?xf32> to tensor<2xf32>
  return %r : tensor<2xf32>
}
