// RUN: %e2e %s -o %t
// A parallel (non-reduction) generic that reads its output operand's initial
// value, here a function argument: out = 2 * init + x. The init must not be
// replaced by an uninitialized buffer.
// INPUT: 5x9xf32=random
// INPUT: 5x9xf32=random

func.func @main(%x: tensor<5x9xf32>, %init: tensor<5x9xf32>) -> tensor<5x9xf32> {
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<5x9xf32>) outs(%init : tensor<5x9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.mulf %o, %two : f32
    %s = arith.addf %d, %a : f32
    linalg.yield %s : f32
  } -> tensor<5x9xf32>
  return %r : tensor<5x9xf32>
}
