// RUN: kiln-opt %s --pass-pipeline="builtin.module(func.func(kiln-cpu-resolve-workgroup-ids))" | FileCheck %s

// Tests that the workgroup loop becomes one workgroup's iteration: the
// innermost induction variable is workgroup x, the outer one y.
// CHECK-LABEL: func.func @grid
//       CHECK:   %[[Y:.+]] = kiln.workgroup.id 1
//       CHECK:   %[[C32:.+]] = arith.constant 32 : index
//       CHECK:   %[[YS:.+]] = arith.muli %[[Y]], %[[C32]]
//       CHECK:   %[[I:.+]] = arith.addi %{{.+}}, %[[YS]]
//       CHECK:   %[[X:.+]] = kiln.workgroup.id 0
//       CHECK:   %[[C64:.+]] = arith.constant 64 : index
//       CHECK:   %[[XS:.+]] = arith.muli %[[X]], %[[C64]]
//       CHECK:   %[[J:.+]] = arith.addi %{{.+}}, %[[XS]]
//       CHECK:   memref.subview %{{.+}}[%[[I]], %[[J]]] [32, 64]
//   CHECK-NOT:   scf.forall
func.func @grid() {
  %cst = arith.constant 1.0 : f32
  %0 = kiln.binding 0 : memref<128x128xf32>
  scf.forall (%i, %j) = (0, 0) to (128, 128) step (32, 64) {
    %s = memref.subview %0[%i, %j] [32, 64] [1, 1] : memref<128x128xf32> to memref<32x64xf32, strided<[128, 1], offset: ?>>
    linalg.fill ins(%cst : f32) outs(%s : memref<32x64xf32, strided<[128, 1], offset: ?>>)
  }
  return
}
