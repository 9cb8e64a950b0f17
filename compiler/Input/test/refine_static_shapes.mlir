// RUN: kiln-opt %s --split-input-file --kiln-refine-static-shapes | FileCheck %s

// Tests that a cast erasing a static shape folds into the linalg ops that
// read it, and that tensor.dim and tensor.empty sized from it become static.
// CHECK-LABEL: func.func @cast_into_linalg
//   CHECK-NOT:   tensor.dim
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<4x3xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<4x3xf32>) -> tensor<4x3xf32>
//       CHECK:   linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<4x2xf32>, tensor<2x3xf32>) outs(%[[F]] : tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @cast_into_linalg(%a: tensor<4x2xf32>, %b: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %da = tensor.cast %a : tensor<4x2xf32> to tensor<?x?xf32>
  %db = tensor.cast %b : tensor<2x3xf32> to tensor<?x?xf32>
  %m = tensor.dim %da, %c0 : tensor<?x?xf32>
  %n = tensor.dim %db, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%da, %db : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----

// Tests that a tie with constant dimensions gives its tensor their sizes,
// through a barrier, which keeps hiding the values.
// CHECK-LABEL: func.func @tie_shape_through_barrier
//   CHECK-NOT:   flow.tensor.tie_shape
//       CHECK:   %[[B:.+]] = util.optimization_barrier %{{.+}} : tensor<2x8xi32>
//       CHECK:   linalg.generic {{.+}} ins(%[[B]] : tensor<2x8xi32>) outs(%[[B]] : tensor<2x8xi32>)
//       CHECK:   } -> tensor<2x8xi32>
func.func @tie_shape_through_barrier() -> tensor<2x8xi32> {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty(%c2, %c8) : tensor<?x?xi32>
  %one = arith.constant 1 : i32
  %f = linalg.fill ins(%one : i32) outs(%e : tensor<?x?xi32>) -> tensor<?x?xi32>
  %b = util.optimization_barrier %f : tensor<?x?xi32>
  %t = flow.tensor.tie_shape %b : tensor<?x?xi32>{%c2, %c8}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x?xi32>) outs(%t : tensor<?x?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %x : i32
    linalg.yield %s : i32
  } -> tensor<?x?xi32>
  %s = tensor.cast %r : tensor<?x?xi32> to tensor<2x8xi32>
  return %s : tensor<2x8xi32>
}

// -----

// Tests that a tie with constant dimensions gives a tensor of unknown shape
// (an argument, behind a barrier) the tie's sizes.
// CHECK-LABEL: func.func @tie_shape_of_argument
//       CHECK:   %[[B:.+]] = util.optimization_barrier %arg0 : tensor<?x?xi32>
//       CHECK:   %[[S:.+]] = tensor.cast %[[B]] : tensor<?x?xi32> to tensor<2x8xi32>
//       CHECK:   linalg.generic {{.+}} ins(%[[S]] : tensor<2x8xi32>)
func.func @tie_shape_of_argument(%a: tensor<?x?xi32>) -> tensor<2x8xi32> {
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %b = util.optimization_barrier %a : tensor<?x?xi32>
  %t = flow.tensor.tie_shape %b : tensor<?x?xi32>{%c2, %c8}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x?xi32>) outs(%t : tensor<?x?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %s = arith.addi %x, %x : i32
    linalg.yield %s : i32
  } -> tensor<?x?xi32>
  %s = tensor.cast %r : tensor<?x?xi32> to tensor<2x8xi32>
  return %s : tensor<2x8xi32>
}

// -----

// Tests that elementwise ops on whole tensors and checks compare at the
// static type their operands had.
// CHECK-LABEL: func.func @elementwise_and_checks
//       CHECK:   %[[X:.+]] = arith.extsi %{{.+}} : tensor<3x4xi8> to tensor<3x4xi32>
//       CHECK:   %[[Y:.+]] = math.absi %[[X]] : tensor<3x4xi32>
//       CHECK:   check.expect_eq(%[[Y]], %{{.+}}) : tensor<3x4xi32>
func.func @elementwise_and_checks(%a: tensor<3x4xi8>, %b: tensor<3x4xi32>) {
  %da = tensor.cast %a : tensor<3x4xi8> to tensor<?x4xi8>
  %x = arith.extsi %da : tensor<?x4xi8> to tensor<?x4xi32>
  %y = math.absi %x : tensor<?x4xi32>
  %db = tensor.cast %b : tensor<3x4xi32> to tensor<?x?xi32>
  %dy = tensor.cast %y : tensor<?x4xi32> to tensor<?x?xi32>
  check.expect_eq(%dy, %db) : tensor<?x?xi32>
  return
}

// -----

// Tests that a size only known at run time stays dynamic (the verifier
// reports it) and that a tie without constant sizes is dropped.
// CHECK-LABEL: func.func @unknown_size
//       CHECK:   %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?xf32>
//  CHECK-NEXT:   return %[[E]] : tensor<?xf32>
func.func @unknown_size(%n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %t = flow.tensor.tie_shape %e : tensor<?xf32>{%n}
  return %t : tensor<?xf32>
}

// -----

// Tests that a function with static shapes only is left as it is.
// CHECK-LABEL: func.func @static_untouched
//       CHECK:   %[[A:.+]] = arith.constant 1 : i32
//       CHECK:   %[[B:.+]] = arith.constant 2 : i32
//       CHECK:   arith.addi %[[A]], %[[B]] : i32
func.func @static_untouched() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
