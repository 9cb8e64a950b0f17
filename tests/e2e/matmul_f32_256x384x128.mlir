// RUN: %e2e %s -o %t
// A large-ish matmul, M=256 K=384 N=128: several workgroups, long reductions.
// INPUT: 256x384xf32=random
// INPUT: 384x128xf32=random
// Tolerance: each result sums 384 products of values in [-1, 1] (partial
// sums up to ~20 in magnitude). Both sides accumulate in f32 in different
// orders (the reference sequentially, kiln tiled/vectorized with FMA), so each
// is ~1e-5 off the exact sum; the atol covers results that cancel near zero.
// TOLERANCE: rtol=1e-5 atol=5e-5

func.func @main(%a: tensor<256x384xf32>, %b: tensor<384x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x384xf32>, tensor<384x128xf32>)
                     outs(%acc : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
