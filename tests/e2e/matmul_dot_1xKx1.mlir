// RUN: %e2e %s -o %t
// Degenerate matmul shapes: a dot product 1x1000 * 1000x1 and an outer
// product 7x1 * 1x9 (K = 1).
// INPUT: 1x1000xf32=random
// INPUT: 1000x1xf32=random
// INPUT: 7x1xf32=random
// INPUT: 1x9xf32=random
// Tolerance: the dot product sums 1000 terms; the sequential f32 reference
// is itself ~1e-5 off the exact sum.
// TOLERANCE: rtol=1e-5 atol=5e-5

func.func @main(%a: tensor<1x1000xf32>, %b: tensor<1000x1xf32>, %c: tensor<7x1xf32>, %d: tensor<1x9xf32>)
    -> (tensor<1x1xf32>, tensor<7x9xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x1xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %dot = linalg.matmul ins(%a, %b : tensor<1x1000xf32>, tensor<1000x1xf32>) outs(%acc1 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %e2 = tensor.empty() : tensor<7x9xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<7x9xf32>) -> tensor<7x9xf32>
  %outer = linalg.matmul ins(%c, %d : tensor<7x1xf32>, tensor<1x9xf32>) outs(%acc2 : tensor<7x9xf32>) -> tensor<7x9xf32>
  return %dot, %outer : tensor<1x1xf32>, tensor<7x9xf32>
}
