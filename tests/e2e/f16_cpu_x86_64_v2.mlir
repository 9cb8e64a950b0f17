// RUN: %e2e %s -o %t --compile-flag=--cpu=x86-64-v2
// f16 arithmetic and conversions compiled for x86-64-v2 (SSE4.2, no F16C):
// f16 <-> f32 conversions need software routines there.
// Tolerance: the second result is the exact f32 widening of the f16 matmul
// result, so it has f16 precision (summation order moves it by f16 ulps of
// ~1e-3); it gets the f16 default tolerance.
// TOLERANCE: rtol=1e-2 atol=1e-2
// INPUT: 4x8xf16=random
// INPUT: 8x6xf16=random

func.func @main(%a: tensor<4x8xf16>, %b: tensor<8x6xf16>) -> (tensor<4x6xf16>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x6xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<4x6xf16>) -> tensor<4x6xf16>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x6xf16>)
                     outs(%acc : tensor<4x6xf16>) -> tensor<4x6xf16>
  %e32 = tensor.empty() : tensor<4x6xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x6xf16>) outs(%e32 : tensor<4x6xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  return %m, %w : tensor<4x6xf16>, tensor<4x6xf32>
}
