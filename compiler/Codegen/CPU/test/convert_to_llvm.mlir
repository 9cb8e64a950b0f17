// RUN: kiln-opt %s --split-input-file --kiln-cpu-convert-to-llvm --reconcile-unrealized-casts | FileCheck %s
// RUN: kiln-opt %s --split-input-file "--kiln-cpu-convert-to-llvm=reassociate-fp-reductions=false" --reconcile-unrealized-casts | FileCheck %s --check-prefix=ORDERED

// Tests that a kernel takes the dispatch and workgroup states of
// executable_library.h, loads its binding pointers from the dispatch state
// and its workgroup id from the workgroup state, and returns 0.
// CHECK-LABEL: llvm.func @kernel
//  CHECK-SAME:     (%[[DS:.+]]: !llvm.ptr, %[[WS:.+]]: !llvm.ptr) -> i32
//       CHECK:   %[[ZERO:.+]] = llvm.mlir.constant(0 : i32) : i32
//       CHECK:   %[[BPTR:.+]] = llvm.getelementptr inbounds %[[DS]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(array<3 x i32>, i32, ptr, ptr, i32, i32, ptr, array<2 x i64>)>
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

// -----

// Tests that a float vector reduction may reorder its additions by default
// and adds in order when reassociation is off.
// CHECK-LABEL: llvm.func @reduction
//       CHECK:   "llvm.intr.vector.reduce.fadd"({{.+}}) <{fastmathFlags = #llvm.fastmath<reassoc>}>
// ORDERED-LABEL: llvm.func @reduction
//       ORDERED:   "llvm.intr.vector.reduce.fadd"({{.+}}) <{fastmathFlags = #llvm.fastmath<none>}>
func.func @reduction() {
  %0 = kiln.binding 0 : memref<8xf32>
  %1 = kiln.binding 1 : memref<f32>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %0[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<8xf32>
  %acc = memref.load %1[] : memref<f32>
  %r = vector.reduction <add>, %v, %acc : vector<8xf32> into f32
  memref.store %r, %1[] : memref<f32>
  return
}

// -----

// Tests that a dispatch constant is the i64 at its index of the dispatch
// state's constants, and that a binding with dynamic sizes takes them, with
// row-major strides.
// CHECK-LABEL: llvm.func @dynamic
//  CHECK-SAME:     (%[[DS:.+]]: !llvm.ptr, %{{.+}}: !llvm.ptr) -> i32
//       CHECK:   %[[CPTR:.+]] = llvm.getelementptr inbounds %[[DS]][0, 6] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(array<3 x i32>, i32, ptr, ptr, i32, i32, ptr, array<2 x i64>)>
//       CHECK:   %[[CONSTANTS:.+]] = llvm.load %[[CPTR]] {{.*}}invariant{{.*}} : !llvm.ptr -> !llvm.ptr
//       CHECK:   %[[C1:.+]] = llvm.getelementptr inbounds %[[CONSTANTS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
//       CHECK:   %[[ROWS:.+]] = llvm.load %[[C1]] {{.*}}invariant{{.*}} : !llvm.ptr -> i64
//       CHECK:   %[[BASE:.+]] = llvm.load
//       CHECK:   llvm.insertvalue %[[ROWS]], %{{.+}}[3, 0]
//       CHECK:   llvm.insertvalue %{{.+}}, %{{.+}}[4, 0]
func.func @dynamic() {
  %rows = kiln.dispatch.constant 1 : index
  %0 = kiln.binding 0 (%rows) : memref<?x8xf32>
  %c0 = arith.constant 0 : index
  %c = arith.constant 2.0 : f32
  memref.store %c, %0[%c0, %c0] : memref<?x8xf32>
  return
}

// -----

// Tests that a check of the kernel's body branches to a return of
// KILN_DISPATCH_OUT_OF_BOUNDS (1) when it fails, before the work after it.
// CHECK-LABEL: llvm.func @checked
//   CHECK-DAG:   %[[ONE:.+]] = llvm.mlir.constant(1 : i32) : i32
//   CHECK-DAG:   %[[ZERO:.+]] = llvm.mlir.constant(0 : i32) : i32
//       CHECK:   %[[INSIDE:.+]] = llvm.icmp
//       CHECK:   llvm.cond_br %[[INSIDE]], ^[[WORK:.+]], ^[[FAIL:.+]]
//       CHECK: ^[[WORK]]:
//       CHECK:   llvm.store
//       CHECK:   llvm.return %[[ZERO]] : i32
//       CHECK: ^[[FAIL]]:
//       CHECK:   llvm.return %[[ONE]] : i32
func.func @checked() {
  %rows = kiln.dispatch.constant 0 : index
  %0 = kiln.binding 0 (%rows) : memref<?xf32>
  %c4 = arith.constant 4 : index
  %inside = arith.cmpi slt, %c4, %rows : index
  cf.assert %inside, "tensor.insert_slice inside its tensor"
  %c = arith.constant 2.0 : f32
  memref.store %c, %0[%c4] : memref<?xf32>
  return
}


// -----

// Tests that the logistic function as importers write it, 1 / (1 + exp(-x)),
// is computed as 0.5 + 0.5 * tanh(x / 2): tanh's rational approximation
// (its clamp at +-7.99881172, one division) and no exp range reduction
// (fptosi); 2 / (1 + exp(-x)) keeps its exp.
// CHECK-LABEL: llvm.func @logistic
//       CHECK:   llvm.mlir.constant(dense<7.99881172> : vector<8xf32>)
//   CHECK-NOT:   llvm.fptosi
//       CHECK:   llvm.fdiv
//   CHECK-NOT:   llvm.fptosi
//       CHECK:   llvm.intr.fma(%{{.+}}, %[[HALF:.+]], %[[HALF]])
// CHECK-LABEL: llvm.func @not_logistic
//       CHECK:   llvm.fptosi
func.func @logistic() {
  %0 = kiln.binding 0 : memref<8xf32>
  %1 = kiln.binding 1 : memref<8xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1.0> : vector<8xf32>
  %x = vector.load %0[%c0] : memref<8xf32>, vector<8xf32>
  %n = arith.negf %x : vector<8xf32>
  %e = math.exp %n : vector<8xf32>
  %d = arith.addf %one, %e : vector<8xf32>
  %s = arith.divf %one, %d : vector<8xf32>
  vector.store %s, %1[%c0] : memref<8xf32>, vector<8xf32>
  return
}

// -----

func.func @not_logistic() {
  %0 = kiln.binding 0 : memref<8xf32>
  %1 = kiln.binding 1 : memref<8xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1.0> : vector<8xf32>
  %two = arith.constant dense<2.0> : vector<8xf32>
  %x = vector.load %0[%c0] : memref<8xf32>, vector<8xf32>
  %n = arith.negf %x : vector<8xf32>
  %e = math.exp %n : vector<8xf32>
  %d = arith.addf %one, %e : vector<8xf32>
  %s = arith.divf %two, %d : vector<8xf32>
  vector.store %s, %1[%c0] : memref<8xf32>, vector<8xf32>
  return
}
