// RUN: %e2e %s -o %t
// tosa.resize, nearest neighbour and bilinear, 2x upsampling of an NHWC
// image (scale, offset and border as tosa.const_shape operands).
// ENTRY: nearest
// INPUT: 1x3x4x2xf32=random
// ENTRY: bilinear
// INPUT: 1x3x4x2xf32=random

func.func @nearest(%x: tensor<1x3x4x2xf32>) -> tensor<1x6x8x2xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x3x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x8x2xf32>
  return %r : tensor<1x6x8x2xf32>
}

func.func @bilinear(%x: tensor<1x3x4x2xf32>) -> tensor<1x6x8x2xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x3x4x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x6x8x2xf32>
  return %r : tensor<1x6x8x2xf32>
}
