// A small convolutional block on an 8x8 RGB image (NHWC): pad by one,
// 3x3 convolution to 8 channels with bias and relu, 2x2 max pooling.
//   kiln-compile samples/conv.mlir -o /tmp/conv.kiln
//   kiln-run /tmp/conv.kiln --function=main --input="1x8x8x3xf32=0.25"

func.func @main(%image: tensor<1x8x8x3xf32>) -> tensor<1x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %filter = arith.constant dense<[
    [[[ 0.10, -0.20,  0.05,  0.30, -0.10,  0.15,  0.20, -0.05], [ 0.00,  0.10, -0.15,  0.05,  0.25, -0.20,  0.10,  0.05], [-0.10,  0.05,  0.20, -0.25,  0.10,  0.00, -0.05,  0.15]],
     [[ 0.20,  0.10, -0.05,  0.00,  0.15, -0.10,  0.05,  0.25], [-0.15,  0.20,  0.10,  0.05, -0.05,  0.30,  0.00, -0.10], [ 0.05, -0.10,  0.15,  0.20,  0.00,  0.05,  0.25, -0.15]],
     [[-0.05,  0.15,  0.10, -0.10,  0.20,  0.05, -0.20,  0.10], [ 0.10, -0.05,  0.00,  0.15, -0.10,  0.20,  0.05,  0.00], [ 0.25,  0.00, -0.10,  0.10,  0.05, -0.15,  0.10,  0.20]]],
    [[[ 0.05,  0.10,  0.20, -0.15,  0.00,  0.10, -0.05,  0.30], [ 0.15, -0.25,  0.05,  0.10,  0.20,  0.00,  0.10, -0.05], [-0.20,  0.10,  0.00,  0.05, -0.10,  0.25,  0.15,  0.10]],
     [[ 0.30,  0.05, -0.10,  0.20,  0.10, -0.05,  0.00,  0.15], [ 0.00,  0.20,  0.15, -0.10,  0.05,  0.10, -0.20,  0.25], [ 0.10, -0.15,  0.25,  0.00,  0.15,  0.05,  0.10, -0.10]],
     [[-0.10,  0.25,  0.00,  0.10, -0.05,  0.20,  0.15,  0.05], [ 0.20,  0.00, -0.05,  0.25,  0.10, -0.10,  0.05,  0.15], [ 0.05,  0.15,  0.10, -0.20,  0.25,  0.00, -0.10,  0.20]]],
    [[[ 0.15, -0.10,  0.25,  0.05,  0.10,  0.00,  0.20, -0.15], [-0.05,  0.20,  0.10,  0.15, -0.20,  0.05,  0.00,  0.10], [ 0.10,  0.05, -0.15,  0.20,  0.00,  0.25,  0.05, -0.05]],
     [[ 0.00,  0.15,  0.05, -0.05,  0.30,  0.10, -0.10,  0.20], [ 0.25, -0.10,  0.20,  0.00,  0.05,  0.15,  0.10, -0.20], [-0.15,  0.10,  0.05,  0.25, -0.05,  0.00,  0.20,  0.10]],
     [[ 0.20,  0.00, -0.20,  0.15,  0.05,  0.25,  0.10,  0.00], [ 0.05,  0.25,  0.10, -0.10,  0.15,  0.00, -0.05,  0.20], [ 0.10, -0.05,  0.20,  0.05, -0.15,  0.10,  0.25,  0.05]]]
  ]> : tensor<3x3x3x8xf32>
  %bias = arith.constant dense<[0.01, -0.02, 0.03, 0.00, 0.05, -0.01, 0.02, 0.04]> : tensor<8xf32>

  %padded = tensor.pad %image low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %filter : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>)
      outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %act = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x8x8x8xf32>, tensor<8xf32>) outs(%e : tensor<1x8x8x8xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x8xf32>

  %window = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x4x4x8xf32>
  %pinit = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%act, %window : tensor<1x8x8x8xf32>, tensor<2x2xf32>)
      outs(%pinit : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %pool : tensor<1x4x4x8xf32>
}
