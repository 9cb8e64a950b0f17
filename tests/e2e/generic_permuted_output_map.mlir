// RUN: %e2e %s -o %t
// Elementwise generic whose output indexing map is a permutation (writes
// transposed): out[k, i, j] = x[i, j, k] * 2 + y[i, j] over 20x30x9.
// INPUT: 20x30x9xf32=random
// INPUT: 20x30xf32=random

func.func @main(%x: tensor<20x30x9xf32>, %y: tensor<20x30xf32>) -> tensor<9x20x30xf32> {
  %e = tensor.empty() : tensor<9x20x30xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>,
                       affine_map<(i, j, k) -> (k, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<20x30x9xf32>, tensor<20x30xf32>) outs(%e : tensor<9x20x30xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<9x20x30xf32>
  return %r : tensor<9x20x30xf32>
}
