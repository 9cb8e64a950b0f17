// RUN: %e2e %s -o %t
// Max over the last dimension, initialized with -inf: 6x45 -> 6.
// INPUT: 6x45xf32=random

func.func @main(%x: tensor<6x45xf32>) -> tensor<6xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x45xf32>) outs(%acc : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
