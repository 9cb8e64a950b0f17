// RUN: kiln-opt %s --split-input-file --kiln-outline-dispatch-regions=cpu=x86-64-v3 | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-outline-dispatch-regions=cpu=x86-64-v4,x86-64-v3 | FileCheck %s --check-prefix=VARIANTS

// Tests that a region becomes an executable whose export is named after its
// root op and reads inputs from bindings, and a dispatch of that export;
// with several CPUs, a variant for each, named after it, in order.
//       VARIANTS: kiln.executable @main_dispatch_0 {
//       VARIANTS:   kiln.executable.variant @"x86-64-v4" target("llvm-cpu") attributes
//  VARIANTS-SAME:       cpu = "x86-64-v4"
//       VARIANTS:     kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(3)
//       VARIANTS:     linalg.matmul
//       VARIANTS:   kiln.executable.variant @"x86-64-v3" target("llvm-cpu") attributes
//  VARIANTS-SAME:       cpu = "x86-64-v3"
//       VARIANTS:     kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(3)
//       VARIANTS:     linalg.matmul
//   VARIANTS-NOT:   kiln.executable.variant
//       VARIANTS: kiln.dispatch @main_dispatch_0::@main_dispatch_0_matmul_4x16x8_f32(%arg0, %arg1)
//       CHECK: kiln.executable @main_dispatch_0 {
//       CHECK:   kiln.executable.variant @cpu target("llvm-cpu") attributes
//  CHECK-SAME:       cpu = "x86-64-v3"
//       CHECK:     kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(3)
//       CHECK:     func.func @main_dispatch_0_matmul_4x16x8_f32() {
//       CHECK:       %[[B0:.+]] = kiln.binding 0 : memref<4x8xf32>
//       CHECK:       %[[T0:.+]] = bufferization.to_tensor %[[B0]] restrict
//       CHECK:       %[[B1:.+]] = kiln.binding 1 : memref<8x16xf32>
//       CHECK:       %[[T1:.+]] = bufferization.to_tensor %[[B1]] restrict
//       CHECK:       %[[M:.+]] = linalg.matmul ins(%[[T0]], %[[T1]]
//       CHECK:       %[[OUT:.+]] = kiln.binding 2 : memref<4x16xf32>
//       CHECK:       bufferization.materialize_in_destination %[[M]] in restrict writable %[[OUT]]
// CHECK-LABEL: func.func @main(
//       CHECK:   %[[R:.+]] = kiln.dispatch @main_dispatch_0::@main_dispatch_0_matmul_4x16x8_f32(%arg0, %arg1)
//  CHECK-SAME:       : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
//       CHECK:   return %[[R]]
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = kiln.dispatch.region -> (tensor<4x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
    %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
    kiln.return %m : tensor<4x16xf32>
  }
  return %0 : tensor<4x16xf32>
}

// -----

// Tests that i1 tensors cross the boundary as bytes and are converted inside.
// CHECK-LABEL: kiln.executable @mask_dispatch_0
//       CHECK:   kiln.binding 0 : memref<8xi8>
//       CHECK:   arith.cmpi ne
//       CHECK:   kiln.binding 1 : memref<8xi8>
//       CHECK:   arith.extui
// CHECK-LABEL: func.func @mask(
//       CHECK:   kiln.dispatch @mask_dispatch_0::@mask_dispatch_0_elementwise_8_i1(%arg0) : (tensor<8xi1>) -> tensor<8xi1>
func.func @mask(%m: tensor<8xi1>) -> tensor<8xi1> {
  %0 = kiln.dispatch.region -> (tensor<8xi1>) {
    %e = tensor.empty() : tensor<8xi1>
    %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%m : tensor<8xi1>) outs(%e : tensor<8xi1>) {
    ^bb0(%x: i1, %o: i1):
      %true = arith.constant true
      %y = arith.xori %x, %true : i1
      linalg.yield %y : i1
    } -> tensor<8xi1>
    kiln.return %n : tensor<8xi1>
  }
  return %0 : tensor<8xi1>
}

// -----

// Tests that f4E2M1FN tensors cross the boundary as bytes (the value in
// their low four bits) and that fp8 tensors cross as themselves.
// CHECK-LABEL: kiln.executable @small_dispatch_0
//       CHECK:   kiln.binding 0 : memref<8xi8>
//       CHECK:   arith.trunci %{{.+}} : i8 to i4
//       CHECK:   arith.bitcast %{{.+}} : i4 to f4E2M1FN
//       CHECK:   kiln.binding 1 : memref<8xf8E4M3FN>
//       CHECK:   kiln.binding 2 : memref<8xi8>
//       CHECK:   arith.bitcast %{{.+}} : f4E2M1FN to i4
//       CHECK:   arith.extui %{{.+}} : i4 to i8
// CHECK-LABEL: func.func @small(
//       CHECK:   kiln.dispatch @small_dispatch_0::@{{.+}}(%arg0, %arg1) : (tensor<8xf4E2M1FN>, tensor<8xf8E4M3FN>) -> tensor<8xf4E2M1FN>
func.func @small(%a: tensor<8xf4E2M1FN>, %b: tensor<8xf8E4M3FN>) -> tensor<8xf4E2M1FN> {
  %0 = kiln.dispatch.region -> (tensor<8xf4E2M1FN>) {
    %e = tensor.empty() : tensor<8xf4E2M1FN>
    %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%a, %b : tensor<8xf4E2M1FN>, tensor<8xf8E4M3FN>) outs(%e : tensor<8xf4E2M1FN>) {
    ^bb0(%x: f4E2M1FN, %y: f8E4M3FN, %o: f4E2M1FN):
      %w = arith.extf %x : f4E2M1FN to f8E4M3FN
      %s = arith.addf %w, %y : f8E4M3FN
      %t = arith.truncf %s : f8E4M3FN to f4E2M1FN
      linalg.yield %t : f4E2M1FN
    } -> tensor<8xf4E2M1FN>
    kiln.return %n : tensor<8xf4E2M1FN>
  }
  return %0 : tensor<8xf4E2M1FN>
}

// -----

// Tests that dynamic dimensions cross the dispatch as its constants: each
// binding's dynamic extents in binding order, the sizes of its
// kiln.binding; a tensor.dim of a bound input reads its constant; the
// empty tensor a result is computed into takes its binding's extent (read
// first), so the loops writing it run over what the binding holds; the
// export declares dynamic binding types and is named with D for them; the
// dispatch takes the region's result dims.
//       CHECK: kiln.executable.export @main_dispatch_0_elementwise_Dx4_f32 ordinal(0) bindings(2)
//  CHECK-SAME:     binding_types = [tensor<?x4xf32>, tensor<?x4xf32>]
//       CHECK:     func.func @main_dispatch_0_elementwise_Dx4_f32() {
//       CHECK:       %[[C1:.+]] = kiln.dispatch.constant 1 : index
//       CHECK:       %[[C0:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:       %[[B0:.+]] = kiln.binding 0(%[[C0]]) : memref<?x4xf32>
//       CHECK:       %[[T0:.+]] = bufferization.to_tensor %[[B0]] restrict : memref<?x4xf32> to tensor<?x4xf32>
//   CHECK-NOT:       tensor.dim
//       CHECK:       tensor.empty(%[[C1]]) : tensor<?x4xf32>
//       CHECK:       kiln.binding 1(%[[C1]]) : memref<?x4xf32>
// CHECK-LABEL: func.func @main(
//  CHECK-SAME:     %[[X:.+]]: tensor<?x4xf32>)
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]]
//       CHECK:   kiln.dispatch @main_dispatch_0::@main_dispatch_0_elementwise_Dx4_f32(%[[X]]) dims(%[[N]])
//  CHECK-SAME:       : (tensor<?x4xf32>) -> tensor<?x4xf32>
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %0 = kiln.dispatch.region -> (tensor<?x4xf32>) dims(%n) {
    %c = arith.constant 0 : index
    %m = tensor.dim %x, %c : tensor<?x4xf32>
    %e = tensor.empty(%m) : tensor<?x4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
    ^bb0(%v: f32, %o: f32):
      %s = arith.mulf %v, %v : f32
      linalg.yield %s : f32
    } -> tensor<?x4xf32>
    kiln.return %r : tensor<?x4xf32>
  }
  return %0 : tensor<?x4xf32>
}

// -----

// Tests that the index values of the host the region reads become dispatch
// constants after every binding's extents, counted by the export's
// index_constants and passed by the dispatch, in the order the region
// reads them; a value the kernel no longer reads once the size of the
// result's empty tensor is its binding's extent is not passed.
//       CHECK: kiln.executable.export @main_dispatch_0_elementwise_Dx4_i32 ordinal(0) bindings(1)
//  CHECK-SAME:     index_constants = 1 : index
//       CHECK:     func.func @main_dispatch_0_elementwise_Dx4_i32() {
//       CHECK:       %[[C0:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:       %[[W:.+]] = kiln.dispatch.constant 1 : index
//   CHECK-NOT:       kiln.dispatch.constant
//       CHECK:       tensor.empty(%[[C0]]) : tensor<?x4xi32>
//       CHECK:       linalg.generic
//       CHECK:         arith.muli %{{.+}}, %[[W]] : index
//       CHECK:       kiln.binding 0(%[[C0]]) : memref<?x4xi32>
// CHECK-LABEL: func.func @main(
//  CHECK-SAME:     %[[N:.+]]: index, %[[W:.+]]: index)
//       CHECK:   kiln.dispatch @main_dispatch_0::@main_dispatch_0_elementwise_Dx4_i32() constants(%[[W]]) dims(%[[N]])
func.func @main(%n: index, %w: index) -> tensor<?x4xi32> {
  %0 = kiln.dispatch.region -> (tensor<?x4xi32>) dims(%n) {
    %e = tensor.empty(%n) : tensor<?x4xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        outs(%e : tensor<?x4xi32>) {
    ^bb0(%o: i32):
      %i = linalg.index 0 : index
      %s = arith.muli %i, %w : index
      %v = arith.index_cast %s : index to i32
      linalg.yield %v : i32
    } -> tensor<?x4xi32>
    kiln.return %r : tensor<?x4xi32>
  }
  return %0 : tensor<?x4xi32>
}

// -----

// Tests that a tensor the region reads only the dimensions of is not bound:
// the host reads its dimension before the dispatch and passes it as an index
// constant.
//       CHECK: kiln.executable.export @main_dispatch_0_elementwise_4_i32 ordinal(0) bindings(1)
//  CHECK-SAME:     binding_types = [tensor<4xi32>]
//  CHECK-SAME:     index_constants = 1 : index
//       CHECK:     func.func @main_dispatch_0_elementwise_4_i32() {
//       CHECK:       %[[D:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:         arith.addi %{{.+}}, %[[D]] : index
// CHECK-LABEL: func.func @main(
//  CHECK-SAME:     %[[X:.+]]: tensor<?x8xf32>)
//       CHECK:   %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x8xf32>
//       CHECK:   kiln.dispatch @main_dispatch_0::@main_dispatch_0_elementwise_4_i32() constants(%[[DIM]])
func.func @main(%x: tensor<?x8xf32>) -> tensor<4xi32> {
  %0 = kiln.dispatch.region -> (tensor<4xi32>) {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %x, %c0 : tensor<?x8xf32>
    %e = tensor.empty() : tensor<4xi32>
    %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        outs(%e : tensor<4xi32>) {
    ^bb0(%o: i32):
      %i = linalg.index 0 : index
      %s = arith.addi %i, %n : index
      %v = arith.index_cast %s : index to i32
      linalg.yield %v : i32
    } -> tensor<4xi32>
    kiln.return %r : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

// Tests that a slice an elementwise op reads alongside its destination
// takes the extent of the binding the result is stored into, as the
// destination's empty tensor does: the loops then run over a dispatch
// constant, whatever arithmetic sized the slice.
//       CHECK: func.func @main_dispatch_0_elementwise_Dx8_f32() {
//   CHECK-DAG:   %[[OUT:.+]] = kiln.dispatch.constant 1 : index
//   CHECK-DAG:   %[[IN:.+]] = kiln.dispatch.constant 0 : index
//       CHECK:   %[[X:.+]] = kiln.binding 0(%[[IN]])
//       CHECK:   %[[OFFSET:.+]] = arith.divui %[[IN]]
//       CHECK:   tensor.extract_slice %{{.+}}[%[[OFFSET]], 0] [%[[OUT]], 8] [1, 1]
//       CHECK:   tensor.empty(%[[OUT]]) : tensor<?x8xf32>
func.func @main(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %h = arith.divui %n, %c2 : index
  %s = arith.subi %n, %h : index
  %0 = kiln.dispatch.region -> (tensor<?x8xf32>) dims(%s) {
    %c0_0 = arith.constant 0 : index
    %c2_0 = arith.constant 2 : index
    %d = tensor.dim %x, %c0_0 : tensor<?x8xf32>
    %o = arith.divui %d, %c2_0 : index
    %r = arith.subi %d, %o : index
    %slice = tensor.extract_slice %x[%o, 0] [%r, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
    %e = tensor.empty(%r) : tensor<?x8xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%slice : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
    ^bb0(%v: f32, %out: f32):
      %m = arith.mulf %v, %v : f32
      linalg.yield %m : f32
    } -> tensor<?x8xf32>
    kiln.return %g : tensor<?x8xf32>
  }
  return %0 : tensor<?x8xf32>
}

// -----

// Tests that provenance names each fused op as the input program wrote it
// (kiln.input_ops): the generic that was a linalg.add, and the op fused
// into it, by their own names and locations.
//       CHECK: #[[ADD:.+]] = loc("add.mlir":4:8)
//       CHECK: #[[EXP:.+]] = loc("add.mlir":5:8)
//       CHECK: #[[ADD_OP:.+]] = loc("linalg.add"(#[[ADD]]))
//       CHECK: #[[EXP_OP:.+]] = loc("linalg.exp"(#[[EXP]]))
//       CHECK: kiln.executable.export @renamed_dispatch_0_elementwise_8_f32
//  CHECK-SAME:   kiln.provenance = [#[[ADD_OP]], #[[EXP_OP]]]
module attributes {kiln.input_ops = [loc("linalg.add"("add.mlir":4:8)), loc("linalg.exp"("add.mlir":5:8))]} {
  func.func @renamed(%a: tensor<8xf32>) -> tensor<8xf32> {
    %0 = kiln.dispatch.region -> (tensor<8xf32>) {
      %e = tensor.empty() : tensor<8xf32>
      %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
          ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.addf %x, %x : f32
        %z = math.exp %y : f32
        linalg.yield %z : f32
      } -> tensor<8xf32> loc(fused["add.mlir":4:8, "add.mlir":5:8])
      kiln.return %n : tensor<8xf32>
    }
    return %0 : tensor<8xf32>
  }
}
