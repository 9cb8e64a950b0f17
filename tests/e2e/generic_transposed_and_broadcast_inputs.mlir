// RUN: %e2e %s -o %t
// One elementwise generic reading its inputs through different projected
// permutations: x[i, j], y[j, i] (transposed), row[j], col[i] (broadcasts),
// i.e. out = x + 2*y^T + row * col (an outer product term).
// INPUT: 9x14xf32=random
// INPUT: 14x9xf32=random
// INPUT: 14xf32=random
// INPUT: 9xf32=random

func.func @main(%x: tensor<9x14xf32>, %y: tensor<14x9xf32>, %row: tensor<14xf32>, %col: tensor<9xf32>) -> tensor<9x14xf32> {
  %e = tensor.empty() : tensor<9x14xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>,
                       affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %y, %row, %col : tensor<9x14xf32>, tensor<14x9xf32>, tensor<14xf32>, tensor<9xf32>)
      outs(%e : tensor<9x14xf32>) {
  ^bb0(%a: f32, %b: f32, %r0: f32, %c0: f32, %o: f32):
    %b2 = arith.mulf %b, %two : f32
    %s = arith.addf %a, %b2 : f32
    %p = arith.mulf %r0, %c0 : f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  } -> tensor<9x14xf32>
  return %r : tensor<9x14xf32>
}
