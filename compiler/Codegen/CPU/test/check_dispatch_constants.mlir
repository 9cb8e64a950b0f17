// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-check-dispatch-constants)))))" | FileCheck %s

// Tests that a kernel checks the extents its export declares equal itself,
// at its entry, whatever the module around it says later.
// CHECK-LABEL: func.func @equal
//       CHECK:   %[[A:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:   %[[B:.+]] = kiln.dispatch.constant 2 : index
//       CHECK:   %[[EQ:.+]] = arith.cmpi eq, %[[A]], %[[B]] : index
//       CHECK:   cf.assert %[[EQ]], "dispatch constants as the kernel was built for"
//       CHECK:   kiln.binding 0
kiln.executable @equal {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @equal ordinal(0) bindings(2) {equal_constants = array<i64: 0, 2>}
    builtin.module {
      func.func @equal() {
        %n = kiln.dispatch.constant 0 : index
        %m = kiln.dispatch.constant 1 : index
        %0 = kiln.binding 0(%n) : memref<?xf32>
        %1 = kiln.binding 1(%m) : memref<?xf32>
        return
      }
    }
  }
}

// -----

// Tests that covering tiles are checked as extent <= tiles * tile, with a
// tile count of at least 0.
// CHECK-LABEL: func.func @covering
//       CHECK:   %[[TILES:.+]] = kiln.dispatch.constant 1 : index
//       CHECK:   %[[EXTENT:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:   %[[C16:.+]] = arith.constant 16 : index
//       CHECK:   %[[COVERED:.+]] = arith.muli %[[TILES]], %[[C16]] : index
//       CHECK:   %[[COUNTED:.+]] = arith.cmpi sge, %[[TILES]]
//       CHECK:   %[[FITS:.+]] = arith.cmpi sle, %[[EXTENT]], %[[COVERED]] : index
//       CHECK:   %[[BOTH:.+]] = arith.andi %[[COUNTED]], %[[FITS]] : i1
//       CHECK:   cf.assert %[[BOTH]]
kiln.executable @covering {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @covering ordinal(0) bindings(2) {covering_tiles = array<i64: 1, 0, 16>}
    builtin.module {
      func.func @covering() {
        return
      }
    }
  }
}

// -----

// Tests that the launched grid is checked against the one the workgroup
// tiles give for this dispatch's extents (at least 1).
// CHECK-LABEL: func.func @grid
//       CHECK:   %[[N:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:   %[[EXTENT:.+]] = arith.maxsi %[[N]], %{{.+}} : index
//       CHECK:   %[[C64:.+]] = arith.constant 64 : index
//       CHECK:   %[[TILES:.+]] = arith.ceildivsi %[[EXTENT]], %[[C64]] : index
//       CHECK:   %[[GRID:.+]] = arith.muli %[[TILES]], %{{.+}} : index
//       CHECK:   %[[MOST:.+]] = arith.maxsi %[[GRID]], %{{.+}} : index
//       CHECK:   %[[LAUNCHED:.+]] = kiln.workgroup.count 0
//       CHECK:   %[[OK:.+]] = arith.cmpi ule, %[[LAUNCHED]], %[[MOST]] : index
//       CHECK:   cf.assert %[[OK]]
kiln.executable @grid {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @grid ordinal(0) bindings(1) workgroups([1, 1, 1]) {workgroup_tiles = array<i64: 0, 0, 64>}
    builtin.module {
      func.func @grid() {
        return
      }
    }
  }
}

// -----

// Tests that a kernel whose export declares nothing of its constants gets
// no check.
// CHECK-LABEL: func.func @static
//   CHECK-NOT:   cf.assert
kiln.executable @static {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @static ordinal(0) bindings(1) workgroups([4, 1, 1])
    builtin.module {
      func.func @static() {
        return
      }
    }
  }
}
