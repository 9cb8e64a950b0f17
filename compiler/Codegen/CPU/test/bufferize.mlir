// RUN: kiln-opt %s --split-input-file --kiln-cpu-bufferize --canonicalize --cse | FileCheck %s

// Tests that a result stored to a binding is computed in place in that
// binding (no copy, no heap allocation), and that the accumulator tile is a
// stack allocation hoisted to the function entry.
// CHECK-LABEL: func.func @in_place
//       CHECK:   %[[ACC:.+]] = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
//       CHECK:   %[[OUT:.+]] = kiln.binding 1 : memref<16x32xf32>
//       CHECK:   scf.for
//       CHECK:     vector.transfer_write %{{.+}}, %[[ACC]]
//       CHECK:     %[[V:.+]] = vector.transfer_read %[[ACC]]
//       CHECK:     vector.transfer_write %[[V]], %[[OUT]]
//   CHECK-NOT:   memref.alloc(
//   CHECK-NOT:   linalg.copy
//   CHECK-NOT:   memref.copy
func.func @in_place() {
  %cst = arith.constant dense<1.0> : vector<8x32xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %0 = kiln.binding 0 : memref<16x32xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<16x32xf32> to tensor<16x32xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %r = scf.for %i = %c0 to %c16 step %c8 iter_args(%acc = %e) -> (tensor<16x32xf32>) {
    %tile = tensor.empty() : tensor<8x32xf32>
    %t = vector.transfer_write %cst, %tile[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, tensor<8x32xf32>
    %v = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<8x32xf32>, vector<8x32xf32>
    %w = vector.transfer_write %v, %acc[%i, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, tensor<16x32xf32>
    scf.yield %w : tensor<16x32xf32>
  }
  %2 = kiln.binding 1 : memref<16x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %2 : (tensor<16x32xf32>, memref<16x32xf32>) -> ()
  return
}

// -----

// Tests that a temporary sized at run time inside a loop takes a buffer at
// the function's start, as large as its size can be there (the least of
// the bounds of a tile's min(tile, n - i): the tile and the extent), checked
// to fit the stack before the loop; the loop views it at each step's size.
// CHECK-LABEL: func.func @dynamic_temporary
//   CHECK-DAG:   %[[N:.+]] = kiln.dispatch.constant 0 : index
//   CHECK-DAG:   %[[TILE:.+]] = kiln.dispatch.constant 1 : index
//   CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
//   CHECK-DAG:   %[[CAP:.+]] = arith.constant 1048577 : index
//       CHECK:   %[[CAPPED:.+]] = arith.minui %[[TILE]], %[[CAP]] : index
//       CHECK:   %[[LEAST:.+]] = arith.minui %[[N]], %[[CAPPED]] : index
//       CHECK:   %[[BYTES:.+]] = arith.muli %[[LEAST]], %[[C4]] : index
//       CHECK:   %[[TOTAL:.+]] = arith.minui %[[BYTES]], %[[CAP]] : index
//       CHECK:   %[[FITS:.+]] = arith.cmpi ule, %[[TOTAL]], %{{.+}} : index
//       CHECK:   cf.assert %[[FITS]], "temporaries sized at run time fit the stack"
//       CHECK:   %[[BUFFER:.+]] = memref.alloca(%[[TOTAL]]) {alignment = 64 : i64} : memref<?xi8>
//       CHECK:   scf.for
//   CHECK-NOT:     memref.alloca
//       CHECK:     %[[SIZE:.+]] = affine.min
//   CHECK-NOT:     memref.alloca
//       CHECK:     memref.view %[[BUFFER]][%{{.+}}][%[[SIZE]]] : memref<?xi8> to memref<?xf32>
//   CHECK-NOT:     memref.alloca
//       CHECK:   return
func.func @dynamic_temporary() {
  %n = kiln.dispatch.constant 0 : index
  %t = kiln.dispatch.constant 1 : index
  %in = kiln.binding 0(%n) : memref<?xf32>
  %out = kiln.binding 1(%n) : memref<?xf32>
  %x = bufferization.to_tensor %in restrict : memref<?xf32> to tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %c0 to %n step %t iter_args(%acc = %e) -> tensor<?xf32> {
    %size = affine.min affine_map<(d0)[s0, s1] -> (s0, s1 - d0)>(%i)[%t, %n]
    %slice = tensor.extract_slice %x[%i] [%size] [1] : tensor<?xf32> to tensor<?xf32>
    %tmp = tensor.empty(%size) : tensor<?xf32>
    %neg = linalg.negf ins(%slice : tensor<?xf32>) outs(%tmp : tensor<?xf32>) -> tensor<?xf32>
    %abs = linalg.abs ins(%neg : tensor<?xf32>) outs(%neg : tensor<?xf32>) -> tensor<?xf32>
    %sum = linalg.add ins(%abs, %neg : tensor<?xf32>, tensor<?xf32>) outs(%slice : tensor<?xf32>) -> tensor<?xf32>
    %u = tensor.insert_slice %sum into %acc[%i] [%size] [1] : tensor<?xf32> into tensor<?xf32>
    scf.yield %u : tensor<?xf32>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

// Tests that an insert into a tensor the kernel reads from its input
// binding copies that input into the output binding and inserts there,
// without a temporary as large as the input.
// CHECK-LABEL: func.func @insert_into_input
//   CHECK-DAG:   %[[IN:.+]] = kiln.binding 1
//   CHECK-DAG:   %[[OUT:.+]] = kiln.binding 2
//   CHECK-NOT:   memref.alloca
//       CHECK:   linalg.copy ins(%[[IN]] : memref<?x8xf32>) outs(%[[OUT]] : memref<?x8xf32>)
//       CHECK:   %[[ROWS:.+]] = memref.subview %[[OUT]][3, 0] [2, 8] [1, 1]
//       CHECK:   linalg.copy ins(%{{.+}} : memref<2x8xf32>) outs(%[[ROWS]]
func.func @insert_into_input() {
  %n = kiln.dispatch.constant 0 : index
  %y = kiln.binding 0 : memref<2x8xf32>
  %in = kiln.binding 1(%n) : memref<?x8xf32>
  %out = kiln.binding 2(%n) : memref<?x8xf32>
  %yt = bufferization.to_tensor %y restrict : memref<2x8xf32> to tensor<2x8xf32>
  %x = bufferization.to_tensor %in restrict : memref<?x8xf32> to tensor<?x8xf32>
  %r = tensor.insert_slice %yt into %x[3, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<?x8xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x8xf32>, memref<?x8xf32>) -> ()
  return
}

// -----

// Tests that a result written into the leading rows of a larger empty tensor
// (an unpack whose tiles overhang its result: 2 tiles of 6 rows for 10 rows)
// is computed in the binding it is stored to, not in a temporary of the
// tiles' size copied there.
// CHECK-LABEL: func.func @slice_of_empty
//       CHECK:   %[[OUT:.+]] = kiln.binding 0 : memref<10x16xf32>
//       CHECK:   vector.transfer_write %{{.+}}, %[[OUT]][%c0, %c0]
//       CHECK:   vector.transfer_write %{{.+}}, %[[OUT]][%c6, %c0]
//   CHECK-NOT:   memref.alloca
//   CHECK-NOT:   linalg.copy
func.func @slice_of_empty() {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %tile = arith.constant dense<1.0> : vector<6x16xf32>
  %rest = arith.constant dense<2.0> : vector<4x16xf32>
  %e = tensor.empty() : tensor<12x16xf32>
  %s = tensor.extract_slice %e[0, 0] [10, 16] [1, 1] : tensor<12x16xf32> to tensor<10x16xf32>
  %w0 = vector.transfer_write %tile, %s[%c0, %c0] {in_bounds = [true, true]} : vector<6x16xf32>, tensor<10x16xf32>
  %w1 = vector.transfer_write %rest, %w0[%c6, %c0] {in_bounds = [true, true]} : vector<4x16xf32>, tensor<10x16xf32>
  %out = kiln.binding 0 : memref<10x16xf32>
  bufferization.materialize_in_destination %w1 in restrict writable %out : (tensor<10x16xf32>, memref<10x16xf32>) -> ()
  return
}
