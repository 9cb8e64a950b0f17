// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.variants --variants=x86-64-v4,x86-64-v3,x86-64
// Packed contractions that unpack their result in their own dispatch,
// with the epilogue fused after the unpack, compiled for the host:
// sizes that divide no tile (primes, three rows, a long K), a result
// transposed after the unpack, and a batch with an elementwise epilogue.
// TOLERANCE: rtol=1e-5 atol=1e-4

// ENTRY: primes_bias_relu
// INPUT: 131x97xf32=random
// INPUT: 97x67xf32=random
// INPUT: 67xf32=random
func.func @primes_bias_relu(%a: tensor<131x97xf32>, %b: tensor<97x67xf32>, %bias: tensor<67xf32>) -> tensor<131x67xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<131x67xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<131x67xf32>) -> tensor<131x67xf32>
  %m = linalg.matmul ins(%a, %b : tensor<131x97xf32>, tensor<97x67xf32>) outs(%f : tensor<131x67xf32>) -> tensor<131x67xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<131x67xf32>, tensor<67xf32>) outs(%e : tensor<131x67xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<131x67xf32>
  return %r : tensor<131x67xf32>
}

// ENTRY: three_rows_transposed_result
// INPUT: 3x4099xf32=random
// INPUT: 4099x97xf32=random
func.func @three_rows_transposed_result(%a: tensor<3x4099xf32>, %b: tensor<4099x97xf32>) -> tensor<97x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x97xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x97xf32>) -> tensor<3x97xf32>
  %m = linalg.matmul ins(%a, %b : tensor<3x4099xf32>, tensor<4099x97xf32>) outs(%f : tensor<3x97xf32>) -> tensor<3x97xf32>
  %et = tensor.empty() : tensor<97x3xf32>
  %t = linalg.transpose ins(%m : tensor<3x97xf32>) outs(%et : tensor<97x3xf32>) permutation = [1, 0]
  return %t : tensor<97x3xf32>
}

// ENTRY: wide_k_scaled
// INPUT: 37x2053xf32=random
// INPUT: 2053x131xf32=random
func.func @wide_k_scaled(%a: tensor<37x2053xf32>, %b: tensor<2053x131xf32>) -> tensor<37x131xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<37x131xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37x131xf32>) -> tensor<37x131xf32>
  %m = linalg.matmul ins(%a, %b : tensor<37x2053xf32>, tensor<2053x131xf32>) outs(%f : tensor<37x131xf32>) -> tensor<37x131xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<37x131xf32>) outs(%e : tensor<37x131xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %half : f32
    linalg.yield %s : f32
  } -> tensor<37x131xf32>
  return %r : tensor<37x131xf32>
}

// ENTRY: batch_odd_bias
// INPUT: 3x29x131xf32=random
// INPUT: 3x131x43xf32=random
// INPUT: 3x29x43xf32=random
func.func @batch_odd_bias(%a: tensor<3x29x131xf32>, %b: tensor<3x131x43xf32>, %c: tensor<3x29x43xf32>) -> tensor<3x29x43xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x29x43xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x29x43xf32>) -> tensor<3x29x43xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<3x29x131xf32>, tensor<3x131x43xf32>) outs(%f : tensor<3x29x43xf32>) -> tensor<3x29x43xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m, %c : tensor<3x29x43xf32>, tensor<3x29x43xf32>) outs(%e : tensor<3x29x43xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<3x29x43xf32>
  return %r : tensor<3x29x43xf32>
}
