// RUN: %e2e %s -o %t
// Full reduction of a 2-D tensor to a 0-d tensor (sum of all elements).
// INPUT: 16x24xf32=random

func.func @main(%x: tensor<16x24xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
      iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<16x24xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
