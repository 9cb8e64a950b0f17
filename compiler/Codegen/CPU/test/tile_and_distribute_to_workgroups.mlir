// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(kiln-cpu-tile-and-distribute-to-workgroups,canonicalize,cse))" | FileCheck %s

// Tests that the stored op is tiled by its workgroup tiles into one
// scf.forall iteration per workgroup, with matmul and fill fused inside.
// CHECK-LABEL: func.func @mm
//       CHECK:   %[[LOOP:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (128, 64) step (32, 32) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<128x64xf32>)
//       CHECK:     %[[F:.+]] = linalg.fill {{.*}} -> tensor<32x32xf32>
//       CHECK:     %[[M:.+]] = linalg.matmul {{.*}} outs(%[[F]] : tensor<32x32xf32>)
//       CHECK:     %[[G:.+]] = linalg.generic {{.*}} ins(%[[M]]
//       CHECK:     scf.forall.in_parallel
//       CHECK:       tensor.parallel_insert_slice %[[G]] into %[[OUT]]
//       CHECK:   bufferization.materialize_in_destination %[[LOOP]]
func.func @mm() {
  %cst = arith.constant 0.0 : f32
  %0 = kiln.binding 0 : memref<128x256xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<128x256xf32> to tensor<128x256xf32>
  %2 = kiln.binding 1 : memref<256x64xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<256x64xf32> to tensor<256x64xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %m = linalg.matmul {lowering_config = #kiln.lowering_config<vector = [8, 32, 1]>}
      ins(%1, %3 : tensor<128x256xf32>, tensor<256x64xf32>) outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<128x64xf32>) outs(%e : tensor<128x64xf32>)
      attrs = {lowering_config = #kiln.lowering_config<workgroup = [32, 32], vector = [8, 32]>} {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<128x64xf32>
  %4 = kiln.binding 2 : memref<128x64xf32>
  bufferization.materialize_in_destination %g in restrict writable %4 : (tensor<128x64xf32>, memref<128x64xf32>) -> ()
  return
}
