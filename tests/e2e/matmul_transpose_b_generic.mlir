// RUN: %e2e %s -o %t
// A * B^T written as a linalg.generic contraction (B is N x K).
// INPUT: 6x10xf32=random
// INPUT: 11x10xf32=random

func.func @main(%a: tensor<6x10xf32>, %b: tensor<11x10xf32>) -> tensor<6x11xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x11xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<6x11xf32>) -> tensor<6x11xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<6x10xf32>, tensor<11x10xf32>) outs(%acc : tensor<6x11xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<6x11xf32>
  return %r : tensor<6x11xf32>
}
