// RUN: kiln-opt %s --split-input-file --kiln-form-dispatch-regions | FileCheck %s

// Tests that a matmul takes its fill, its scalar constant and its
// elementwise consumer into one region.
// CHECK-LABEL: func.func @matmul_bias_relu
//  CHECK-SAME:   (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>, %[[BIAS:.+]]: tensor<16xf32>)
//       CHECK:   %[[R:.+]] = kiln.dispatch.region -> (tensor<4x16xf32>) {
//   CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.0
//   CHECK-DAG:     %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
//       CHECK:     %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]]
//       CHECK:     %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]]
//       CHECK:     %[[G:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[BIAS]]
//       CHECK:     kiln.return %[[G]] : tensor<4x16xf32>
//       CHECK:   return %[[R]]
func.func @matmul_bias_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Tests that a root whose result has another user keeps its consumer out:
// both results must reach memory anyway.
// CHECK-LABEL: func.func @shared_root
//       CHECK:   %[[M:.+]] = kiln.dispatch.region -> (tensor<4x4xf32>) {
//       CHECK:     linalg.matmul
//   CHECK-NOT:     linalg.generic
//       CHECK:     kiln.return
//       CHECK:   %[[G:.+]] = kiln.dispatch.region -> (tensor<4x4xf32>) {
//       CHECK:     linalg.generic {{.*}} ins(%[[M]] :
//       CHECK:   return %[[M]], %[[G]]
func.func @shared_root(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.negf %x : f32
    linalg.yield %z : f32
  } -> tensor<4x4xf32>
  return %m, %r : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a fill with two users is copied into both regions, and that
// reshapes stay on the host.
// CHECK-LABEL: func.func @shared_fill
//       CHECK:   kiln.dispatch.region
//       CHECK:     linalg.fill
//       CHECK:     linalg.matmul
//       CHECK:   tensor.collapse_shape
//       CHECK:   kiln.dispatch.region
//       CHECK:     linalg.fill
//       CHECK:     linalg.matmul
func.func @shared_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tensor.collapse_shape %m1 [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %m2 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %m2 : tensor<16xf32>, tensor<4x4xf32>
}

// -----

// Tests that the insert_slice chain of a concat becomes one region with the
// empty destination.
// CHECK-LABEL: func.func @concat
//       CHECK:   kiln.dispatch.region -> (tensor<6xf32>) {
//       CHECK:     tensor.empty
//       CHECK:     tensor.insert_slice
//       CHECK:     tensor.insert_slice
//       CHECK:     kiln.return
//   CHECK-NOT:   kiln.dispatch.region
func.func @concat(%a: tensor<2xf32>, %b: tensor<4xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %0 = tensor.insert_slice %a into %e[0] [2] [1] : tensor<2xf32> into tensor<6xf32>
  %1 = tensor.insert_slice %b into %0[2] [4] [1] : tensor<4xf32> into tensor<6xf32>
  return %1 : tensor<6xf32>
}
