// RUN: %e2e %s -o %t
// matmul + bias add + relu: the elementwise consumer is a fusion candidate of
// the matmul dispatch.
// INPUT: 12x20xf32=random
// INPUT: 20x24xf32=random
// INPUT: 24xf32=random

func.func @main(%x: tensor<12x20xf32>, %w: tensor<20x24xf32>, %bias: tensor<24xf32>) -> tensor<12x24xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x24xf32>) -> tensor<12x24xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<12x20xf32>, tensor<20x24xf32>)
                      outs(%acc : tensor<12x24xf32>) -> tensor<12x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<12x24xf32>, tensor<24xf32>) outs(%empty : tensor<12x24xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %relu = arith.maximumf %s, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<12x24xf32>
  return %r : tensor<12x24xf32>
}
