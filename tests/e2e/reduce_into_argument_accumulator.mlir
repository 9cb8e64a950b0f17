// RUN: %e2e %s -o %t
// A reduction whose accumulator is a function argument (not a fill): the
// initial values must be added once, not once per tile/workgroup.
// INPUT: 11x130xf32=random
// INPUT: 11xf32=[100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100]
// Tolerance: the sums reach ~1100 where one f32 ulp is 6e-5; the reference
// adds the 130 terms to the accumulator one at a time and is measured ~5e-4
// off the exact sum (kiln is closer), hence atol + rtol*|x| ~ 1e-3 there.
// TOLERANCE: rtol=1e-6 atol=1e-4

func.func @main(%x: tensor<11x130xf32>, %acc: tensor<11xf32>) -> tensor<11xf32> {
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<11x130xf32>) outs(%acc : tensor<11xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<11xf32>
  return %r : tensor<11xf32>
}
