// RUN: %e2e %s -o %t
// One module, its sizes known only when it runs: a 1-D sum called at sizes
// 1, 37 (prime, past two vectors with a remainder) and 100003 (many
// workgroups, a partial last one), and a 2-D bias add with relu over
// ?x16 at 1, 7 and 1031 rows, and a square over ?x? (two dynamic loops,
// each with its own factor of the workgroup grid) at 3x5 and 129x1031.
// ENTRY: add
// INPUT: 1xf32=random
// INPUT: 1xf32=random
// ENTRY: add
// INPUT: 37xf32=random
// INPUT: 37xf32=random
// ENTRY: add
// INPUT: 100003xf32=random
// INPUT: 100003xf32=random
// ENTRY: bias_relu
// INPUT: 1x16xf32=random
// INPUT: 16xf32=random
// ENTRY: bias_relu
// INPUT: 7x16xf32=random
// INPUT: 16xf32=random
// ENTRY: bias_relu
// INPUT: 1031x16xf32=random
// INPUT: 16xf32=random
// ENTRY: square
// INPUT: 3x5xf32=random
// ENTRY: square
// INPUT: 129x1031xf32=random

func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @bias_relu(%x: tensor<?x16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%n) : tensor<?x16xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<?x16xf32>, tensor<16xf32>) outs(%e : tensor<?x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

func.func @square(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.mul ins(%x, %x : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
