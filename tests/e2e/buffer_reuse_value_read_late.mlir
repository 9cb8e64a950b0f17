// RUN: %e2e %s -o %t
// Buffer reuse: %a is read by the last dispatch, after three matmuls whose
// results are intermediates (each could take a buffer), and %b, %c are read
// by the dispatch right after them. A plan that let a later result take the
// buffer of a value still to be read would change the result.
// INPUT: 16x16xf32=random
// INPUT: 16x16xf32=random
// INPUT: 16x16xf32=random

func.func @main(%x: tensor<16x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %a = linalg.matmul ins(%x, %w1 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  %b = linalg.matmul ins(%a, %w2 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  %c = linalg.matmul ins(%b, %w1 : tensor<16x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  %d = linalg.matmul ins(%c, %b : tensor<16x16xf32>, tensor<16x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  %t = linalg.transpose ins(%d : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) permutation = [1, 0]
  %r = linalg.add ins(%t, %a : tensor<16x16xf32>, tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
