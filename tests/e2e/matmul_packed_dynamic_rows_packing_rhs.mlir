// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.v3 --compile-flag=--cpu=x86-64-v3
// A matmul whose rows are known only when it runs, with enough columns
// (N = 520: 17 panels of 32, 33 of 16, the last partial) that one dispatch
// packs its RHS per workgroup, reads its LHS in place and unpacks its
// result with a bias and relu after it. Rows 1, 13 (a prime, a partial
// block) and 1031 (past the 1024 rows a workgroup takes: a second row of
// workgroups, which packs its panels again); K = 97 divides no tile.
// ENTRY: main
// INPUT: 1x97xf32=random
// INPUT: 97x520xf32=random
// INPUT: 520xf32=random
// ENTRY: main
// INPUT: 13x97xf32=random
// INPUT: 97x520xf32=random
// INPUT: 520xf32=random
// ENTRY: main
// INPUT: 1031x97xf32=random
// INPUT: 97x520xf32=random
// INPUT: 520xf32=random
// TOLERANCE: rtol=1e-4 atol=1e-4

func.func @main(%a: tensor<?x97xf32>, %b: tensor<97x520xf32>, %bias: tensor<520xf32>) -> tensor<?x520xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x97xf32>
  %e = tensor.empty(%m) : tensor<?x520xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x520xf32>) -> tensor<?x520xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x97xf32>, tensor<97x520xf32>) outs(%f : tensor<?x520xf32>) -> tensor<?x520xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x520xf32>, tensor<520xf32>) outs(%e : tensor<?x520xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<?x520xf32>
  return %r : tensor<?x520xf32>
}
