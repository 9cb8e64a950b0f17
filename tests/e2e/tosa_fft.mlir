// RUN: %e2e %s -o %t
// tosa.rfft2d and tosa.fft2d (forward and inverse) on small batches.
// ENTRY: rfft
// INPUT: 2x4x8xf32=random
// ENTRY: fft
// INPUT: 1x4x4xf32=random
// INPUT: 1x4x4xf32=random
// ENTRY: ifft
// INPUT: 1x4x4xf32=random
// INPUT: 1x4x4xf32=random
// TOLERANCE: rtol=1e-5 atol=1e-5

func.func @rfft(%x: tensor<2x4x8xf32>) -> (tensor<2x4x5xf32>, tensor<2x4x5xf32>) {
  %re, %im = tosa.rfft2d %x : (tensor<2x4x8xf32>) -> (tensor<2x4x5xf32>, tensor<2x4x5xf32>)
  return %re, %im : tensor<2x4x5xf32>, tensor<2x4x5xf32>
}

func.func @fft(%re: tensor<1x4x4xf32>, %im: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %r, %i = tosa.fft2d %re, %im {inverse = false} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>)
  return %r, %i : tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

func.func @ifft(%re: tensor<1x4x4xf32>, %im: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %r, %i = tosa.fft2d %re, %im {inverse = true} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>)
  return %r, %i : tensor<1x4x4xf32>, tensor<1x4x4xf32>
}
