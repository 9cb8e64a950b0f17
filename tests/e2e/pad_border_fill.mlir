// RUN: %e2e %s -o %t
// Pads whose workgroups fill only the elements around the copied source:
// pads far wider than the source on one side, so that whole workgroup tiles
// (of the pad's own dispatch and of a convolution that reads it) lie in the
// padding before the source or after it, with nonzero padding values, and
// a concat (two inserts, whose base is filled whole).
// INPUT: 1x9x240xf32=random
// INPUT: 1x6x58x8xf32=random
// INPUT: 3x3x8x64xf32=random
// INPUT: 2x5x7xf32=random

func.func @main(%a: tensor<1x9x240xf32>, %x: tensor<1x6x58x8xf32>,
                %f: tensor<3x3x8x64xf32>, %b: tensor<2x5x7xf32>)
    -> (tensor<1x190x253xf32>, tensor<1x25x60x64xf32>, tensor<5x6x7xf32>) {
  %one = arith.constant 1.5 : f32
  %quarter = arith.constant 0.25 : f32
  %zero = arith.constant 0.0 : f32

  // 161 rows of padding above 9 source rows and 20 below; 4 columns left, 9
  // right.
  %pa = tensor.pad %a low[0, 161, 4] high[0, 20, 9] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %one : f32
  } : tensor<1x9x240xf32> to tensor<1x190x253xf32>

  // A convolution whose image has 17 rows of padding above 6 and 4 below:
  // its first output rows read padding only.
  %px = tensor.pad %x low[0, 17, 1, 0] high[0, 4, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %quarter : f32
  } : tensor<1x6x58x8xf32> to tensor<1x27x62x8xf32>
  %e = tensor.empty() : tensor<1x25x60x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x25x60x64xf32>) -> tensor<1x25x60x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%px, %f : tensor<1x27x62x8xf32>, tensor<3x3x8x64xf32>)
      outs(%acc : tensor<1x25x60x64xf32>) -> tensor<1x25x60x64xf32>

  // Two inserts on a filled base: rows 0-1 and 3-4, row 2 and 5 the fill.
  %base = tensor.empty() : tensor<5x6x7xf32>
  %filled = linalg.fill ins(%one : f32) outs(%base : tensor<5x6x7xf32>) -> tensor<5x6x7xf32>
  %c0 = tensor.insert_slice %b into %filled[0, 0, 0] [2, 5, 7] [1, 1, 1]
      : tensor<2x5x7xf32> into tensor<5x6x7xf32>
  %c1 = tensor.insert_slice %b into %c0[3, 1, 0] [2, 5, 7] [1, 1, 1]
      : tensor<2x5x7xf32> into tensor<5x6x7xf32>
  return %pa, %conv, %c1 : tensor<1x190x253xf32>, tensor<1x25x60x64xf32>, tensor<5x6x7xf32>
}
