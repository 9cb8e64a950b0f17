// RUN: %e2e %s -o %t
// Scaled dot-product attention for 2 heads: softmax(Q K^T / sqrt(d)) V with
// Q, K, V of 2x10x16 (batch_matmul, transpose, softmax, batch_matmul).
// INPUT: 2x10x16xf32=random
// INPUT: 2x10x16xf32=random
// INPUT: 2x10x16xf32=random

func.func @main(%q: tensor<2x10x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x16xf32>) -> tensor<2x10x16xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.25 : f32
  %ekt = tensor.empty() : tensor<2x16x10xf32>
  %kt = linalg.transpose ins(%k : tensor<2x10x16xf32>) outs(%ekt : tensor<2x16x10xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x10x10xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x10x10xf32>) -> tensor<2x10x10xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x10x16xf32>, tensor<2x16x10xf32>) outs(%zs : tensor<2x10x10xf32>) -> tensor<2x10x10xf32>
  %ss = linalg.generic {
      indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x10x10xf32>) outs(%es : tensor<2x10x10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<2x10x10xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<2x10x10xf32>) outs(%es : tensor<2x10x10xf32>) -> tensor<2x10x10xf32>
  %eo = tensor.empty() : tensor<2x10x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x10x16xf32>) -> tensor<2x10x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x10x10xf32>, tensor<2x10x16xf32>) outs(%zo : tensor<2x10x16xf32>) -> tensor<2x10x16xf32>
  return %o : tensor<2x10x16xf32>
}
