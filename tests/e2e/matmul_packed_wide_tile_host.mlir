// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.variants --variants=x86-64-v4,x86-64-v3,x86-64
// Packed contractions compiled for the host (and in one module for three
// CPUs, whose AVX2 and SSE code compute the AVX-512 layout's tiles in
// register blocks) with many rows, columns and a
// deep K: on AVX-512 they take the wide accumulator block (6 rows of 4
// vectors), elsewhere the default one. Rows, columns and K divide neither
// block (257 = 42 x 6 + 5, 263 columns past four 64-wide panels); one
// contraction carries a bias and relu epilogue, and one is a batch.
// TOLERANCE: rtol=1e-5 atol=1e-3

// ENTRY: primes
// INPUT: 257x521xf32=random
// INPUT: 521x263xf32=random
func.func @primes(%a: tensor<257x521xf32>, %b: tensor<521x263xf32>) -> tensor<257x263xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257x263xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<257x263xf32>) -> tensor<257x263xf32>
  %r = linalg.matmul ins(%a, %b : tensor<257x521xf32>, tensor<521x263xf32>) outs(%f : tensor<257x263xf32>) -> tensor<257x263xf32>
  return %r : tensor<257x263xf32>
}

// ENTRY: bias_relu
// INPUT: 300x600xf32=random
// INPUT: 600x320xf32=random
// INPUT: 320xf32=random
func.func @bias_relu(%a: tensor<300x600xf32>, %b: tensor<600x320xf32>, %bias: tensor<320xf32>) -> tensor<300x320xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<300x320xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<300x320xf32>) -> tensor<300x320xf32>
  %m = linalg.matmul ins(%a, %b : tensor<300x600xf32>, tensor<600x320xf32>) outs(%f : tensor<300x320xf32>) -> tensor<300x320xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<300x320xf32>, tensor<320xf32>) outs(%e : tensor<300x320xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %c = arith.subf %s, %half : f32
    %t = arith.maximumf %c, %zero : f32
    linalg.yield %t : f32
  } -> tensor<300x320xf32>
  return %r : tensor<300x320xf32>
}

// ENTRY: batch
// INPUT: 2x263x530xf32=random
// INPUT: 2x530x270xf32=random
func.func @batch(%a: tensor<2x263x530xf32>, %b: tensor<2x530x270xf32>) -> tensor<2x263x270xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x263x270xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x263x270xf32>) -> tensor<2x263x270xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x263x530xf32>, tensor<2x530x270xf32>) outs(%f : tensor<2x263x270xf32>) -> tensor<2x263x270xf32>
  return %r : tensor<2x263x270xf32>
}
