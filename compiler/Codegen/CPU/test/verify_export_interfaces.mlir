// RUN: kiln-opt %s --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-verify-export-interfaces)))" --split-input-file --verify-diagnostics | FileCheck %s

// Tests that the outputs are derived from the bindings the kernel writes.

// CHECK-LABEL: kiln.executable @add
//       CHECK:   kiln.executable.export @add ordinal(0) bindings(3) {binding_types = [tensor<4xf32>, tensor<4xf32>, tensor<4xf32>], outputs = 1 : index}
kiln.executable @add {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @add ordinal(0) bindings(3) {binding_types = [tensor<4xf32>, tensor<4xf32>, tensor<4xf32>]}
    builtin.module {
      func.func @add() {
        %0 = kiln.binding 0 : memref<4xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
        %2 = kiln.binding 1 : memref<4xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<4xf32> to tensor<4xf32>
        %4 = arith.addf %1, %3 : tensor<4xf32>
        %5 = kiln.binding 2 : memref<4xf32>
        bufferization.materialize_in_destination %4 in restrict writable %5 : (tensor<4xf32>, memref<4xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that i1 bindings are held as bytes, and that a declared output
// count that matches the kernel is kept.

// CHECK-LABEL: kiln.executable @not
//       CHECK:   outputs = 1 : index
kiln.executable @not {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @not ordinal(0) bindings(2) {binding_types = [tensor<4xi1>, tensor<4xi1>], outputs = 1 : index}
    builtin.module {
      func.func @not() {
        %0 = kiln.binding 0 : memref<4xi8>
        %1 = bufferization.to_tensor %0 restrict : memref<4xi8> to tensor<4xi8>
        %2 = kiln.binding 1 : memref<4xi8>
        bufferization.materialize_in_destination %1 in restrict writable %2 : (tensor<4xi8>, memref<4xi8>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a kernel writing an input is refused: the runtime would bind
// module memory or the caller's tensor there.

kiln.executable @writes_input {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    // expected-error@+1 {{declares 1 outputs but its kernel writes the last 2 bindings}}
    kiln.executable.export @writes_input ordinal(0) bindings(2) {binding_types = [tensor<4xf32>, tensor<4xf32>], outputs = 1 : index}
    builtin.module {
      func.func @writes_input() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<4xf32>
        %c0 = arith.constant 0 : index
        memref.store %cst, %0[%c0] : memref<4xf32>
        %1 = kiln.binding 1 : memref<4xf32>
        memref.store %cst, %1[%c0] : memref<4xf32>
        return
      }
    }
  }
}

// -----

// Tests that a binding type the kernel does not have is refused.

kiln.executable @bad_type {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @bad_type ordinal(0) bindings(1) {binding_types = [tensor<8xf32>]}
    builtin.module {
      func.func @bad_type() {
        %cst = arith.constant 0.0 : f32
        // expected-error@+1 {{binding 0 is 'memref<4xf32>' but export bad_type declares tensor<8xf32>}}
        %0 = kiln.binding 0 : memref<4xf32>
        %c0 = arith.constant 0 : index
        memref.store %cst, %0[%c0] : memref<4xf32>
        return
      }
    }
  }
}

// -----

// Tests that a binding index past the binding count is refused.

kiln.executable @bad_index {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @bad_index ordinal(0) bindings(1) {binding_types = [tensor<4xf32>]}
    builtin.module {
      func.func @bad_index() {
        %cst = arith.constant 0.0 : f32
        // expected-error@+1 {{binds index 1 but export bad_index has 1 bindings}}
        %0 = kiln.binding 1 : memref<4xf32>
        %c0 = arith.constant 0 : index
        memref.store %cst, %0[%c0] : memref<4xf32>
        return
      }
    }
  }
}

// -----

// Tests that the dispatch constants a kernel takes to be equal are derived:
// the extents one loop runs over (the two inputs', 0 and 1) and a stored
// value's and its binding's (the empty tensor sized by 0, and 2).
// CHECK-LABEL: kiln.executable @dynamic
//       CHECK:   kiln.executable.export @dynamic {{.*}}equal_constants = array<i64: 0, 1, 0, 2>
kiln.executable @dynamic {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @dynamic ordinal(0) bindings(3) {binding_types = [tensor<?xf32>, tensor<?xf32>, tensor<?xf32>]}
    builtin.module {
      func.func @dynamic() {
        %n0 = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n0) : memref<?xf32>
        %a = bufferization.to_tensor %0 restrict : memref<?xf32> to tensor<?xf32>
        %n1 = kiln.dispatch.constant 1 : index
        %1 = kiln.binding 1(%n1) : memref<?xf32>
        %b = bufferization.to_tensor %1 restrict : memref<?xf32> to tensor<?xf32>
        %e = tensor.empty(%n0) : tensor<?xf32>
        %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
        %n2 = kiln.dispatch.constant 2 : index
        %2 = kiln.binding 2(%n2) : memref<?xf32>
        bufferization.materialize_in_destination %r in restrict writable %2 : (tensor<?xf32>, memref<?xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a contraction unpacked in its kernel, with rows known only at
// run time, takes its LHS's rows (constant 0, the pack's source) to be the
// unpack's (constant 1, stored to the result's binding): its workgroups run
// over the one and read the other.
// CHECK-LABEL: kiln.executable @contraction_dynamic_rows
//       CHECK:   kiln.executable.export @contraction_dynamic_rows {{.*}}equal_constants = array<i64: 0, 1>
kiln.executable @contraction_dynamic_rows {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @contraction_dynamic_rows ordinal(0) bindings(3) {binding_types = [tensor<?x16xf32>, tensor<2x16x32x1xf32>, tensor<?x64xf32>]}
    builtin.module {
      func.func @contraction_dynamic_rows() {
        %zero = arith.constant 0.0 : f32
        %n0 = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n0) : memref<?x16xf32>
        %a = bufferization.to_tensor %0 restrict : memref<?x16xf32> to tensor<?x16xf32>
        %1 = kiln.binding 1 : memref<2x16x32x1xf32>
        %b = bufferization.to_tensor %1 restrict : memref<2x16x32x1xf32> to tensor<2x16x32x1xf32>
        %m1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%n0]
        %ea = tensor.empty(%m1) : tensor<?x16x8x1xf32>
        %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<?x16xf32> -> tensor<?x16x8x1xf32>
        %ec = tensor.empty(%m1) : tensor<?x2x8x32xf32>
        %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x2x8x32xf32>) -> tensor<?x2x8x32xf32>
        %c = linalg.mmt4d ins(%pa, %b : tensor<?x16x8x1xf32>, tensor<2x16x32x1xf32>) outs(%fc : tensor<?x2x8x32xf32>) -> tensor<?x2x8x32xf32>
        %n1 = kiln.dispatch.constant 1 : index
        %eu = tensor.empty(%n1) : tensor<?x64xf32>
        %u = linalg.unpack %c inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %eu : tensor<?x2x8x32xf32> -> tensor<?x64xf32>
        %2 = kiln.binding 2(%n1) : memref<?x64xf32>
        bufferization.materialize_in_destination %u in restrict writable %2 : (tensor<?x64xf32>, memref<?x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that an unpack's tiles are derived to cover its result: the source's
// outer dimension holding the row tiles (constant 0, the second through
// outer_dims_perm) times 8 covers the rows (constant 1).
// CHECK-LABEL: kiln.executable @unpack
//       CHECK:   kiln.executable.export @unpack {{.*}}covering_tiles = array<i64: 0, 1, 8>
kiln.executable @unpack {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @unpack ordinal(0) bindings(2) {binding_types = [tensor<2x?x8x4xf32>, tensor<?x8xf32>]}
    builtin.module {
      func.func @unpack() {
        %n0 = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n0) : memref<2x?x8x4xf32>
        %packed = bufferization.to_tensor %0 restrict : memref<2x?x8x4xf32> to tensor<2x?x8x4xf32>
        %n1 = kiln.dispatch.constant 1 : index
        %1 = kiln.binding 1(%n1) : memref<?x8xf32>
        %e = tensor.empty(%n1) : tensor<?x8xf32>
        %r = linalg.unpack %packed outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<2x?x8x4xf32> -> tensor<?x8xf32>
        bufferization.materialize_in_destination %r in restrict writable %1 : (tensor<?x8xf32>, memref<?x8xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that declared covering tiles must be the kernel's.
kiln.executable @unpack_declared {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64", features = "", triple = "x86_64-unknown-linux-gnu"} {
    // expected-error@+1 {{declares covering tiles [0, 1, 4] but its kernel takes [0, 1, 8]}}
    kiln.executable.export @unpack ordinal(0) bindings(2) {binding_types = [tensor<?x8xf32>, tensor<?xf32>], covering_tiles = array<i64: 0, 1, 4>}
    builtin.module {
      func.func @unpack() {
        %n0 = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n0) : memref<?x8xf32>
        %packed = bufferization.to_tensor %0 restrict : memref<?x8xf32> to tensor<?x8xf32>
        %n1 = kiln.dispatch.constant 1 : index
        %1 = kiln.binding 1(%n1) : memref<?xf32>
        %e = tensor.empty(%n1) : tensor<?xf32>
        %r = linalg.unpack %packed inner_dims_pos = [0] inner_tiles = [8] into %e : tensor<?x8xf32> -> tensor<?xf32>
        bufferization.materialize_in_destination %r in restrict writable %1 : (tensor<?xf32>, memref<?xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a kernel reads only the dispatch constants there are: its
// bindings' dynamic extents (1 here) and the export's index constants (1).
kiln.executable @too_many_constants {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @fill ordinal(0) bindings(1) {binding_types = [tensor<?xf32>], index_constants = 1 : index}
    builtin.module {
      func.func @fill() {
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n) : memref<?xf32>
        %m = kiln.dispatch.constant 1 : index
        // expected-error@+1 {{reads dispatch constant 2 but export fill has 2}}
        %k = kiln.dispatch.constant 2 : index
        %e = tensor.empty(%n) : tensor<?xf32>
        %c = arith.constant 1.0 : f32
        %f = linalg.fill ins(%c : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
        bufferization.materialize_in_destination %f in restrict writable %0 : (tensor<?xf32>, memref<?xf32>) -> ()
        return
      }
    }
  }
}
