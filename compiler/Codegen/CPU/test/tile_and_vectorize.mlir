// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(kiln-cpu-tile-and-vectorize,canonicalize,cse))" | FileCheck %s

// Tests that a matmul tile becomes an 8x32 accumulator carried in registers
// through a K loop of step 1 (read and written nowhere inside it), updated by
// a vector.contract, and that its epilogue applies to that register value
// before the one store, with no linalg op left.
// CHECK-LABEL: func.func @mm
//       CHECK:   scf.for %{{.+}} = %c0 to %c32 step %c8
//       CHECK:     %[[ACC:.+]] = scf.for %{{.+}} = %c0 to %c256 step %c1 iter_args(%[[A:.+]] = %{{.+}}) -> (vector<8x32xf32>)
//   CHECK-NOT:       vector.transfer_write
//       CHECK:       vector.contract {{.*}}, %[[A]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
//       CHECK:     %[[MAX:.+]] = arith.maximumf %[[ACC]], {{.*}} : vector<8x32xf32>
//       CHECK:     vector.transfer_write %[[MAX]]
//   CHECK-NOT:   linalg.
func.func @mm(%a: tensor<32x256xf32>, %b: tensor<256x32xf32>) -> tensor<32x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul {lowering_config = #kiln.lowering_config<vector = [8, 32, 1]>}
      ins(%a, %b : tensor<32x256xf32>, tensor<256x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>)
      attrs = {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [8, 32]>} {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %g : tensor<32x32xf32>
}

// Tests that a contraction into a 0-d result (linalg.dot) is vectorized as a
// reduction (the vectorizer's named contraction would take a vector<f32>
// accumulator, which vector.contract rejects); the reduction then becomes a
// vector.contract into a scalar.
// CHECK-LABEL: func.func @dot
//       CHECK:   vector.contract {{.*}} : vector<16xf32>, vector<16xf32> into f32
//   CHECK-NOT:   linalg.
func.func @dot(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<f32>) -> tensor<f32> {
  %d = linalg.dot ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%c : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}
