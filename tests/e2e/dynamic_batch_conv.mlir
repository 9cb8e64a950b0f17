// RUN: %e2e %s -o %t
// A batch-dynamic 3x3 convolution with padding 1, bias and relu (NHWC,
// HWCF), one module called at batch 1, 3 (prime) and 16.
// ENTRY: main
// INPUT: 1x12x12x8xf32=random
// INPUT: 3x3x8x16xf32=random(-0.2, 0.2)
// INPUT: 16xf32=random
// ENTRY: main
// INPUT: 3x12x12x8xf32=random
// INPUT: 3x3x8x16xf32=random(-0.2, 0.2)
// INPUT: 16xf32=random
// ENTRY: main
// INPUT: 16x12x12x8xf32=random
// INPUT: 3x3x8x16xf32=random(-0.2, 0.2)
// INPUT: 16xf32=random

func.func @main(%x: tensor<?x12x12x8xf32>, %f: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<?x12x12x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x12x12x8xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x12x12x8xf32> to tensor<?x14x14x8xf32>
  %e = tensor.empty(%n) : tensor<?x12x12x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x12x12x16xf32>) -> tensor<?x12x12x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<?x14x14x8xf32>, tensor<3x3x8x16xf32>) outs(%z : tensor<?x12x12x16xf32>) -> tensor<?x12x12x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<?x12x12x16xf32>, tensor<16xf32>) outs(%e : tensor<?x12x12x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x12x12x16xf32>
  return %r : tensor<?x12x12x16xf32>
}
