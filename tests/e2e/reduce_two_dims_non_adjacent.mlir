// RUN: %e2e %s -o %t
// A reduction over dims 0 and 2 of a 3-D tensor (non-adjacent reduction dims):
// 7x5x9 -> 5.
// INPUT: 7x5x9xf32=random

func.func @main(%x: tensor<7x5x9xf32>) -> tensor<5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (j)>],
      iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<7x5x9xf32>) outs(%acc : tensor<5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
