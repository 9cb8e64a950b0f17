// RUN: %e2e %s -o %t
// A strided extract_slice (every other row and column) feeding a matmul, and
// a non-contiguous slice collapsed (needs a copy).
// INPUT: 10x16xf32=random
// INPUT: 8x3xf32=random

func.func @main(%x: tensor<10x16xf32>, %w: tensor<8x3xf32>) -> (tensor<5x3xf32>, tensor<12xf32>) {
  %s = tensor.extract_slice %x[0, 1] [5, 8] [2, 2] : tensor<10x16xf32> to tensor<5x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.matmul ins(%s, %w : tensor<5x8xf32>, tensor<8x3xf32>)
                     outs(%acc : tensor<5x3xf32>) -> tensor<5x3xf32>
  %block = tensor.extract_slice %x[2, 3] [3, 4] [1, 1] : tensor<10x16xf32> to tensor<3x4xf32>
  %flat = tensor.collapse_shape %block [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
  return %r, %flat : tensor<5x3xf32>, tensor<12xf32>
}
