// RUN: kiln-opt %s --split-input-file --kiln-convert-host-scalars-to-tensors | FileCheck %s

// Tests that a loop counter and its condition become 0-d tensors (index as
// i64) and that the loop condition is read back from its tensor.
// CHECK-LABEL: func.func @counted
//   CHECK-DAG:   %[[ZERO:.+]] = arith.constant dense<0> : tensor<i64>
//   CHECK-DAG:   %[[ONE:.+]] = arith.constant dense<1> : tensor<i64>
//   CHECK-DAG:   %[[TEN:.+]] = arith.constant dense<10> : tensor<i64>
//       CHECK:   %[[R:.+]]:2 = scf.while (%[[I:.+]] = %[[ZERO]], %[[ACC:.+]] = %{{.+}}) : (tensor<i64>, tensor<4xf32>) -> (tensor<i64>, tensor<4xf32>)
//       CHECK:     %[[LT:.+]] = arith.cmpi slt, %[[I]], %[[TEN]] : tensor<i64>
//       CHECK:     %[[B:.+]] = tensor.extract %[[LT]][] : tensor<i1>
//       CHECK:     scf.condition(%[[B]]) %[[I]], %[[ACC]] : tensor<i64>, tensor<4xf32>
//       CHECK:   ^bb0(%[[J:.+]]: tensor<i64>, %[[A:.+]]: tensor<4xf32>):
//       CHECK:     %[[NEXT:.+]] = arith.addi %[[J]], %[[ONE]] : tensor<i64>
//       CHECK:     scf.yield %[[NEXT]], %{{.+}} : tensor<i64>, tensor<4xf32>
func.func @counted(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r:2 = scf.while (%i = %c0, %acc = %x) : (index, tensor<4xf32>) -> (index, tensor<4xf32>) {
    %lt = arith.cmpi slt, %i, %c10 : index
    scf.condition(%lt) %i, %acc : index, tensor<4xf32>
  } do {
  ^bb0(%j: index, %a: tensor<4xf32>):
    %next = arith.addi %j, %c1 : index
    %e = tensor.empty() : tensor<4xf32>
    %d = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %next, %d : index, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// -----

// Tests that an element read on the host becomes a one-element slice, and
// that an op needing the scalar itself (a fill) reads it back.
// CHECK-LABEL: func.func @element
//       CHECK:   %[[S:.+]] = tensor.extract_slice %arg0[2] [1] [1] : tensor<4xf32> to tensor<1xf32>
//       CHECK:   %[[T:.+]] = tensor.collapse_shape %[[S]] [] : tensor<1xf32> into tensor<f32>
//       CHECK:   %[[V:.+]] = tensor.extract %[[T]][] : tensor<f32>
//       CHECK:   linalg.fill ins(%[[V]] : f32)
func.func @element(%x: tensor<4xf32>) -> tensor<8xf32> {
  %c2 = arith.constant 2 : index
  %v = tensor.extract %x[%c2] : tensor<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// Tests that a scalar check takes the 0-d tensor.
// CHECK-LABEL: func.func @scalar_check
//       CHECK:   %[[E:.+]] = arith.cmpi eq, %{{.+}}, %{{.+}} : tensor<i32>
//       CHECK:   %[[X:.+]] = arith.extui %[[E]] : tensor<i1> to tensor<i32>
//       CHECK:   check.expect_true(%[[X]]) : tensor<i32>
func.func @scalar_check(%x: tensor<i32>) {
  %a = tensor.extract %x[] : tensor<i32>
  %c7 = arith.constant 7 : i32
  %eq = arith.cmpi eq, %a, %c7 : i32
  %w = arith.extui %eq : i1 to i32
  check.expect_true(%w) : i32
  return
}

// -----

// Tests that tensor.from_elements of host scalars joins their 0-d tensors:
// each as a one-element tensor, concatenated, then shaped like the result
// (a constant element gets its 0-d copy).
// CHECK-LABEL: func.func @from_elements
//       CHECK:   %[[C:.+]] = arith.constant dense<3> : tensor<i32>
//       CHECK:   %[[A:.+]] = tensor.collapse_shape
//       CHECK:   %[[B:.+]] = arith.addi %[[A]], %[[A]] : tensor<i32>
//       CHECK:   %[[A1:.+]] = tensor.expand_shape %[[A]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
//       CHECK:   %[[B1:.+]] = tensor.expand_shape %[[B]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
//       CHECK:   %[[C1:.+]] = tensor.expand_shape %[[C]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
//       CHECK:   %[[A2:.+]] = tensor.expand_shape %[[A]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
//       CHECK:   %[[J:.+]] = tensor.concat dim(0) %[[A1]], %[[B1]], %[[C1]], %[[A2]] : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
//       CHECK:   %[[R:.+]] = tensor.expand_shape %[[J]] {{\[}}[0, 1]] output_shape [2, 2] : tensor<4xi32> into tensor<2x2xi32>
//       CHECK:   return %[[R]], %[[B]]
func.func @from_elements(%x: tensor<4xi32>) -> (tensor<2x2xi32>, tensor<i32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : i32
  %a = tensor.extract %x[%c0] : tensor<4xi32>
  %b = arith.addi %a, %a : i32
  %t = tensor.from_elements %a, %b, %c3, %a : tensor<2x2xi32>
  %s = tensor.from_elements %b : tensor<i32>
  return %t, %s : tensor<2x2xi32>, tensor<i32>
}

// -----

// Tests that an index constant behind a barrier (a size the compiler must
// not see) and unsigned index arithmetic on it stay host scalars, sizing a
// tensor as dimensions do.
// CHECK-LABEL: func.func @opaque_size
//       CHECK:   %[[C:.+]] = arith.constant 6 : index
//       CHECK:   %[[N:.+]] = util.optimization_barrier %[[C]] : index
//       CHECK:   %[[H:.+]] = arith.ceildivui %[[N]], %{{.+}} : index
//       CHECK:   tensor.empty(%[[H]]) : tensor<?xf32>
//   CHECK-NOT:   tensor.from_elements
func.func @opaque_size() -> tensor<?xf32> {
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %n = util.optimization_barrier %c6 : index
  %h = arith.ceildivui %n, %c4 : index
  %e = tensor.empty(%h) : tensor<?xf32>
  return %e : tensor<?xf32>
}

// -----

// Tests that a size read from an integer tensor's contents (an element at
// a constant position made an index) stays a host scalar, as does index
// arithmetic on it, while an element read for anything else becomes a
// slice.
// CHECK-LABEL: func.func @size_from_contents
//       CHECK:   %[[E:.+]] = tensor.extract %arg0[%{{.+}}] : tensor<2xi64>
//       CHECK:   %[[N:.+]] = arith.index_cast %[[E]] : i64 to index
//       CHECK:   %[[M:.+]] = arith.muli %[[N]], %{{.+}} : index
//       CHECK:   tensor.empty(%[[M]]) : tensor<?xf32>
//       CHECK:   tensor.extract_slice %arg0[0] [1] [1]
func.func @size_from_contents(%s: tensor<2xi64>) -> (tensor<?xf32>, tensor<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %s[%c1] : tensor<2xi64>
  %n = arith.index_cast %e : i64 to index
  %m = arith.muli %n, %c2 : index
  %empty = tensor.empty(%m) : tensor<?xf32>
  %v = tensor.extract %s[%c0] : tensor<2xi64>
  %t = tensor.from_elements %v : tensor<i64>
  return %empty, %t : tensor<?xf32>, tensor<i64>
}

// -----

// Tests that a size a tensor op takes becomes a 0-d tensor a kernel writes
// (the size passed into it), not elements the host would write.
// CHECK-LABEL: func.func @size_as_tensor
//       CHECK:   %[[D:.+]] = tensor.dim %arg0, %c0 : tensor<?xf32>
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<i64>
//       CHECK:   %[[T:.+]] = linalg.generic {{.+}} outs(%[[E]] : tensor<i64>)
//       CHECK:     %[[I:.+]] = arith.index_cast %[[D]] : index to i64
//       CHECK:     linalg.yield %[[I]] : i64
//       CHECK:   tensor.expand_shape %[[T]] [] output_shape [1] : tensor<i64> into tensor<1xi64>
func.func @size_as_tensor(%x: tensor<?xf32>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %i = arith.index_cast %d : index to i64
  %t = tensor.from_elements %i : tensor<1xi64>
  return %t : tensor<1xi64>
}
