// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(kiln-cpu-lower-vectors))" | FileCheck %s

// Tests that the accumulator of a K loop is hoisted into registers (loop
// iter_args, no load/store of it inside) and that the contraction becomes
// rank-1 FMAs on 1-D vectors.
// CHECK-LABEL: func.func @acc
//       CHECK:   scf.for {{.*}} iter_args({{.*}}) -> (vector<2x32xf32>)
//   CHECK-NOT:     vector.contract
//       CHECK:     vector.fma {{.*}} : vector<32xf32>
//       CHECK:     vector.fma {{.*}} : vector<32xf32>
//       CHECK:     scf.yield
func.func @acc(%a: memref<2x64xf32>, %b: memref<64x32xf32>, %c: memref<2x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<2x64xf32>, vector<2x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf32>, vector<1x32xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<2x32xf32>
  }
  return
}
