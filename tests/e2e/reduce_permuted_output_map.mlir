// RUN: %e2e %s -o %t
// A reduction over the middle dim whose output map is permuted:
// out[k, i] = sum_j x[i, j, k], 12x40x7 -> 7x12.
// INPUT: 12x40x7xf32=random

func.func @main(%x: tensor<12x40x7xf32>) -> tensor<7x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x12xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<7x12xf32>) -> tensor<7x12xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k, i)>],
      iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : tensor<12x40x7xf32>) outs(%acc : tensor<7x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<7x12xf32>
  return %r : tensor<7x12xf32>
}
