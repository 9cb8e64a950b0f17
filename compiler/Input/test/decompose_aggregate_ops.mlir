// RUN: kiln-opt %s --split-input-file --kiln-decompose-aggregate-ops | FileCheck %s

// Tests that tensor.pad becomes empty + fill + insert_slice.
// CHECK-LABEL: func.func @pad
//  CHECK-SAME:   (%[[A:.+]]: tensor<4xf32>)
//   CHECK-DAG:   %[[Z:.+]] = arith.constant 0.0
//   CHECK-DAG:   %[[E:.+]] = tensor.empty() : tensor<7xf32>
//       CHECK:   %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]]
//       CHECK:   %[[R:.+]] = tensor.insert_slice %[[A]] into %[[F]][1] [4] [1]
//       CHECK:   return %[[R]]
func.func @pad(%a: tensor<4xf32>) -> tensor<7xf32> {
  %z = arith.constant 0.0 : f32
  %0 = tensor.pad %a low[1] high[2] {
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<4xf32> to tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// Tests that tensor.concat becomes a chain of insert_slice.
// CHECK-LABEL: func.func @concat
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<2x5xf32>
//       CHECK:   %[[I0:.+]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 2] [1, 1]
//       CHECK:   %[[I1:.+]] = tensor.insert_slice %arg1 into %[[I0]][0, 2] [2, 3] [1, 1]
//       CHECK:   return %[[I1]]
func.func @concat(%a: tensor<2x2xf32>, %b: tensor<2x3xf32>) -> tensor<2x5xf32> {
  %0 = tensor.concat dim(1) %a, %b : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Tests that softmax becomes max and sum reductions around an exp.
// CHECK-LABEL: func.func @softmax
//   CHECK-NOT:   linalg.softmax
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.maxnumf
//       CHECK:   math.exp
//       CHECK:   linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.addf
//       CHECK:   arith.divf
func.func @softmax(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Tests that linalg.pack becomes a pad to whole tiles, an expand_shape and a
// transpose, and linalg.unpack a transpose, a collapse_shape and a slice.
// CHECK-LABEL: func.func @pack_unpack
//       CHECK:   %[[F:.+]] = linalg.fill
//       CHECK:   %[[P:.+]] = tensor.insert_slice %{{.+}} into %[[F]][0, 0] [5, 6] [1, 1] : tensor<5x6xf32> into tensor<6x6xf32>
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2, 3]] output_shape [3, 2, 2, 3] : tensor<6x6xf32> into tensor<3x2x2x3xf32>
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<3x2x2x3xf32>) outs(%{{.+}} : tensor<3x2x2x3xf32>) permutation = [0, 2, 1, 3]
//       CHECK:   %[[U:.+]] = linalg.transpose ins(%[[T]] : tensor<3x2x2x3xf32>) outs(%{{.+}} : tensor<3x2x2x3xf32>) permutation = [0, 2, 1, 3]
//       CHECK:   %[[C:.+]] = tensor.collapse_shape %[[U]] {{\[}}[0, 1], [2, 3]] : tensor<3x2x2x3xf32> into tensor<6x6xf32>
//       CHECK:   tensor.extract_slice %[[C]][0, 0] [5, 6] [1, 1] : tensor<6x6xf32> to tensor<5x6xf32>
//   CHECK-NOT:   linalg.pack
//   CHECK-NOT:   linalg.unpack
func.func @pack_unpack(%x: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %packed_init = tensor.empty() : tensor<3x2x2x3xf32>
  %p = linalg.pack %x padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %packed_init : tensor<5x6xf32> -> tensor<3x2x2x3xf32>
  %init = tensor.empty() : tensor<5x6xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %init : tensor<3x2x2x3xf32> -> tensor<5x6xf32>
  return %u : tensor<5x6xf32>
}

// -----

// Tests that tensor.insert becomes an insert_slice of a one-element tensor
// at its indices (a constant's folds into a dense constant).
// CHECK-LABEL: func.func @insert
//       CHECK:   %[[ONE:.+]] = tensor.from_elements %{{.+}} : tensor<1x1xf32>
//       CHECK:   tensor.insert_slice %[[ONE]] into %{{.+}}[1, 2] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<2x3xf32>
//   CHECK-NOT:   tensor.insert %
func.func @insert(%t: tensor<2x3xf32>, %s: f32) -> tensor<2x3xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = tensor.insert %s into %t[%c1, %c2] : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Tests that a computed position is clamped into the tensor, each computed
// index to [0, dim - 1], while a constant index stays as it is.
// CHECK-LABEL: func.func @insert_computed
//  CHECK-SAME:     %[[T:[^:]+]]: tensor<2x3xf32>, %[[S:[^:]+]]: f32, %[[I:[^:]+]]: index
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
//       CHECK:   %[[ONE:.+]] = tensor.from_elements %[[S]] : tensor<1x1xf32>
//       CHECK:   %[[LOW:.+]] = arith.maxsi %[[I]], %[[C0]] : index
//       CHECK:   %[[CLAMPED:.+]] = arith.minsi %[[LOW]], %[[C2]] : index
//       CHECK:   tensor.insert_slice %[[ONE]] into %[[T]][1, %[[CLAMPED]]] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<2x3xf32>
func.func @insert_computed(%t: tensor<2x3xf32>, %s: f32, %i: index) -> tensor<2x3xf32> {
  %c1 = arith.constant 1 : index
  %r = tensor.insert %s into %t[%c1, %i] : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Tests that a host scalar, by now the read of a 0-d tensor, is inserted as
// that tensor reshaped: no scalar is left for the host to hold.
// CHECK-LABEL: func.func @insert_host_scalar
//  CHECK-SAME:     %[[T:[^:]+]]: tensor<2x3xf32>, %[[S:[^:]+]]: tensor<f32>
//       CHECK:   %[[ONE:.+]] = tensor.expand_shape %[[S]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
//       CHECK:   tensor.insert_slice %[[ONE]] into %[[T]][0, 1] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<2x3xf32>
//   CHECK-NOT:   tensor.from_elements
func.func @insert_host_scalar(%t: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = tensor.extract %s[] : tensor<f32>
  %r = tensor.insert %v into %t[%c0, %c1] : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
