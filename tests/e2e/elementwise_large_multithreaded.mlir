// RUN: %e2e %s -o %t
// A large elementwise op (523x611, odd sizes) spread over many workgroups,
// run with the default thread count and with --threads=1 (second RUN line).
// RUN: %e2e %s -o %t.t1 --run-flag=--threads=1
// INPUT: 523x611xf32=random
// INPUT: 523x611xf32=random

func.func @main(%x: tensor<523x611xf32>, %y: tensor<523x611xf32>) -> tensor<523x611xf32> {
  %e = tensor.empty() : tensor<523x611xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<523x611xf32>, tensor<523x611xf32>) outs(%e : tensor<523x611xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %a : f32
    linalg.yield %s : f32
  } -> tensor<523x611xf32>
  return %r : tensor<523x611xf32>
}
