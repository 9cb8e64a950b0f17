// RUN: %e2e %s -o %t
// Row sums and row maxima of a 300x1000 tensor (many workgroups over rows,
// long vectorized reductions).
// INPUT: 300x1000xf32=random
// Tolerance: sums of 1000 values in [-1, 1] (|sum| up to ~60). Measured
// against the exact sums: the sequential f32 reference is up to 4.5e-5 off,
// kiln's tiled sums 1.3e-5, so they may differ by ~6e-5 near zero.
// TOLERANCE: rtol=1e-5 atol=1e-4

func.func @main(%x: tensor<300x1000xf32>) -> (tensor<300xf32>, tensor<300xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<300xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %n = linalg.fill ins(%ninf : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<300x1000xf32>) outs(%z, %n : tensor<300xf32>, tensor<300xf32>) {
  ^bb0(%a: f32, %s: f32, %m: f32):
    %s2 = arith.addf %a, %s : f32
    %m2 = arith.maximumf %a, %m : f32
    linalg.yield %s2, %m2 : f32, f32
  } -> (tensor<300xf32>, tensor<300xf32>)
  return %r#0, %r#1 : tensor<300xf32>, tensor<300xf32>
}
