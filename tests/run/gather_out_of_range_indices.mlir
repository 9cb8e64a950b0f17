// Tests that a gather whose indices leave its table (past the end, far past,
// negative) reads the nearest element of the table instead of memory
// outside it: computed tensor.extract indices are clamped in the kernel.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --input=16xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --input=8xi32=0,1,15,16,100000000,-5,-2147483648,3 | FileCheck %s
// CHECK: 8xf32=1 2 16 16 16 1 1 4

func.func @main(%table: tensor<16xf32>, %idx: tensor<8xi32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%idx : tensor<8xi32>) outs(%e : tensor<8xf32>) {
  ^bb0(%i: i32, %o: f32):
    %j = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%j] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
