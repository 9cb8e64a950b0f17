// RUN: %e2e %s -o %t
// Packs and unpacks whose outer sizes are known only when they run: a
// padded pack into 8x4 tiles with its outer dims transposed, at 1x1, 13x7
// (prime rows, tiles that overhang both ends) and 64x32 (no padding), and
// the unpack of 8x4 tiles back to rows and columns cut from them (sized
// like its second input), 1x1 tiles into 3x2 and 5x9 tiles into 37x33.
// ENTRY: pack
// INPUT: 1x1xf32=random
// ENTRY: pack
// INPUT: 13x7xf32=random
// ENTRY: pack
// INPUT: 64x32xf32=random
// ENTRY: unpack
// INPUT: 1x1x8x4xf32=random
// INPUT: 3x2xf32=0
// ENTRY: unpack
// INPUT: 5x9x8x4xf32=random
// INPUT: 37x33xf32=0

func.func @pack(%x: tensor<?x?xf32>) -> tensor<?x?x8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %c8 = arith.constant 8 : index
  %c4 = arith.constant 4 : index
  %mo = arith.ceildivsi %m, %c8 : index
  %no = arith.ceildivsi %n, %c4 : index
  %init = tensor.empty(%no, %mo) : tensor<?x?x8x4xf32>
  %p = linalg.pack %x padding_value(%pad : f32) outer_dims_perm = [1, 0]
      inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %init
      : tensor<?x?xf32> -> tensor<?x?x8x4xf32>
  return %p : tensor<?x?x8x4xf32>
}

func.func @unpack(%p: tensor<?x?x8x4xf32>, %like: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %like, %c0 : tensor<?x?xf32>
  %n = tensor.dim %like, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %init
      : tensor<?x?x8x4xf32> -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}
