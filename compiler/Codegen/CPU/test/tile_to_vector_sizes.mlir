// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-tile-to-vector-sizes,canonicalize,cse))" | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-tile-to-vector-sizes,canonicalize,cse)))))" | FileCheck %s --check-prefix=TARGET

// Tests that a matmul tile is tiled to its 8x32 vector tile with its producer
// fill and its epilogue fused, then along K with step 1, leaving static
// 8x1 x 1x32 tiles.
// CHECK-LABEL: func.func @mm
//       CHECK:   scf.for %{{.+}} = %c0 to %c32 step %c8
//       CHECK:     linalg.fill {{.*}} -> tensor<8x32xf32>
//       CHECK:     scf.for %{{.+}} = %c0 to %c256 step %c1
//       CHECK:       linalg.matmul {{.*}} ins(%{{.+}} : tensor<8x1xf32>, tensor<1x32xf32>) outs(%{{.+}} : tensor<8x32xf32>)
//       CHECK:     linalg.generic {{.*}} ins(%{{.+}} : tensor<8x32xf32>)
func.func @mm(%a: tensor<32x256xf32>, %b: tensor<256x32xf32>) -> tensor<32x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul {lowering_config = #kiln.lowering_config<vector = [8, 32, 1]>}
      ins(%a, %b : tensor<32x256xf32>, tensor<256x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>)
      attrs = {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [8, 32]>} {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<32x32xf32>
  return %g : tensor<32x32xf32>
}

// -----

// Tests that a tile that does not divide its loop (20 = 2 x 8 + 4) is peeled:
// two full 8-wide tiles in a loop, then the 4 left over as one static tile.
// CHECK-LABEL: func.func @remainder
//       CHECK:   scf.for %{{.+}} = %c0 to %c16 step %c8
//       CHECK:     linalg.generic {{.*}} ins(%{{.+}} : tensor<1x8xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}} : tensor<1x4xf32>)
//   CHECK-NOT:   tensor<1x?xf32>
func.func @remainder(%a: tensor<1x20xf32>) -> tensor<1x20xf32> {
  %e = tensor.empty() : tensor<1x20xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x20xf32>) outs(%e : tensor<1x20xf32>)
      attrs = {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [1, 8]>} {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<1x20xf32>
  return %g : tensor<1x20xf32>
}

// -----

// Tests that an unpack of 10 rows from 6-row tiles is tiled one inner tile at
// a time: a full 6x16 tile read from one packed tile, then the 4 rows left
// over, each a static unpack of a whole packed tile.
// CHECK-LABEL: func.func @unpack
//       CHECK:   scf.for %{{.+}} = %c0 to %c32 step %c16
//       CHECK:     linalg.unpack %{{.+}} : tensor<1x1x6x16xf32> -> tensor<6x16xf32>
//       CHECK:   scf.for %{{.+}} = %c0 to %c32 step %c16
//       CHECK:     linalg.unpack %{{.+}} : tensor<1x1x6x16xf32> -> tensor<4x16xf32>
func.func @unpack(%p: tensor<2x2x6x16xf32>) -> tensor<10x32xf32> {
  %e = tensor.empty() : tensor<10x32xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %e
      {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [6, 16]>}
      : tensor<2x2x6x16xf32> -> tensor<10x32xf32>
  return %u : tensor<10x32xf32>
}

// -----

// Tests that an mmt4d tile loops over one accumulator tile at a time and
// along K1, leaving 1x1x1x6x16x1 tiles.
// CHECK-LABEL: func.func @mmt4d
//       CHECK:   scf.for %{{.+}} = %c0 to %c2 step %c1
//       CHECK:     scf.for %{{.+}} = %c0 to %c3 step %c1
//       CHECK:       scf.for %{{.+}} = %c0 to %c64 step %c1
//       CHECK:         linalg.mmt4d {{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x16x1xf32>) outs(%{{.+}} : tensor<1x1x6x16xf32>)
func.func @mmt4d(%lhs: tensor<2x64x6x1xf32>, %rhs: tensor<3x64x16x1xf32>) -> tensor<2x3x6x16xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x6x16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x3x6x16xf32>) -> tensor<2x3x6x16xf32>
  %m = linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [0, 0, 0, 0, 0, 0], vector = [1, 1, 1, 6, 16, 1]>}
      ins(%lhs, %rhs : tensor<2x64x6x1xf32>, tensor<3x64x16x1xf32>) outs(%f : tensor<2x3x6x16xf32>) -> tensor<2x3x6x16xf32>
  return %m : tensor<2x3x6x16xf32>
}

// -----

// Tests that an mmt4d whose register block (6x16) is smaller than its tile
// (6x64, laid out for another CPU) loops over the blocks outside K1: each
// block's accumulators stay in registers over all of K.
// CHECK-LABEL: func.func @mmt4d_register_blocks
//       CHECK:   scf.for %{{.+}} = %c0 to %c64 step %c16
//       CHECK:     scf.for %{{.+}} = %c0 to %c32 step %c1
//       CHECK:       linalg.mmt4d {{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x16x1xf32>) outs(%{{.+}} : tensor<1x1x6x16xf32>)
func.func @mmt4d_register_blocks(%lhs: tensor<1x32x6x1xf32>, %rhs: tensor<1x32x64x1xf32>) -> tensor<1x1x6x64xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x6x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x6x64xf32>) -> tensor<1x1x6x64xf32>
  %m = linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 6, 16, 1]>}
      ins(%lhs, %rhs : tensor<1x32x6x1xf32>, tensor<1x32x64x1xf32>) outs(%f : tensor<1x1x6x64xf32>) -> tensor<1x1x6x64xf32>
  return %m : tensor<1x1x6x64xf32>
}

// -----

// Tests that the last column tile of an unpack keeping 104 columns of two
// 64-column accumulator tiles (AVX-512: 16 lanes) is computed only as wide
// as its 40 columns rounded up to registers, 48: a chunk of 32 columns and
// one of 16, each the fill, the contraction over K and the unpack of its
// columns (the last keeps 8 of its 16). The first tile stays whole.
// TARGET-LABEL: func.func @narrow_remainder
//       TARGET:   linalg.fill {{.*}} -> tensor<1x1x6x64xf32>
//       TARGET:   linalg.mmt4d {{.*}}vector = [1, 1, 1, 6, 64, 1]{{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x64x1xf32>)
//       TARGET:   linalg.unpack {{.*}} : tensor<1x1x6x64xf32> -> tensor<6x64xf32>
//       TARGET:   linalg.fill {{.*}} -> tensor<1x1x6x32xf32>
//       TARGET:   linalg.mmt4d {{.*}}vector = [1, 1, 1, 6, 32, 1]{{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x32x1xf32>)
//       TARGET:   linalg.unpack {{.*}}vector = [6, 32]{{.*}} : tensor<1x1x6x32xf32> -> tensor<6x32xf32>
//       TARGET:   linalg.fill {{.*}} -> tensor<1x1x6x16xf32>
//       TARGET:   linalg.mmt4d {{.*}}vector = [1, 1, 1, 6, 16, 1]{{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x16x1xf32>)
//       TARGET:   linalg.unpack {{.*}}vector = [6, 16]{{.*}} : tensor<1x1x6x16xf32> -> tensor<6x8xf32>
//   TARGET-NOT:   linalg.mmt4d
kiln.executable @narrow_remainder {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @narrow_remainder ordinal(0) bindings(3) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @narrow_remainder(%lhs: tensor<1x32x6x1xf32>, %rhs: tensor<2x32x64x1xf32>) -> tensor<6x104xf32> {
        %cst = arith.constant 0.0 : f32
        %e = tensor.empty() : tensor<1x2x6x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x2x6x64xf32>) -> tensor<1x2x6x64xf32>
        %m = linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 6, 64, 1]>}
            ins(%lhs, %rhs : tensor<1x32x6x1xf32>, tensor<2x32x64x1xf32>) outs(%f : tensor<1x2x6x64xf32>) -> tensor<1x2x6x64xf32>
        %d = tensor.empty() : tensor<6x104xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [6, 64] into %d
            {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [6, 64]>} : tensor<1x2x6x64xf32> -> tensor<6x104xf32>
        return %u : tensor<6x104xf32>
      }
    }
  }
}

// -----

// Tests that a last column tile keeping 49 of 64 columns, 64 rounded up to
// registers, stays whole.
// TARGET-LABEL: func.func @whole_remainder
//   TARGET-NOT:   tensor<1x1x6x32xf32>
//   TARGET-NOT:   tensor<1x1x6x16xf32>
//       TARGET:   linalg.unpack {{.*}} : tensor<1x1x6x64xf32> -> tensor<6x49xf32>
kiln.executable @whole_remainder {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @whole_remainder ordinal(0) bindings(3) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @whole_remainder(%lhs: tensor<1x32x6x1xf32>, %rhs: tensor<2x32x64x1xf32>) -> tensor<6x113xf32> {
        %cst = arith.constant 0.0 : f32
        %e = tensor.empty() : tensor<1x2x6x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x2x6x64xf32>) -> tensor<1x2x6x64xf32>
        %m = linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 6, 64, 1]>}
            ins(%lhs, %rhs : tensor<1x32x6x1xf32>, tensor<2x32x64x1xf32>) outs(%f : tensor<1x2x6x64xf32>) -> tensor<1x2x6x64xf32>
        %d = tensor.empty() : tensor<6x113xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [6, 64] into %d
            {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [6, 64]>} : tensor<1x2x6x64xf32> -> tensor<6x113xf32>
        return %u : tensor<6x113xf32>
      }
    }
  }
}

// -----

// Tests that AVX2 code computes a 6x32 accumulator tile (laid out for
// AVX-512) in chunks of its 6x16 register block, each the fill, the
// contraction over K, the unpack of its 16 columns and the epilogue's
// (bias and relu) on them: a block's accumulators reach the result without
// going through memory between the blocks. The last column tile keeps 8
// columns: a chunk of 8 (one register), its epilogue after it.
// TARGET-LABEL: func.func @register_block_chunks
//       TARGET:   scf.for %{{.+}} = %c0 to %c32 step %c16
//       TARGET:     linalg.fill {{.*}} -> tensor<1x1x6x16xf32>
//       TARGET:     scf.for
//       TARGET:       linalg.mmt4d {{.*}}vector = [1, 1, 1, 6, 16, 1]{{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x16x1xf32>)
//       TARGET:     linalg.unpack {{.*}} : tensor<1x1x6x16xf32> -> tensor<6x16xf32>
//       TARGET:     linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<6x16xf32>, tensor<16xf32>) outs(%{{.+}} : tensor<6x16xf32>)
//       TARGET:   linalg.mmt4d {{.*}}vector = [1, 1, 1, 6, 8, 1]{{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x8x1xf32>)
//       TARGET:   linalg.unpack {{.*}} : tensor<1x1x6x8xf32> -> tensor<6x8xf32>
//       TARGET:   linalg.generic {{.*}} outs(%{{.+}} : tensor<6x8xf32>)
//   TARGET-NOT:   tensor<1x1x6x32xf32>
kiln.executable @register_block_chunks {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @register_block_chunks ordinal(0) bindings(4) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @register_block_chunks(%lhs: tensor<1x32x6x1xf32>, %rhs: tensor<2x32x32x1xf32>, %bias: tensor<40xf32>) -> tensor<6x40xf32> {
        %cst = arith.constant 0.0 : f32
        %e = tensor.empty() : tensor<1x2x6x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x2x6x32xf32>) -> tensor<1x2x6x32xf32>
        %m = linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 6, 16, 1]>}
            ins(%lhs, %rhs : tensor<1x32x6x1xf32>, tensor<2x32x32x1xf32>) outs(%f : tensor<1x2x6x32xf32>) -> tensor<1x2x6x32xf32>
        %d = tensor.empty() : tensor<6x40xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [6, 32] into %d : tensor<1x2x6x32xf32> -> tensor<6x40xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%u, %bias : tensor<6x40xf32>, tensor<40xf32>) outs(%d : tensor<6x40xf32>) attrs = {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [6, 32]>} {
        ^bb0(%a: f32, %b: f32, %o: f32):
          %s = arith.addf %a, %b : f32
          %x = arith.maximumf %s, %cst : f32
          linalg.yield %x : f32
        } -> tensor<6x40xf32>
        return %r : tensor<6x40xf32>
      }
    }
  }
}

// -----

// Tests that where L1 (32 KiB for x86-64-v3) does not hold the 6x32 tile's
// RHS panel over all of K (256 steps of 128 bytes), the 6x16 register blocks
// take turns over 128 steps at a time, and the whole tile is unpacked after.
// TARGET-LABEL: func.func @register_blocks_long_k
//       TARGET:   scf.for %{{.+}} = %c0 to %c256 step %c128
//       TARGET:     scf.for %{{.+}} = %c0 to %c32 step %c16
//       TARGET:       scf.for %{{.+}} = %c0 to %c128 step %c1
//       TARGET:         linalg.mmt4d {{.*}} ins(%{{.+}} : tensor<1x1x6x1xf32>, tensor<1x1x16x1xf32>) outs(%{{.+}} : tensor<1x1x6x16xf32>)
//       TARGET:   linalg.unpack {{.*}} : tensor<1x1x6x32xf32> -> tensor<6x32xf32>
kiln.executable @register_blocks_long_k {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @register_blocks_long_k ordinal(0) bindings(3) workgroups([1, 1, 1]) {outputs = 1 : index}
    builtin.module {
      func.func @register_blocks_long_k(%lhs: tensor<1x256x6x1xf32>, %rhs: tensor<1x256x32x1xf32>) -> tensor<6x32xf32> {
        %cst = arith.constant 0.0 : f32
        %e = tensor.empty() : tensor<1x1x6x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x1x6x32xf32>) -> tensor<1x1x6x32xf32>
        %m = linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 6, 16, 1]>}
            ins(%lhs, %rhs : tensor<1x256x6x1xf32>, tensor<1x256x32x1xf32>) outs(%f : tensor<1x1x6x32xf32>) -> tensor<1x1x6x32xf32>
        %d = tensor.empty() : tensor<6x32xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [6, 32] into %d
            {lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [6, 32]>} : tensor<1x1x6x32xf32> -> tensor<6x32xf32>
        return %u : tensor<6x32xf32>
      }
    }
  }
}

// -----

// Tests that a reduction chain tiled by whole rows (its stored op keeps the
// row loop whole) computes a row longer than 128 elements op by op in chunks
// of 16: the mean's sum reduces 16 elements per step, and the centring
// subtracts 16 at a time, instead of 256-wide vectors that spill.
// CHECK-LABEL: func.func @long_row_in_chunks
//       CHECK:   scf.for {{.*}} to %{{.+}} step %c1
//       CHECK:     scf.for {{.*}} step %c16 {{.*}} -> (tensor<1xf32>)
//       CHECK:       linalg.generic {{.*}} ins(%{{.+}} : tensor<1x16xf32>) outs(%{{.+}} : tensor<1xf32>)
//       CHECK:     scf.for {{.*}} step %c16 {{.*}} -> (tensor<1x256xf32>)
//       CHECK:       linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x16xf32>, tensor<1xf32>) outs(%{{.+}} : tensor<1x16xf32>)
func.func @long_row_in_chunks(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x256xf32>) outs(%f : tensor<4xf32>) attrs = {lowering_config = #kiln.lowering_config<vector = [1, 0]>} {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %o = tensor.empty() : tensor<4x256xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<4x256xf32>, tensor<4xf32>) outs(%o : tensor<4x256xf32>) attrs = {lowering_config = #kiln.lowering_config<workgroup = [1, 0], vector = [1, 0]>} {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x256xf32>
  return %c : tensor<4x256xf32>
}

// -----

// Tests that a row of 128 elements (a softmax's) stays whole.
// CHECK-LABEL: func.func @short_row_whole
//   CHECK-NOT:   step %c16
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}} : tensor<1x128xf32>) outs(%{{.+}} : tensor<1xf32>)
//   CHECK-NOT:   step %c16
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x128xf32>, tensor<1xf32>) outs(%{{.+}} : tensor<1x128xf32>)
func.func @short_row_whole(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x128xf32>) outs(%f : tensor<4xf32>) attrs = {lowering_config = #kiln.lowering_config<vector = [1, 0]>} {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %o = tensor.empty() : tensor<4x128xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<4x128xf32>, tensor<4xf32>) outs(%o : tensor<4x128xf32>) attrs = {lowering_config = #kiln.lowering_config<workgroup = [1, 0], vector = [1, 0]>} {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x128xf32>
  return %c : tensor<4x128xf32>
}
