// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.variants --variants=x86-64-v4,x86-64-v3,x86-64
// A batch-dynamic MLP (784 -> 128 relu -> 10 softmax), one module called
// at batch 1, 37 (prime) and 256: matmuls over a dynamic row count, a
// broadcast bias and relu fused into them, and a softmax over dynamic rows.
// ENTRY: main
// INPUT: 1x784xf32=random
// INPUT: 784x128xf32=random(-0.1, 0.1)
// INPUT: 128xf32=random
// INPUT: 128x10xf32=random(-0.1, 0.1)
// INPUT: 10xf32=random
// ENTRY: main
// INPUT: 37x784xf32=random
// INPUT: 784x128xf32=random(-0.1, 0.1)
// INPUT: 128xf32=random
// INPUT: 128x10xf32=random(-0.1, 0.1)
// INPUT: 10xf32=random
// ENTRY: main
// INPUT: 256x784xf32=random
// INPUT: 784x128xf32=random(-0.1, 0.1)
// INPUT: 128xf32=random
// INPUT: 128x10xf32=random(-0.1, 0.1)
// INPUT: 10xf32=random

#row = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>
func.func @main(%x: tensor<?x784xf32>, %w1: tensor<784x128xf32>, %b1: tensor<128xf32>,
                %w2: tensor<128x10xf32>, %b2: tensor<10xf32>) -> tensor<?x10xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x784xf32>
  %e1 = tensor.empty(%n) : tensor<?x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<?x784xf32>, tensor<784x128xf32>) outs(%f1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<?x128xf32>, tensor<128xf32>) outs(%e1 : tensor<?x128xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x128xf32>
  %e2 = tensor.empty(%n) : tensor<?x10xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<?x128xf32>, tensor<128x10xf32>) outs(%f2 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %l = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<?x10xf32>, tensor<10xf32>) outs(%e2 : tensor<?x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x10xf32>
  %sm = linalg.softmax dimension(1) ins(%l : tensor<?x10xf32>) outs(%e2 : tensor<?x10xf32>) -> tensor<?x10xf32>
  return %sm : tensor<?x10xf32>
}
