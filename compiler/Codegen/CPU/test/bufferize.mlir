// RUN: kiln-opt %s --kiln-cpu-bufferize | FileCheck %s

// Tests that a result stored to a binding is computed in place in that
// binding (no copy, no heap allocation), and that the accumulator tile is a
// stack allocation hoisted to the function entry.
// CHECK-LABEL: func.func @in_place
//       CHECK:   %[[ACC:.+]] = memref.alloca() {alignment = 64 : i64} : memref<8x32xf32>
//       CHECK:   %[[OUT:.+]] = kiln.binding 1 : memref<16x32xf32>
//       CHECK:   scf.for
//       CHECK:     vector.transfer_write %{{.+}}, %[[ACC]]
//       CHECK:     %[[V:.+]] = vector.transfer_read %[[ACC]]
//       CHECK:     vector.transfer_write %[[V]], %[[OUT]]
//   CHECK-NOT:   memref.alloc(
//   CHECK-NOT:   linalg.copy
//   CHECK-NOT:   memref.copy
func.func @in_place() {
  %cst = arith.constant dense<1.0> : vector<8x32xf32>
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %0 = kiln.binding 0 : memref<16x32xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<16x32xf32> to tensor<16x32xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %r = scf.for %i = %c0 to %c16 step %c8 iter_args(%acc = %e) -> (tensor<16x32xf32>) {
    %tile = tensor.empty() : tensor<8x32xf32>
    %t = vector.transfer_write %cst, %tile[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, tensor<8x32xf32>
    %v = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<8x32xf32>, vector<8x32xf32>
    %w = vector.transfer_write %v, %acc[%i, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, tensor<16x32xf32>
    scf.yield %w : tensor<16x32xf32>
  }
  %2 = kiln.binding 1 : memref<16x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %2 : (tensor<16x32xf32>, memref<16x32xf32>) -> ()
  return
}
