// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-stream-result-stores{min-result-bytes=4096})))))" | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-stream-result-stores)))))" | FileCheck %s --check-prefix=CACHED

// Tests that the stores of a result no smaller than min-result-bytes become
// non-temporal, 64-byte aligned: the workgroup's offset is a multiple of
// 1024 elements and the loop's of 16. The inputs' loads stay as they are,
// and the kernel fences its stores before it returns. Without the option
// the result (16 KiB) fits the last-level cache: nothing streams.
// CHECK-LABEL: func.func @elementwise
//       CHECK:   vector.load %{{.+}} : memref<4096xf32>, vector<16xf32>
//       CHECK:   vector.store %{{.+}} {alignment = 64 : i64, nontemporal = true}
//       CHECK:   llvm.call_intrinsic "llvm.x86.sse.sfence"()
//  CHECK-NEXT:   return
// CACHED-LABEL: func.func @elementwise
//   CACHED-NOT:   nontemporal
//   CACHED-NOT:   sfence
kiln.executable @elementwise {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @elementwise ordinal(0) bindings(2) workgroups([4, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @elementwise() {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %c1024 = arith.constant 1024 : index
        %0 = kiln.binding 0 : memref<4096xf32>
        %1 = kiln.binding 1 : memref<4096xf32>
        %id = kiln.workgroup.id 0
        %offset = arith.muli %id, %c1024 : index
        %s = memref.subview %1[%offset] [1024] [1] : memref<4096xf32> to memref<1024xf32, strided<[1], offset: ?>>
        scf.for %i = %c0 to %c1024 step %c16 {
          %j = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%i, %offset]
          %v = vector.load %0[%j] : memref<4096xf32>, vector<16xf32>
          %e = math.exp %v : vector<16xf32>
          vector.store %e, %s[%i] : memref<1024xf32, strided<[1], offset: ?>>, vector<16xf32>
        }
        return
      }
    }
  }
}

// -----

// Tests that rows of 1000 elements, stored 8 at a time, are 32-byte aligned
// (1000 = 8 * 125): for AVX2 registers (x86-64-v3) each store streams; for
// AVX-512 ones the 64-byte rows of 16 would need 64 bytes, which rows of
// 1000 do not give, and stay as they are.
// CHECK-LABEL: func.func @rows_avx2
//       CHECK:   vector.store %{{.+}} {alignment = 32 : i64, nontemporal = true} : memref<8x1000xf32>, vector<8xf32>
// CHECK-LABEL: func.func @rows_avx512
//   CHECK-NOT:   nontemporal
//   CHECK-NOT:   sfence
//       CHECK:   return
kiln.executable @rows {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @rows_avx2 ordinal(0) bindings(1) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @rows_avx2() {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c8 = arith.constant 8 : index
        %c1000 = arith.constant 1000 : index
        %v = arith.constant dense<1.0> : vector<8xf32>
        %0 = kiln.binding 0 : memref<8x1000xf32>
        scf.for %r = %c0 to %c8 step %c1 {
          scf.for %i = %c0 to %c1000 step %c8 {
            vector.store %v, %0[%r, %i] : memref<8x1000xf32>, vector<8xf32>
          }
        }
        return
      }
    }
  }
  kiln.executable.variant @avx512 target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @rows_avx512 ordinal(0) bindings(1) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @rows_avx512() {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c8 = arith.constant 8 : index
        %c16 = arith.constant 16 : index
        %c992 = arith.constant 992 : index
        %v = arith.constant dense<1.0> : vector<16xf32>
        %0 = kiln.binding 0 : memref<8x1000xf32>
        scf.for %r = %c0 to %c8 step %c1 {
          scf.for %i = %c0 to %c992 step %c16 {
            vector.store %v, %0[%r, %i] : memref<8x1000xf32>, vector<16xf32>
          }
        }
        return
      }
    }
  }
}

// -----

// Tests that a result the kernel reads back (an accumulator in memory) and
// a store at an offset of unknown divisibility (a dispatch constant) keep
// their stores as they are.
// CHECK-LABEL: func.func @read_back
//   CHECK-NOT:   nontemporal
//       CHECK:   return
// CHECK-LABEL: func.func @unknown_offset
//   CHECK-NOT:   nontemporal
//       CHECK:   return
kiln.executable @kept {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @read_back ordinal(0) bindings(1) workgroups([1, 1, 1]) {outputs = 1 : index}
    kiln.executable.export @unknown_offset ordinal(1) bindings(1) workgroups([1, 1, 1]) {outputs = 1 : index, index_constants = 1 : index}
    builtin.module {
      func.func @read_back() {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %c4096 = arith.constant 4096 : index
        %0 = kiln.binding 0 : memref<4096xf32>
        scf.for %i = %c0 to %c4096 step %c16 {
          %v = vector.load %0[%i] : memref<4096xf32>, vector<16xf32>
          %w = arith.addf %v, %v : vector<16xf32>
          vector.store %w, %0[%i] : memref<4096xf32>, vector<16xf32>
        }
        return
      }
      func.func @unknown_offset() {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %c2048 = arith.constant 2048 : index
        %v = arith.constant dense<1.0> : vector<16xf32>
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0 : memref<4096xf32>
        scf.for %i = %c0 to %c2048 step %c16 {
          %j = arith.addi %i, %n : index
          vector.store %v, %0[%j] : memref<4096xf32>, vector<16xf32>
        }
        return
      }
    }
  }
}

// -----

// Tests that inputs (the first bindings) never stream, even when only
// written to: the runtime does not align a caller's input.
// CHECK-LABEL: func.func @input
//   CHECK-NOT:   nontemporal
//       CHECK:   return
kiln.executable @input {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @input ordinal(0) bindings(2) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @input() {
        %c0 = arith.constant 0 : index
        %c16 = arith.constant 16 : index
        %c4096 = arith.constant 4096 : index
        %v = arith.constant dense<1.0> : vector<16xf32>
        %0 = kiln.binding 0 : memref<4096xf32>
        %1 = kiln.binding 1 : memref<16xf32>
        scf.for %i = %c0 to %c4096 step %c16 {
          vector.store %v, %0[%i] : memref<4096xf32>, vector<16xf32>
        }
        vector.store %v, %1[%c0] : memref<16xf32>, vector<16xf32>
        return
      }
    }
  }
}
