// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-vectorize-copies))" | FileCheck %s

// Tests that a copy of rows of 64 f32 (256 bytes), some of them known only
// at run time, moves each row as one vector, in loops over the outer dims.
// CHECK-LABEL: func.func @rows
//  CHECK-SAME:   (%[[A:.+]]: memref<?x56x64xf32, strided<[3584, 64, 1]>>, %[[B:.+]]: memref<?x56x64xf32, strided<[3712, 64, 1], offset: ?>>)
//       CHECK:   %[[N:.+]] = memref.dim %[[A]], %c0
//       CHECK:   scf.for %[[I:.+]] = %c0 to %[[N]] step %c1
//       CHECK:     scf.for %[[J:.+]] = %c0 to %c56 step %c1
//       CHECK:       %[[R:.+]] = vector.load %[[A]][%[[I]], %[[J]], %c0] : memref<?x56x64xf32, strided<[3584, 64, 1]>>, vector<64xf32>
//       CHECK:       vector.store %[[R]], %[[B]][%[[I]], %[[J]], %c0] : memref<?x56x64xf32, strided<[3712, 64, 1], offset: ?>>, vector<64xf32>
//   CHECK-NOT:   linalg.copy
func.func @rows(%a: memref<?x56x64xf32, strided<[3584, 64, 1]>>, %b: memref<?x56x64xf32, strided<[3712, 64, 1], offset: ?>>) {
  linalg.copy ins(%a : memref<?x56x64xf32, strided<[3584, 64, 1]>>) outs(%b : memref<?x56x64xf32, strided<[3712, 64, 1], offset: ?>>)
  return
}

// -----

// Tests that rows of 150 f32 move in a loop of 64-element chunks (two of
// them) and a last chunk of the 22 left.
// CHECK-LABEL: func.func @long_rows
//       CHECK:   scf.for %[[I:.+]] = %c0 to %c3 step %c1
//       CHECK:     scf.for %[[K:.+]] = %c0 to %c128 step %c64
//       CHECK:       vector.load %{{.+}}[%[[I]], %[[K]]] : memref<3x150xf32>, vector<64xf32>
//       CHECK:       vector.store
//       CHECK:     vector.load %{{.+}}[%[[I]], %c128] : memref<3x150xf32>, vector<22xf32>
//       CHECK:     vector.store
func.func @long_rows(%a: memref<3x150xf32>, %b: memref<3x150xf32>) {
  linalg.copy ins(%a : memref<3x150xf32>) outs(%b : memref<3x150xf32>)
  return
}

// -----

// Tests that copies whose rows are not contiguous (a column) or whose size
// is known only at run time stay copies.
// CHECK-LABEL: func.func @kept
//       CHECK:   linalg.copy
//       CHECK:   linalg.copy
//   CHECK-NOT:   vector.load
func.func @kept(%a: memref<8x1xf32, strided<[16, 2]>>, %b: memref<8x1xf32>, %c: memref<4x?xf32>, %d: memref<4x?xf32>) {
  linalg.copy ins(%a : memref<8x1xf32, strided<[16, 2]>>) outs(%b : memref<8x1xf32>)
  linalg.copy ins(%c : memref<4x?xf32>) outs(%d : memref<4x?xf32>)
  return
}
