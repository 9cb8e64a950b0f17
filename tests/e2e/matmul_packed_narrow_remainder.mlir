// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.v3 --compile-flag=--cpu=x86-64-v3
// A packed contraction's last column tile, of fewer columns than its
// accumulator tile holds, is computed in chunks of whole vector registers
// (the binary digits of its width rounded up to a register). On AVX-512
// the host's code takes 64-column tiles for 259 rows over K = 401: 296
// columns leave 40 (chunks of 32 and 16), 273 leave 17 (one of 32), 257
// leave 1 (one of 16) and 305 leave 49 (the whole tile); 13 rows take
// 32-column tiles, and 104 columns leave 8 (one of 16). x86-64-v3 code
// takes 16-column tiles, of which each size leaves 8 columns or fewer (one
// chunk of 8). A batch, and a bias and relu epilogue after the unpack, take
// the same chunks.
// TOLERANCE: rtol=1e-5 atol=1e-4

// ENTRY: two_chunks
// INPUT: 259x401xf32=random
// INPUT: 401x296xf32=random
func.func @two_chunks(%a: tensor<259x401xf32>, %b: tensor<401x296xf32>) -> tensor<259x296xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<259x296xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<259x296xf32>) -> tensor<259x296xf32>
  %r = linalg.matmul ins(%a, %b : tensor<259x401xf32>, tensor<401x296xf32>) outs(%f : tensor<259x296xf32>) -> tensor<259x296xf32>
  return %r : tensor<259x296xf32>
}

// ENTRY: one_chunk
// INPUT: 259x401xf32=random
// INPUT: 401x273xf32=random
func.func @one_chunk(%a: tensor<259x401xf32>, %b: tensor<401x273xf32>) -> tensor<259x273xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<259x273xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<259x273xf32>) -> tensor<259x273xf32>
  %r = linalg.matmul ins(%a, %b : tensor<259x401xf32>, tensor<401x273xf32>) outs(%f : tensor<259x273xf32>) -> tensor<259x273xf32>
  return %r : tensor<259x273xf32>
}

// ENTRY: one_column
// INPUT: 259x401xf32=random
// INPUT: 401x257xf32=random
func.func @one_column(%a: tensor<259x401xf32>, %b: tensor<401x257xf32>) -> tensor<259x257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<259x257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<259x257xf32>) -> tensor<259x257xf32>
  %r = linalg.matmul ins(%a, %b : tensor<259x401xf32>, tensor<401x257xf32>) outs(%f : tensor<259x257xf32>) -> tensor<259x257xf32>
  return %r : tensor<259x257xf32>
}

// ENTRY: whole_tile
// INPUT: 259x401xf32=random
// INPUT: 401x305xf32=random
func.func @whole_tile(%a: tensor<259x401xf32>, %b: tensor<401x305xf32>) -> tensor<259x305xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<259x305xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<259x305xf32>) -> tensor<259x305xf32>
  %r = linalg.matmul ins(%a, %b : tensor<259x401xf32>, tensor<401x305xf32>) outs(%f : tensor<259x305xf32>) -> tensor<259x305xf32>
  return %r : tensor<259x305xf32>
}

// ENTRY: narrow_tile
// INPUT: 13x401xf32=random
// INPUT: 401x104xf32=random
func.func @narrow_tile(%a: tensor<13x401xf32>, %b: tensor<401x104xf32>) -> tensor<13x104xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x104xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<13x104xf32>) -> tensor<13x104xf32>
  %r = linalg.matmul ins(%a, %b : tensor<13x401xf32>, tensor<401x104xf32>) outs(%f : tensor<13x104xf32>) -> tensor<13x104xf32>
  return %r : tensor<13x104xf32>
}

// ENTRY: batch
// INPUT: 2x259x401xf32=random
// INPUT: 2x401x296xf32=random
func.func @batch(%a: tensor<2x259x401xf32>, %b: tensor<2x401x296xf32>) -> tensor<2x259x296xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x259x296xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x259x296xf32>) -> tensor<2x259x296xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x259x401xf32>, tensor<2x401x296xf32>) outs(%f : tensor<2x259x296xf32>) -> tensor<2x259x296xf32>
  return %r : tensor<2x259x296xf32>
}

// ENTRY: bias_relu
// INPUT: 259x401xf32=random
// INPUT: 401x296xf32=random
// INPUT: 296xf32=random
func.func @bias_relu(%a: tensor<259x401xf32>, %b: tensor<401x296xf32>, %bias: tensor<296xf32>) -> tensor<259x296xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<259x296xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<259x296xf32>) -> tensor<259x296xf32>
  %m = linalg.matmul ins(%a, %b : tensor<259x401xf32>, tensor<401x296xf32>) outs(%f : tensor<259x296xf32>) -> tensor<259x296xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<259x296xf32>, tensor<296xf32>) outs(%e : tensor<259x296xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<259x296xf32>
  return %r : tensor<259x296xf32>
}
