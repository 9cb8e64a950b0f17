// RUN: %e2e %s -o %t
// linalg.matmul with explicit indexing_maps (MLIR's replacement for
// matmul_transpose_a): C = A^T * B with A stored K x M.
// INPUT: 9x4xf32=random
// INPUT: 9x6xf32=random

func.func @main(%a: tensor<9x4xf32>, %b: tensor<9x6xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x6xf32>) -> tensor<4x6xf32>
  %r = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                       affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<9x4xf32>, tensor<9x6xf32>)
      outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
