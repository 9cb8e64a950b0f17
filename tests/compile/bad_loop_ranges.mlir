// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s

// Tests that a linalg op whose operands disagree on a loop's size, which
// upstream MLIR accepts, is an error at the op: the generated code would
// size the loop by one operand and write past the end of another.
// CHECK: bad_loop_ranges.mlir:[[@LINE+5]]:8: error: operand 2 has size 0 in dimension 0, but loop d0 runs 6 times (operand 0)
func.func @main(%a: tensor<6x10xf32>, %b: tensor<16x10xf32>) -> tensor<0x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<0x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<0x16xf32>) -> tensor<0x16xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<6x10xf32>, tensor<16x10xf32>) outs(%acc : tensor<0x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<0x16xf32>
  return %r : tensor<0x16xf32>
}
