// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-vectorize,canonicalize,cse))" | FileCheck %s

// Tests that the accumulator of a tiled matmul becomes a vector carried in
// registers through the K loop (read and written nowhere inside it), updated
// by a vector.contract, and that the epilogue applies to that register value
// before the one store, with no linalg op left.
// CHECK-LABEL: func.func @mm
//       CHECK:   %[[ACC:.+]] = scf.for %{{.+}} = %c0 to %c256 step %c1 iter_args(%[[A:.+]] = %{{.+}}) -> (vector<8x32xf32>)
//   CHECK-NOT:     vector.transfer_write
//       CHECK:     vector.contract {{.*}}, %[[A]] : vector<8x1xf32>, vector<1x32xf32> into vector<8x32xf32>
//       CHECK:   %[[MAX:.+]] = arith.maximumf %[[ACC]], {{.*}} : vector<8x32xf32>
//       CHECK:   vector.transfer_write %[[MAX]]
//   CHECK-NOT:   linalg.
func.func @mm(%a: tensor<8x256xf32>, %b: tensor<256x32xf32>, %out: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %f) -> (tensor<8x32xf32>) {
    %as = tensor.extract_slice %a[0, %k] [8, 1] [1, 1] : tensor<8x256xf32> to tensor<8x1xf32>
    %bs = tensor.extract_slice %b[%k, 0] [1, 32] [1, 1] : tensor<256x32xf32> to tensor<1x32xf32>
    %r = linalg.matmul ins(%as, %bs : tensor<8x1xf32>, tensor<1x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    scf.yield %r : tensor<8x32xf32>
  }
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x32xf32>) outs(%out : tensor<8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  return %g : tensor<8x32xf32>
}

// -----

// Tests that a contraction into a 0-d result (linalg.dot) is vectorized as a
// reduction (the vectorizer's named contraction would take a vector<f32>
// accumulator, which vector.contract rejects); the reduction then becomes a
// vector.contract into a scalar.
// CHECK-LABEL: func.func @dot
//       CHECK:   vector.contract {{.*}} : vector<16xf32>, vector<16xf32> into f32
//   CHECK-NOT:   linalg.
func.func @dot(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<f32>) -> tensor<f32> {
  %d = linalg.dot ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%c : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

// -----

// Tests that a pack tile whose source rows may end inside it (the padded
// last rows of a matrix) reads through a mask and fills the rest with the
// padding value, at its full static size, and reads unmasked when its rows
// are all there.
// CHECK-LABEL: func.func @padded_pack
//       CHECK:   %[[ROWS:.+]] = tensor.dim
//       CHECK:   %[[MASK:.+]] = vector.create_mask %[[ROWS]], %c8 : vector<6x8xi1>
//       CHECK:   %[[INSIDE:.+]] = arith.cmpi sge, %[[ROWS]], %c6
//       CHECK:   %[[READ:.+]] = scf.if %[[INSIDE]] -> (vector<6x8xf32>) {
//  CHECK-NEXT:     %[[WHOLE:.+]] = vector.transfer_read {{.*}} : tensor<?x8xf32>, vector<6x8xf32>
//  CHECK-NEXT:     scf.yield %[[WHOLE]]
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %[[PART:.+]] = vector.mask %[[MASK]] { vector.transfer_read {{.*}} : tensor<?x8xf32>, vector<6x8xf32> }
//  CHECK-NEXT:     scf.yield %[[PART]]
//       CHECK:   vector.shape_cast %[[READ]]
//       CHECK:   vector.transfer_write {{.*}} : vector<1x8x6x1xf32>, tensor<1x8x6x1xf32>
//   CHECK-NOT:   linalg.pack
func.func @padded_pack(%src: tensor<?x8xf32>, %dest: tensor<1x8x6x1xf32>) -> tensor<1x8x6x1xf32> {
  %zero = arith.constant 0.0 : f32
  %p = linalg.pack %src padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %dest
      : tensor<?x8xf32> -> tensor<1x8x6x1xf32>
  return %p : tensor<1x8x6x1xf32>
}

// -----

// Tests that an unpack of a whole packed tile into rows that end inside it
// writes only the rows that exist (the write is clipped, not masked).
// CHECK-LABEL: func.func @partial_unpack
//       CHECK:   %[[V:.+]] = vector.transfer_read {{.*}} : tensor<1x1x6x16xf32>, vector<1x1x6x16xf32>
//       CHECK:   vector.transfer_write %{{.+}}, %{{.+}}[%c0, %c0] {in_bounds = [false, true]} : vector<6x16xf32>, tensor<4x16xf32>
//   CHECK-NOT:   linalg.unpack
func.func @partial_unpack(%src: tensor<1x1x6x16xf32>, %dest: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %u = linalg.unpack %src inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %dest
      : tensor<1x1x6x16xf32> -> tensor<4x16xf32>
  return %u : tensor<4x16xf32>
}

// -----

// Tests that an unpack whose destination size is only known at run time (the
// last rows of the last workgroup) becomes ops that bufferize and run as
// loops: here, with one outer tile, a slice of its rows.
// CHECK-LABEL: func.func @dynamic_unpack
//       CHECK:   %[[ROWS:.+]] = tensor.dim %{{.+}}, %c0 : tensor<?x16xf32>
//       CHECK:   tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 1, %[[ROWS]], 16]
//   CHECK-NOT:   linalg.unpack
func.func @dynamic_unpack(%src: tensor<1x1x6x16xf32>, %dest: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %u = linalg.unpack %src inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %dest
      : tensor<1x1x6x16xf32> -> tensor<?x16xf32>
  return %u : tensor<?x16xf32>
}

// -----

// Tests that an mmt4d tile whose LHS is a pack read in place reads its LHS
// straight from the pack's source: one element of each of the 8 rows at
// column k (a read down the rows, element (m1 * 8 + i, k)), and the pack
// is gone. The RHS tile is read from its packed operand as before.
// CHECK-LABEL: func.func @mmt4d_lhs_read_in_place
//  CHECK-SAME:   %[[A:[a-zA-Z0-9]+]]: tensor<64x96xf32>
//       CHECK:   scf.for %[[K:.+]] = %c0 to %c96 step %c1
//       CHECK:     %[[ROW:.+]] = affine.apply #{{.+}}()[%{{.+}}]
//       CHECK:     vector.transfer_read %[[A]][%[[ROW]], %[[K]]], %{{.+}} {in_bounds = [true, true, true, true], permutation_map = #{{.+}}} : tensor<64x96xf32>, vector<1x1x8x1xf32>
//       CHECK:     vector.contract
//   CHECK-NOT:   linalg.pack
func.func @mmt4d_lhs_read_in_place(%a: tensor<64x96xf32>, %b: tensor<2x96x32x1xf32>, %m1: index) -> tensor<1x1x8x32xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %ep = tensor.empty() : tensor<8x96x8x1xf32>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ep {kiln.read_in_place} : tensor<64x96xf32> -> tensor<8x96x8x1xf32>
  %e = tensor.empty() : tensor<1x1x8x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
  %r = scf.for %k = %c0 to %c96 step %c1 iter_args(%acc = %f) -> (tensor<1x1x8x32xf32>) {
    %as = tensor.extract_slice %p[%m1, %k, 0, 0] [1, 1, 8, 1] [1, 1, 1, 1] : tensor<8x96x8x1xf32> to tensor<1x1x8x1xf32>
    %bs = tensor.extract_slice %b[0, %k, 0, 0] [1, 1, 32, 1] [1, 1, 1, 1] : tensor<2x96x32x1xf32> to tensor<1x1x32x1xf32>
    %t = linalg.mmt4d ins(%as, %bs : tensor<1x1x8x1xf32>, tensor<1x1x32x1xf32>) outs(%acc : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
    scf.yield %t : tensor<1x1x8x32xf32>
  }
  return %r : tensor<1x1x8x32xf32>
}

// -----

// Tests that a tile of a padded pack read in place (100 rows in tiles of 8)
// reads each of its 8 rows on its own, at row min(m1 * 8 + i, 99): the last
// tile's padded rows read the source's last row, never past its end.
//   CHECK-DAG: #[[$ROW0:.+]] = affine_map<()[s0] -> (99, s0 * 8)>
//   CHECK-DAG: #[[$ROW7:.+]] = affine_map<()[s0] -> (99, s0 * 8 + 7)>
// CHECK-LABEL: func.func @mmt4d_padded_lhs_read_in_place
//  CHECK-SAME:   %[[A:[a-zA-Z0-9]+]]: tensor<100x96xf32>
//  CHECK-SAME:   %[[M1:[a-zA-Z0-9]+]]: index
//       CHECK:   scf.for %[[K:.+]] = %c0 to %c96 step %c1
//       CHECK:     %[[ROW0:.+]] = affine.min #[[$ROW0]]()[%[[M1]]]
//       CHECK:     vector.transfer_read %[[A]][%[[ROW0]], %[[K]]], %{{.+}} : tensor<100x96xf32>, vector<1x1x1x1xf32>
//       CHECK:     vector.insert_strided_slice {{.*}}offsets = [0, 0, 0, 0]
// CHECK-COUNT-6:   vector.insert_strided_slice
//       CHECK:     %[[ROW7:.+]] = affine.min #[[$ROW7]]()[%[[M1]]]
//       CHECK:     vector.transfer_read %[[A]][%[[ROW7]], %[[K]]]
//       CHECK:     vector.insert_strided_slice {{.*}}offsets = [0, 0, 7, 0]
//       CHECK:     vector.contract
//   CHECK-NOT:   linalg.pack
func.func @mmt4d_padded_lhs_read_in_place(%a: tensor<100x96xf32>, %b: tensor<2x96x32x1xf32>, %m1: index) -> tensor<1x1x8x32xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %ep = tensor.empty() : tensor<13x96x8x1xf32>
  %p = linalg.pack %a padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ep {kiln.read_in_place} : tensor<100x96xf32> -> tensor<13x96x8x1xf32>
  %e = tensor.empty() : tensor<1x1x8x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
  %r = scf.for %k = %c0 to %c96 step %c1 iter_args(%acc = %f) -> (tensor<1x1x8x32xf32>) {
    %as = tensor.extract_slice %p[%m1, %k, 0, 0] [1, 1, 8, 1] [1, 1, 1, 1] : tensor<13x96x8x1xf32> to tensor<1x1x8x1xf32>
    %bs = tensor.extract_slice %b[0, %k, 0, 0] [1, 1, 32, 1] [1, 1, 1, 1] : tensor<2x96x32x1xf32> to tensor<1x1x32x1xf32>
    %t = linalg.mmt4d ins(%as, %bs : tensor<1x1x8x1xf32>, tensor<1x1x32x1xf32>) outs(%acc : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
    scf.yield %t : tensor<1x1x8x32xf32>
  }
  return %r : tensor<1x1x8x32xf32>
}

// -----

// Tests that a tile of a pack read in place whose source is a workgroup's
// slice of rows, of a size known only at run time, reads each of its 8 rows
// at min(m1 * 8 + i, rows - 1): the last workgroup's slice may end inside a
// tile, and its padded rows must not read past the slice.
//   CHECK-DAG: #[[$ROW0:.+]] = affine_map<()[s0, s1] -> (s1 - 1, s0 * 8)>
//   CHECK-DAG: #[[$ROW7:.+]] = affine_map<()[s0, s1] -> (s1 - 1, s0 * 8 + 7)>
// CHECK-LABEL: func.func @mmt4d_slice_lhs_read_in_place
//  CHECK-SAME:   %[[A:[a-zA-Z0-9]+]]: tensor<?x96xf32>
//  CHECK-SAME:   %[[M1:[a-zA-Z0-9]+]]: index
//       CHECK:   scf.for %[[K:.+]] = %c0 to %c96 step %c1
//       CHECK:     %[[ROWS:.+]] = tensor.dim %[[A]], %c0
//       CHECK:     %[[ROW0:.+]] = affine.min #[[$ROW0]]()[%[[M1]], %[[ROWS]]]
//       CHECK:     vector.transfer_read %[[A]][%[[ROW0]], %[[K]]]
//       CHECK:     %[[ROW7:.+]] = affine.min #[[$ROW7]]()[%[[M1]], %[[ROWS]]]
//       CHECK:     vector.transfer_read %[[A]][%[[ROW7]], %[[K]]]
//       CHECK:     vector.contract
//   CHECK-NOT:   linalg.pack
func.func @mmt4d_slice_lhs_read_in_place(%a: tensor<?x96xf32>, %b: tensor<2x96x32x1xf32>, %m1: index, %tiles: index) -> tensor<1x1x8x32xf32> {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %ep = tensor.empty(%tiles) : tensor<?x96x8x1xf32>
  %p = linalg.pack %a padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ep {kiln.read_in_place} : tensor<?x96xf32> -> tensor<?x96x8x1xf32>
  %e = tensor.empty() : tensor<1x1x8x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
  %r = scf.for %k = %c0 to %c96 step %c1 iter_args(%acc = %f) -> (tensor<1x1x8x32xf32>) {
    %as = tensor.extract_slice %p[%m1, %k, 0, 0] [1, 1, 8, 1] [1, 1, 1, 1] : tensor<?x96x8x1xf32> to tensor<1x1x8x1xf32>
    %bs = tensor.extract_slice %b[0, %k, 0, 0] [1, 1, 32, 1] [1, 1, 1, 1] : tensor<2x96x32x1xf32> to tensor<1x1x32x1xf32>
    %t = linalg.mmt4d ins(%as, %bs : tensor<1x1x8x1xf32>, tensor<1x1x32x1xf32>) outs(%acc : tensor<1x1x8x32xf32>) -> tensor<1x1x8x32xf32>
    scf.yield %t : tensor<1x1x8x32xf32>
  }
  return %r : tensor<1x1x8x32xf32>
}

// -----

// Tests that one tile of a pack whose tile sizes are known only at run time
// is copied as a padded slice of its source, transposed into place.
// CHECK-LABEL: func.func @pack_dynamic_tile
//   CHECK-NOT:   linalg.pack
//       CHECK:   tensor.pad
//       CHECK:   linalg.transpose
//       CHECK:   tensor.insert_slice
func.func @pack_dynamic_tile(%src: tensor<?x?xi32>, %dest: tensor<1x1x?x?xi32>, %t0: index, %t1: index) -> tensor<1x1x?x?xi32> {
  %zero = arith.constant 0 : i32
  %p = linalg.pack %src padding_value(%zero : i32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [%t0, %t1] into %dest
      : tensor<?x?xi32> -> tensor<1x1x?x?xi32>
  return %p : tensor<1x1x?x?xi32>
}

// -----

// Tests that a convolution's patches, tiled to one window position and 8
// channels, read their input at the tile's offset as one vector (the window's
// sums over unit loops are 0), where a sum in the read's map kept the tile
// scalar.
// CHECK-LABEL: func.func @patches_window_tile
//  CHECK-SAME:   %[[IN:[^:]+]]: tensor<1x1x1x1x8xf32>
//       CHECK:   %[[V:.+]] = vector.transfer_read %[[IN]]{{.*}} : tensor<1x1x1x1x8xf32>, vector<1x1x1x1x1x1x8xf32>
//       CHECK:   vector.transfer_write %[[V]], {{.*}} : vector<1x1x1x1x1x1x8xf32>, tensor<1x1x1x1x1x1x8xf32>
//   CHECK-NOT:   linalg.generic
func.func @patches_window_tile(%in: tensor<1x1x1x1x8xf32>, %out: tensor<1x1x1x1x1x1x8xf32>) -> tensor<1x1x1x1x1x1x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, kh, kw, c) -> (n, oh, ow, g, kh, kw, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%in : tensor<1x1x1x1x8xf32>) outs(%out : tensor<1x1x1x1x1x1x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x1x1x1x1x1x8xf32>
  return %r : tensor<1x1x1x1x1x1x8xf32>
}

// -----

// Tests that a direct grouped convolution tiled to 4 output columns of
// stride 2 (its input tile 7 columns wide) and one tap and input channel
// reads every second column of its tile through a strided slice, and is
// vectorized as a contraction of the strided read by the filter.
// CHECK-LABEL: func.func @strided_window_tile
//  CHECK-SAME:   %[[IN:[^:]+]]: tensor<1x1x7x1x1xf32>
//       CHECK:   %[[S:.+]] = tensor.extract_slice %[[IN]][0, 0, 0, 0, 0] [1, 1, 4, 1, 1] [1, 1, 2, 1, 1] : tensor<1x1x7x1x1xf32> to tensor<1x1x4x1x1xf32>
//       CHECK:   vector.transfer_read %[[S]]
//       CHECK:   vector.contract
//   CHECK-NOT:   linalg.generic
func.func @strided_window_tile(%in: tensor<1x1x7x1x1xf32>, %w: tensor<1x1x1x1x8xf32>, %out: tensor<1x1x4x1x8xf32>) -> tensor<1x1x4x1x8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh * 2 + kh, ow * 2 + kw, g, c)>,
                                        affine_map<(n, oh, ow, g, m, kh, kw, c) -> (kh, kw, c, g, m)>,
                                        affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh, ow, g, m)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
    ins(%in, %w : tensor<1x1x7x1x1xf32>, tensor<1x1x1x1x8xf32>) outs(%out : tensor<1x1x4x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x1x8xf32>
  return %r : tensor<1x1x4x1x8xf32>
}
