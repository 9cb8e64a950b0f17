// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-dump %t.kiln --disassemble | FileCheck %s
// RUN: kiln-dump %t.kiln --disassemble --function=count --json | FileCheck %s --check-prefix=JSON
// RUN: not kiln-dump %t.kiln --disassemble --function=missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not kiln-dump %t.kiln --function=count 2>&1 | FileCheck %s --check-prefix=NOVIEW
// RUN: kiln-dump %t.kiln | FileCheck %s --check-prefix=SUMMARY
// Tests that kiln-dump prints each host function's program: its signature,
// its buffers, then one numbered instruction per line, each result with its
// type, each dispatch with the buffer each result is written into (new for
// what the function returns), branches naming instruction numbers, checks
// their input location.

// CHECK-LABEL: func @scale(%0: 4xf32) -> (4xf32)
//  CHECK-NEXT:   buffers: b0 16 bytes, b1 16 bytes
//  CHECK-NEXT:   0  %1 = constant #0 : 4xf32
//  CHECK-NEXT:   1  %2 = dispatch scale_dispatch_0::scale_dispatch_0_elementwise_4_f32(%0, %1) into(b0) : 4xf32
//  CHECK-NEXT:   2  %3 = dispatch scale_dispatch_1::scale_dispatch_1_elementwise_4_f32(%2) into(b1) : 4xf32
//  CHECK-NEXT:   3  %4 = dispatch scale_dispatch_0::scale_dispatch_0_elementwise_4_f32(%3, %1) into(new) : 4xf32
//  CHECK-NEXT:   4  return %4
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = arith.mulf %x, %c : tensor<4xf32>
  %b = util.optimization_barrier %0 : tensor<4xf32>
  %1 = math.exp %b : tensor<4xf32>
  %b1 = util.optimization_barrier %1 : tensor<4xf32>
  %2 = arith.mulf %b1, %c : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// CHECK-LABEL: func @count() -> ()
//       CHECK:   cond_br %{{[0-9]+}}, ^{{[0-9]+}}, ^{{[0-9]+}}
//       CHECK:   br ^{{[0-9]+}}
//       CHECK:   check.expect_eq %{{[0-9]+}}, %{{[0-9]+}}  // {{.*}}disassemble.mlir:[[@LINE+15]]:3
//       CHECK:   return
func.func @count() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = util.unfoldable_constant 3 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %lt = arith.cmpi slt, %i, %c3 : i32
    scf.condition(%lt) %i : i32
  } do {
  ^bb0(%i: i32):
    %n = arith.addi %i, %c1 : i32
    scf.yield %n : i32
  }
  %t = tensor.from_elements %r : tensor<i32>
  check.expect_eq_const(%t, dense<3> : tensor<i32>) : tensor<i32>
  return
}

// JSON:      "functions": [
// JSON:      "op": "dispatch",
// JSON:      "result_buffers": [
// JSON-NEXT:   0
// JSON-NEXT: ],
// JSON:      "op": "cond_br"
// JSON:      "op": "dispatch",
// JSON:      "result_buffers": [
// JSON-NEXT:   null
// JSON-NEXT: ],
// JSON:      "op": "check.expect_eq"
// JSON:      "buffer_sizes": [
// JSON-NEXT:   1
// JSON-NEXT: ],
// JSON:      "name": "count"
// JSON-NOT:  "name": "scale"

// MISSING: kiln-dump: error: no function 'missing' in the module
// NOVIEW: kiln-dump: error: --function only applies to --disassemble

// A function over a dynamic shape: dimensions read into index registers
// (i0, ...), arithmetic on them, and the registers giving each dynamic
// result's dimensions.
// CHECK-LABEL: func @flatten_square(%0: ?x4xf32) -> (?xf32)
//  CHECK-NEXT:   0  i0 = dim %0, 0
//  CHECK-NEXT:   1  %1 = dispatch flatten_square_dispatch_0::flatten_square_dispatch_0_elementwise_Dx4_f32(%0) into(new) dims(i0) : ?x4xf32
//  CHECK-NEXT:   2  i1 = dim %1, 0
//  CHECK-NEXT:   3  i2 = index 4
//  CHECK-NEXT:   4  i3 = mul i1, i2
//  CHECK-NEXT:   5  %2 = reshape %1 dims(i3) : ?xf32
//  CHECK-NEXT:   6  return %2
// The summary shows the export's grid growing with its dynamic extent.
//      SUMMARY: flatten_square_dispatch_0_elementwise_Dx4_f32
// SUMMARY-NEXT:   workgroup count  1x1x1 * ceil(c0 / {{[0-9]+}}) in x
// SUMMARY-NEXT:   bindings         2: ?x4xf32, ?x4xf32
func.func @flatten_square(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.mul ins(%x, %x : tensor<?x4xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f = tensor.collapse_shape %r [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  return %f : tensor<?xf32>
}
