// RUN: %e2e %s -o %t
// A larger convolution split over many workgroups: 1x58x58x16 * 3x3x16x32
// -> 1x56x56x32 (14.5M multiply-adds), followed by relu.
// INPUT: 1x58x58x16xf32=random
// INPUT: 3x3x16x32xf32=random
// Tolerance: each output sums 144 products (|partial sums| up to ~10) and
// there are 100k outputs; the sequential reference and kiln's vectorized
// order each drift a few 1e-6 from the exact sums (max difference measured
// 5.7e-6), so the atol leaves room for outputs that cancel near zero.
// TOLERANCE: rtol=1e-5 atol=3e-5

func.func @main(%in: tensor<1x58x58x16xf32>, %filter: tensor<3x3x16x32xf32>) -> tensor<1x56x56x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x56x56x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x58x58x16xf32>, tensor<3x3x16x32xf32>)
      outs(%acc : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x56x56x32xf32>) outs(%empty : tensor<1x56x56x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x56x56x32xf32>
  return %r : tensor<1x56x56x32xf32>
}
