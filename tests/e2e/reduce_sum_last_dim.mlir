// RUN: %e2e %s -o %t
// Row sums: reduction over the innermost dimension, 9x70 -> 9.
// INPUT: 9x70xf32=random

func.func @main(%x: tensor<9x70xf32>) -> tensor<9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<9xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<9x70xf32>) outs(%acc : tensor<9xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<9xf32>
  return %r : tensor<9xf32>
}
