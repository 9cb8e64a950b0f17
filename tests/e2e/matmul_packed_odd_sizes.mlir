// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.variants --variants=x86-64-v4,x86-64-v3,x86-64
// Packed matmuls (data tiling: pack + mmt4d + unpack) at sizes that do not
// divide the tiles: primes, two rows (narrow M0), ten columns (N padded to
// 16), K = 1, and a batch of odd matrices. Each is large enough to be packed.
// TOLERANCE: rtol=1e-5 atol=1e-4

// ENTRY: primes
// INPUT: 131x97xf32=random
// INPUT: 97x67xf32=random
func.func @primes(%a: tensor<131x97xf32>, %b: tensor<97x67xf32>) -> tensor<131x67xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<131x67xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<131x67xf32>) -> tensor<131x67xf32>
  %r = linalg.matmul ins(%a, %b : tensor<131x97xf32>, tensor<97x67xf32>) outs(%f : tensor<131x67xf32>) -> tensor<131x67xf32>
  return %r : tensor<131x67xf32>
}

// ENTRY: two_rows
// INPUT: 2x1024xf32=random
// INPUT: 1024x129xf32=random
func.func @two_rows(%a: tensor<2x1024xf32>, %b: tensor<1024x129xf32>) -> tensor<2x129xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x129xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x129xf32>) -> tensor<2x129xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x1024xf32>, tensor<1024x129xf32>) outs(%f : tensor<2x129xf32>) -> tensor<2x129xf32>
  return %r : tensor<2x129xf32>
}

// ENTRY: ten_columns
// INPUT: 64x1024xf32=random
// INPUT: 1024x10xf32=random
func.func @ten_columns(%a: tensor<64x1024xf32>, %b: tensor<1024x10xf32>) -> tensor<64x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x10xf32>) -> tensor<64x10xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1024xf32>, tensor<1024x10xf32>) outs(%f : tensor<64x10xf32>) -> tensor<64x10xf32>
  return %r : tensor<64x10xf32>
}

// ENTRY: k_one
// INPUT: 512x1xf32=random
// INPUT: 1x600xf32=random
func.func @k_one(%a: tensor<512x1xf32>, %b: tensor<1x600xf32>) -> tensor<512x600xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x600xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x600xf32>) -> tensor<512x600xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x1xf32>, tensor<1x600xf32>) outs(%f : tensor<512x600xf32>) -> tensor<512x600xf32>
  return %r : tensor<512x600xf32>
}

// ENTRY: batch_odd
// INPUT: 3x37x53xf32=random
// INPUT: 3x53x61xf32=random
func.func @batch_odd(%a: tensor<3x37x53xf32>, %b: tensor<3x53x61xf32>) -> tensor<3x37x61xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x37x61xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x37x53xf32>, tensor<3x53x61xf32>) outs(%f : tensor<3x37x61xf32>) -> tensor<3x37x61xf32>
  return %r : tensor<3x37x61xf32>
}

// Rows and columns overhanging their tiles in many workgroups: each
// workgroup takes 16 (AVX2) or 32 (AVX-512) of the 1000 columns, the last
// one fewer, and every one ends in a partial row tile.
// ENTRY: overhanging_workgroups
// INPUT: 50x64xf32=random
// INPUT: 64x1000xf32=random
func.func @overhanging_workgroups(%a: tensor<50x64xf32>, %b: tensor<64x1000xf32>) -> tensor<50x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<50x1000xf32>) -> tensor<50x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<50x64xf32>, tensor<64x1000xf32>) outs(%f : tensor<50x1000xf32>) -> tensor<50x1000xf32>
  return %r : tensor<50x1000xf32>
}

// Workgroups of several column tiles, the last of fewer (112 of 4000
// columns for AVX2, 96 for AVX-512), over rows overhanging their tiles:
// each unpacks its columns, however many tiles it holds, straight into
// the result.
// ENTRY: wide_workgroups
// INPUT: 50x16xf32=random
// INPUT: 16x4000xf32=random
func.func @wide_workgroups(%a: tensor<50x16xf32>, %b: tensor<16x4000xf32>) -> tensor<50x4000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<50x4000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<50x4000xf32>) -> tensor<50x4000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<50x16xf32>, tensor<16x4000xf32>) outs(%f : tensor<50x4000xf32>) -> tensor<50x4000xf32>
  return %r : tensor<50x4000xf32>
}

// An accumulator that is not zero: the packed init carries it.
// ENTRY: accumulate
// INPUT: 100x80xf32=random
// INPUT: 80x40xf32=random
// INPUT: 100x40xf32=random
func.func @accumulate(%a: tensor<100x80xf32>, %b: tensor<80x40xf32>, %c: tensor<100x40xf32>) -> tensor<100x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<100x80xf32>, tensor<80x40xf32>) outs(%c : tensor<100x40xf32>) -> tensor<100x40xf32>
  return %r : tensor<100x40xf32>
}

// An elementwise op writing "into" an argument across several workgroups:
// each workgroup copies only its own tile of the argument.
// ENTRY: into_argument
// INPUT: 256x256xf32=random
// INPUT: 256x256xf32=random
func.func @into_argument(%x: tensor<256x256xf32>, %acc: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x256xf32>) outs(%acc : tensor<256x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
