// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-bound-extract-indices,canonicalize,cse))" | FileCheck %s

// Tests that an index computed from data (a gather through a table) is
// clamped to the table's bounds before the read.
// CHECK-LABEL: func.func @gather
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C15:.+]] = arith.constant 15 : index
//       CHECK:   linalg.generic
//       CHECK:     %[[I:.+]] = arith.index_cast
//       CHECK:     %[[LO:.+]] = arith.maxsi %[[I]], %[[C0]]
//       CHECK:     %[[IN:.+]] = arith.minsi %[[LO]], %[[C15]]
//       CHECK:     tensor.extract %{{.+}}[%[[IN]]] : tensor<16xf32>
func.func @gather(%table: tensor<16xf32>, %idx: tensor<8xi32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%idx : tensor<8xi32>) outs(%e : tensor<8xf32>) {
  ^bb0(%i: i32, %o: f32):
    %j = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%j] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Tests that indices the analysis proves inside the tensor (a loop index
// over a range no larger than the dim, shifted into it, and a constant) are
// left alone.
// CHECK-LABEL: func.func @in_range
//   CHECK-NOT:   arith.maxsi
//   CHECK-NOT:   arith.minsi
//       CHECK:   return
func.func @in_range(%table: tensor<16x4xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = arith.addi %i, %c8 : index
    %v = tensor.extract %table[%j, %c3] : tensor<16x4xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Tests that a loop index that can pass the end of a dynamic dim is clamped
// there, through tensor.dim, and only there (it cannot be negative).
// CHECK-LABEL: func.func @past_end
//       CHECK:   linalg.generic
//       CHECK:     %[[I:.+]] = linalg.index 0
//       CHECK:     %[[DIM:.+]] = tensor.dim
//       CHECK:     %[[LAST:.+]] = arith.subi %[[DIM]], %c1
//   CHECK-NOT:     arith.maxsi
//       CHECK:     %[[IN:.+]] = arith.minsi %[[I]], %[[LAST]]
//       CHECK:     tensor.extract %{{.+}}[%[[IN]]] : tensor<?xf32>
func.func @past_end(%table: tensor<?xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %table[%i] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
