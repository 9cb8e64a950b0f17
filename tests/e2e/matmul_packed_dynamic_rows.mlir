// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.v3 --compile-flag=--cpu=x86-64-v3
// A matmul whose rows are known only when it runs, packed like a static
// one: its LHS read in place (rows past the last block read the last row)
// and its packed result unpacked to the call's rows, with a bias and relu
// after it, in one dispatch; its RHS (7 panels of 32, 13 of 16) is packed
// in a dispatch of its own. Rows 1, 7 (less than a block), 37 (a prime, a
// partial last block) and 515 (many blocks and workgroups); K = 300 and
// N = 200 divide no tile. For AVX2 the packing of the RHS masks loads two
// registers wide, whose part past the last column LLVM must not load.
// ENTRY: main
// INPUT: 1x300xf32=random
// INPUT: 300x200xf32=random
// INPUT: 200xf32=random
// ENTRY: main
// INPUT: 7x300xf32=random
// INPUT: 300x200xf32=random
// INPUT: 200xf32=random
// ENTRY: main
// INPUT: 37x300xf32=random
// INPUT: 300x200xf32=random
// INPUT: 200xf32=random
// ENTRY: main
// INPUT: 515x300xf32=random
// INPUT: 300x200xf32=random
// INPUT: 200xf32=random
// TOLERANCE: rtol=1e-4 atol=1e-4

func.func @main(%a: tensor<?x300xf32>, %b: tensor<300x200xf32>, %bias: tensor<200xf32>) -> tensor<?x200xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x300xf32>
  %e = tensor.empty(%m) : tensor<?x200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x300xf32>, tensor<300x200xf32>) outs(%f : tensor<?x200xf32>) -> tensor<?x200xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x200xf32>, tensor<200xf32>) outs(%e : tensor<?x200xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<?x200xf32>
  return %r : tensor<?x200xf32>
}
