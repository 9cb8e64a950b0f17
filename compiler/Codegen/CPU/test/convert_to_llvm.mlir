// RUN: kiln-opt %s --kiln-cpu-convert-to-llvm --reconcile-unrealized-casts | FileCheck %s

// Tests that a kernel takes the dispatch and workgroup states of
// executable_library.h, loads its binding pointers from the dispatch state
// and its workgroup id from the workgroup state, and returns 0.
// CHECK-LABEL: llvm.func @kernel
//  CHECK-SAME:     (%[[DS:.+]]: !llvm.ptr, %[[WS:.+]]: !llvm.ptr) -> i32
//       CHECK:   %[[ZERO:.+]] = llvm.mlir.constant(0 : i32) : i32
//       CHECK:   %[[BPTR:.+]] = llvm.getelementptr inbounds %[[DS]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(array<3 x i32>, i32, ptr, ptr, array<4 x i64>)>
//       CHECK:   %[[BINDINGS:.+]] = llvm.load %[[BPTR]]
//       CHECK:   %[[B1:.+]] = llvm.getelementptr inbounds %[[BINDINGS]][1]
//       CHECK:   llvm.load %[[B1]] {{.*}} : !llvm.ptr -> !llvm.ptr
//       CHECK:   %[[ID:.+]] = llvm.getelementptr inbounds %[[WS]][0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(array<3 x i32>, i32, array<2 x i64>)>
//       CHECK:   llvm.load %[[ID]] {{.*}} : !llvm.ptr -> i32
//       CHECK:   llvm.return %[[ZERO]] : i32
func.func @kernel() {
  %0 = kiln.binding 1 : memref<64xf32>
  %x = kiln.workgroup.id 0
  %c = arith.constant 2.0 : f32
  memref.store %c, %0[%x] : memref<64xf32>
  return
}
