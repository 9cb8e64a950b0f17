// RUN: %e2e %s -o %t
// A small CNN block: same-padded 3x3 conv + bias + relu, 2x2 max pool,
// depthwise 3x3, then global average pooling (sum / count) and a dense layer.
// INPUT: 1x12x12x3xf32=random
// INPUT: 3x3x3x8xf32=random(-0.5, 0.5)
// INPUT: 8xf32=random(-0.1, 0.1)
// INPUT: 3x3x8xf32=random(-0.5, 0.5)
// INPUT: 8x5xf32=random

func.func @main(%img: tensor<1x12x12x3xf32>, %w1: tensor<3x3x3x8xf32>, %b1: tensor<8xf32>,
                %dw: tensor<3x3x8xf32>, %fc: tensor<8x5xf32>) -> tensor<1x5xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %img low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x12x12x3xf32> to tensor<1x14x14x3xf32>
  %e1 = tensor.empty() : tensor<1x12x12x8xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w1 : tensor<1x14x14x3xf32>, tensor<3x3x3x8xf32>) outs(%z1 : tensor<1x12x12x8xf32>) -> tensor<1x12x12x8xf32>
  %r1 = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<1x12x12x8xf32>, tensor<8xf32>) outs(%e1 : tensor<1x12x12x8xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x12x12x8xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x6x6x8xf32>
  %m2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r1, %win : tensor<1x12x12x8xf32>, tensor<2x2xf32>) outs(%m2 : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %e3 = tensor.empty() : tensor<1x4x4x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %d3 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pool, %dw : tensor<1x6x6x8xf32>, tensor<3x3x8xf32>) outs(%z3 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %e4 = tensor.empty() : tensor<1x8xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x8xf32>) -> tensor<1x8xf32>
  %gsum = linalg.reduce ins(%d3 : tensor<1x4x4x8xf32>) outs(%z4 : tensor<1x8xf32>) dimensions = [1, 2]
    (%a: f32, %o: f32) {
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    }
  %sixteen = arith.constant 16.0 : f32
  %gap = linalg.generic {
      indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%gsum : tensor<1x8xf32>) outs(%e4 : tensor<1x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.divf %a, %sixteen : f32
    linalg.yield %m : f32
  } -> tensor<1x8xf32>
  %e5 = tensor.empty() : tensor<1x5xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x5xf32>) -> tensor<1x5xf32>
  %out = linalg.matmul ins(%gap, %fc : tensor<1x8xf32>, tensor<8x5xf32>) outs(%z5 : tensor<1x5xf32>) -> tensor<1x5xf32>
  return %out : tensor<1x5xf32>
}
