// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-check-slice-bounds,canonicalize,cse))" | FileCheck %s

// Tests that a slice at an offset computed from a dynamic size is checked
// against its tensor before it is taken: its first element at or after 0
// and before the dim, and the elements after it fitting in what is left,
// counted by a division that cannot overflow.
// CHECK-LABEL: func.func @computed_offset
//  CHECK-SAME:     %[[X:.+]]: tensor<?x8xf32>, %[[H:.+]]: index
//   CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
//   CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
//   CHECK-DAG:   %[[DIM:.+]] = tensor.dim %[[X]], %[[C0]]
//   CHECK-DAG:   %[[LAST:.+]] = arith.subi %[[DIM]], %[[C1]] : index
//   CHECK-DAG:   %[[ROOM:.+]] = arith.subi %[[LAST]], %[[H]] : index
//   CHECK-DAG:   %[[FITS:.+]] = arith.cmpi uge, %[[ROOM]], %[[C1]] : index
//   CHECK-DAG:   %[[BELOW:.+]] = arith.cmpi slt, %[[H]], %[[DIM]] : index
//   CHECK-DAG:   %[[FIRST:.+]] = arith.cmpi sge, %[[H]], %[[C0]] : index
//       CHECK:   %[[START:.+]] = arith.andi %[[FIRST]], %[[BELOW]]
//       CHECK:   %[[INSIDE:.+]] = arith.andi %[[START]], %[[FITS]]
//       CHECK:   cf.assert %[[INSIDE]], "tensor.extract_slice inside its tensor"
//       CHECK:   tensor.extract_slice %[[X]][%[[H]], 0] [2, 8] [1, 1]
func.func @computed_offset(%x: tensor<?x8xf32>, %h: index) -> tensor<2x8xf32> {
  %s = tensor.extract_slice %x[%h, 0] [2, 8] [1, 1] : tensor<?x8xf32> to tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// -----

// Tests that an insert is checked against its destination, with its strides
// and a dynamic size that may be empty, and its source against the slice's
// sizes.
// CHECK-LABEL: func.func @strided_insert
//  CHECK-SAME:     %[[Y:.+]]: tensor<?xf32>, %[[X:.+]]: tensor<?xf32>, %[[O:.+]]: index, %[[N:.+]]: index
//   CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
//   CHECK-DAG:   %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?xf32>
//   CHECK-DAG:   %[[STEPS:.+]] = arith.divui %{{.+}}, %[[C3]] : index
//   CHECK-DAG:   %[[AFTER:.+]] = arith.subi %[[N]], %{{.+}} : index
//   CHECK-DAG:   arith.cmpi ule, %[[AFTER]], %[[STEPS]] : index
//   CHECK-DAG:   arith.cmpi slt, %[[O]], %[[DIM]] : index
//   CHECK-DAG:   arith.cmpi sgt, %[[N]], %{{.+}} : index
//   CHECK-DAG:   %[[EMPTY:.+]] = arith.cmpi eq, %[[N]], %{{.+}} : index
//       CHECK:   %[[INSIDE:.+]] = arith.ori %[[EMPTY]], %{{.+}} : i1
//       CHECK:   %[[SOURCE:.+]] = tensor.dim %[[Y]], %{{.+}} : tensor<?xf32>
//       CHECK:   %[[FILLS:.+]] = arith.cmpi eq, %[[SOURCE]], %[[N]] : index
//       CHECK:   %[[BOTH:.+]] = arith.andi %[[INSIDE]], %[[FILLS]] : i1
//       CHECK:   cf.assert %[[BOTH]], "tensor.insert_slice inside its tensor, its source the slice's sizes"
//       CHECK:   tensor.insert_slice %[[Y]] into %[[X]][%[[O]]] [%[[N]]] [3]
func.func @strided_insert(%y: tensor<?xf32>, %x: tensor<?xf32>, %o: index, %n: index) -> tensor<?xf32> {
  %r = tensor.insert_slice %y into %x[%o] [%n] [3] : tensor<?xf32> into tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Tests that a dynamic stride is checked to be at least 1.
// CHECK-LABEL: func.func @dynamic_stride
//  CHECK-SAME:     %[[X:.+]]: tensor<?xf32>, %[[T:.+]]: index
//       CHECK:   arith.cmpi sge, %[[T]], %{{.+}} : index
//       CHECK:   cf.assert
func.func @dynamic_stride(%x: tensor<?xf32>, %t: index) -> tensor<3xf32> {
  %s = tensor.extract_slice %x[0] [3] [%t] : tensor<?xf32> to tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// Tests that a result stored into a binding is checked to have the
// binding's sizes where they are not the same values, and not checked
// where they are.
// CHECK-LABEL: func.func @stored
//   CHECK-DAG:   %[[N:.+]] = kiln.dispatch.constant 0 : index
//   CHECK-DAG:   %[[M:.+]] = kiln.dispatch.constant 1 : index
//       CHECK:   %[[SAME:.+]] = arith.cmpi eq, %[[N]], %[[M]] : index
//       CHECK:   cf.assert %[[SAME]], "result of its binding's sizes"
//       CHECK:   bufferization.materialize_in_destination
//   CHECK-NOT:   cf.assert
//       CHECK:   bufferization.materialize_in_destination
func.func @stored() {
  %n = kiln.dispatch.constant 0 : index
  %m = kiln.dispatch.constant 1 : index
  %in = kiln.binding 0(%n) : memref<?xf32>
  %x = bufferization.to_tensor %in restrict : memref<?xf32> to tensor<?xf32>
  %out = kiln.binding 1(%m) : memref<?xf32>
  bufferization.materialize_in_destination %x in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  %e = tensor.empty(%m) : tensor<?xf32>
  %out2 = kiln.binding 2(%m) : memref<?xf32>
  bufferization.materialize_in_destination %e in restrict writable %out2 : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

// Tests that slices proven inside (static, or the whole of a dynamic dim
// from 0) are not checked.
// CHECK-LABEL: func.func @proven_inside
//   CHECK-NOT:   cf.assert
//       CHECK:   return
func.func @proven_inside(%x: tensor<?x8xf32>, %t: tensor<16xf32>) -> (tensor<?x4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %a = tensor.extract_slice %x[0, 4] [%n, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  %b = tensor.extract_slice %t[12] [4] [1] : tensor<16xf32> to tensor<4xf32>
  return %a, %b : tensor<?x4xf32>, tensor<4xf32>
}

// -----

// Tests that a slice inside a region (a tile the compiler made) is not
// checked: the check stands in the function's body only.
// CHECK-LABEL: func.func @in_loop
//   CHECK-NOT:   cf.assert
//       CHECK:   return
func.func @in_loop(%x: tensor<?xf32>, %h: index) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> tensor<?xf32> {
    %s = tensor.extract_slice %acc[%h] [2] [1] : tensor<?xf32> to tensor<2xf32>
    %u = tensor.insert_slice %s into %acc[%i] [2] [1] : tensor<2xf32> into tensor<?xf32>
    scf.yield %u : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
