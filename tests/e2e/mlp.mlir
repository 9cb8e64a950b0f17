// RUN: %e2e %s -o %t
// Same program, other configurations: debug levels 0 and 3 (captured
// sources must not change the code), a portable CPU (SSE4.2, 128-bit
// vectors) and a single thread.
// RUN: %e2e %s -o %t.dbg0 --compile-flag=--executable-debug-level=0
// RUN: %e2e %s -o %t.dbg3 --compile-flag=--executable-debug-level=3
// RUN: %e2e %s -o %t.v2 --compile-flag=--cpu=x86-64-v2 --run-flag=--threads=1
// The two-layer perceptron of samples/mlp.mlir (copied verbatim below the
// directives): relu(x * W1 + b1) * W2 + b2, then softmax, on a random batch.
// INPUT: 4x8xf32=random

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w1 = arith.constant dense<[
    [ 0.12, -0.30,  0.25,  0.07, -0.11,  0.40, -0.05,  0.18, -0.22,  0.09,  0.31, -0.14,  0.03, -0.27,  0.16,  0.21],
    [-0.08,  0.19, -0.33,  0.28,  0.14, -0.06,  0.22, -0.17,  0.35, -0.02, -0.24,  0.11,  0.29,  0.05, -0.13,  0.08],
    [ 0.27,  0.04,  0.13, -0.21,  0.33,  0.10, -0.29,  0.06,  0.01,  0.23, -0.09,  0.36, -0.18,  0.12,  0.24, -0.03],
    [-0.15,  0.26,  0.09,  0.17, -0.28,  0.20,  0.07, -0.32,  0.14, -0.19,  0.02,  0.25,  0.11, -0.07,  0.30,  0.16],
    [ 0.05, -0.12,  0.34, -0.04,  0.21, -0.25,  0.15,  0.28, -0.10,  0.32,  0.18, -0.06,  0.24,  0.13, -0.20,  0.02],
    [ 0.31,  0.08, -0.16,  0.22,  0.03,  0.17, -0.23,  0.12,  0.27, -0.14,  0.06,  0.19, -0.31,  0.25,  0.09, -0.11],
    [-0.20,  0.33,  0.04, -0.09,  0.26,  0.01,  0.30, -0.15,  0.08,  0.20, -0.27,  0.13,  0.17, -0.02,  0.23,  0.29],
    [ 0.10, -0.24,  0.28,  0.15, -0.07,  0.34, -0.01,  0.21, -0.26,  0.05,  0.16, -0.30,  0.07,  0.22, -0.12,  0.18]
  ]> : tensor<8x16xf32>
  %b1 = arith.constant dense<[0.01, -0.02, 0.03, 0.00, 0.05, -0.01, 0.02, 0.04,
                              -0.03, 0.01, 0.00, 0.02, -0.04, 0.03, 0.01, -0.02]> : tensor<16xf32>
  %w2 = arith.constant dense<[
    [ 0.21, -0.13,  0.08,  0.30], [-0.17,  0.26, -0.05,  0.12], [ 0.09,  0.14, -0.28,  0.03], [ 0.33, -0.07,  0.19, -0.22],
    [-0.11,  0.29,  0.02,  0.16], [ 0.24, -0.18,  0.31, -0.04], [-0.06,  0.10, -0.15,  0.27], [ 0.18,  0.05,  0.23, -0.09],
    [ 0.02, -0.25,  0.13,  0.20], [-0.29,  0.17,  0.06, -0.14], [ 0.15,  0.01, -0.20,  0.32], [ 0.07,  0.22,  0.11, -0.26],
    [-0.23,  0.04,  0.28,  0.09], [ 0.12, -0.31,  0.17,  0.05], [ 0.26,  0.08, -0.12,  0.19], [-0.04,  0.35,  0.01, -0.16]
  ]> : tensor<16x4xf32>
  %b2 = arith.constant dense<[0.05, -0.05, 0.10, 0.00]> : tensor<4xf32>

  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>)
                      outs(%f1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e1 : tensor<4x16xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>

  %e2 = tensor.empty() : tensor<4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<4x16xf32>, tensor<16x4xf32>)
                      outs(%f2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %bias2 = linalg.broadcast ins(%b2 : tensor<4xf32>) outs(%e2 : tensor<4x4xf32>) dimensions = [0]
  %logits = linalg.add ins(%m2, %bias2 : tensor<4x4xf32>, tensor<4x4xf32>)
                       outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %probs = linalg.softmax dimension(1) ins(%logits : tensor<4x4xf32>)
                                       outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %probs : tensor<4x4xf32>
}
