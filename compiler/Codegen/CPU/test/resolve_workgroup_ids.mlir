// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(kiln-cpu-resolve-workgroup-ids), kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-resolve-workgroup-ids)))))" | FileCheck %s

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

// -----

// Tests that a workgroup loop up to a binding's dynamic size resolves like
// a static one: its grid is the export's workgroup tiles.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   %[[X:.+]] = kiln.workgroup.id 0
//       CHECK:   arith.muli %[[X]], %{{.+}}
//   CHECK-NOT:   scf.forall
kiln.executable @dynamic {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @dynamic ordinal(0) bindings(1) workgroups([1, 1, 1]) {workgroup_tiles = array<i64: 0, 0, 64>}
    builtin.module {
      func.func @dynamic() {
        %cst = arith.constant 1.0 : f32
        %c0 = arith.constant 0 : index
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n) : memref<?xf32>
        %d = memref.dim %0, %c0 : memref<?xf32>
        scf.forall (%i) = (0) to (%d) step (64) {
          memref.store %cst, %0[%i] : memref<?xf32>
        }
        return
      }
    }
  }
}

// -----

// Tests that a kernel whose grid is not the export's declared one is
// refused, naming both.
kiln.executable @mismatch {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    // expected-error@+1 {{declares workgroup count [1, 1, 1] x ceil(constant 0 / 32) along 0 but its kernel is built for [1, 1, 1] x ceil(constant 0 / 64) along 0}}
    kiln.executable.export @mismatch ordinal(0) bindings(1) workgroups([1, 1, 1]) {workgroup_tiles = array<i64: 0, 0, 32>}
    builtin.module {
      func.func @mismatch() {
        %cst = arith.constant 1.0 : f32
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n) : memref<?xf32>
        // expected-note@+1 {{workgroup loop here}}
        scf.forall (%i) = (0) to (%n) step (64) {
          memref.store %cst, %0[%i] : memref<?xf32>
        }
        return
      }
    }
  }
}
