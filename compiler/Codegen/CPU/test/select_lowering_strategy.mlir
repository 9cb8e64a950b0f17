// RUN: kiln-opt %s --split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(kiln-cpu-select-lowering-strategy)))" | FileCheck %s

// Tests that an unpacked matmul gets AVX-512's accumulator block (8 rows of
// two 16-lane vectors, 32 registers), 64x64 workgroup tiles and a 16x16
// workgroup grid; its epilogue carries the same tiles mapped to its own
// loops.
// CHECK-LABEL: kiln.executable @mm
//       CHECK: kiln.executable.export @mm ordinal(0) bindings(4) workgroups([16, 16, 1])
//       CHECK: linalg.matmul {lowering_config = #kiln.lowering_config<vector = [8, 32, 1]>}
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [64, 64], vector = [8, 32]>
kiln.executable @mm {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mm ordinal(0) bindings(4)
    builtin.module {
      func.func @mm() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1024x512xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1024x512xf32> to tensor<1024x512xf32>
        %2 = kiln.binding 1 : memref<512x1024xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<512x1024xf32> to tensor<512x1024xf32>
        %4 = kiln.binding 2 : memref<1024xf32>
        %5 = bufferization.to_tensor %4 restrict : memref<1024xf32> to tensor<1024xf32>
        %e = tensor.empty() : tensor<1024x1024xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
        %m = linalg.matmul ins(%1, %3 : tensor<1024x512xf32>, tensor<512x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%m, %5 : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%e : tensor<1024x1024xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        } -> tensor<1024x1024xf32>
        %6 = kiln.binding 3 : memref<1024x1024xf32>
        bufferization.materialize_in_destination %g in restrict writable %6 : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a transpose (NCHW to NHWC) moves blocks: 8 elements along the
// input's innermost dim (w) by a vector of the result's (c), not one
// strided element per lane.
// CHECK-LABEL: kiln.executable @transpose_blocks
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [{{.+}}], vector = [1, 1, 8, 16]>
kiln.executable @transpose_blocks {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @transpose_blocks ordinal(0) bindings(2)
    builtin.module {
      func.func @transpose_blocks() {
        %0 = kiln.binding 0 : memref<1x256x56x56xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x256x56x56xf32> to tensor<1x256x56x56xf32>
        %e = tensor.empty() : tensor<1x56x56x256xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
            ins(%1 : tensor<1x256x56x56xf32>) outs(%e : tensor<1x56x56x256xf32>) {
        ^bb0(%x: f32, %o: f32):
          linalg.yield %x : f32
        } -> tensor<1x56x56x256xf32>
        %2 = kiln.binding 1 : memref<1x56x56x256xf32>
        bufferization.materialize_in_destination %g in restrict writable %2 : (tensor<1x56x56x256xf32>, memref<1x56x56x256xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a small elementwise kernel runs as one workgroup, vectorized
// along its innermost loop (AVX2: 8 lanes).
// CHECK-LABEL: kiln.executable @small
//       CHECK: kiln.executable.export @small ordinal(0) bindings(2) workgroups([1, 1, 1])
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, 0], vector = [1, 8]>
kiln.executable @small {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @small ordinal(0) bindings(2)
    builtin.module {
      func.func @small() {
        %0 = kiln.binding 0 : memref<4x24xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4x24xf32> to tensor<4x24xf32>
        %e = tensor.empty() : tensor<4x24xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%1 : tensor<4x24xf32>) outs(%e : tensor<4x24xf32>) {
        ^bb0(%x: f32, %o: f32):
          %s = math.exp %x : f32
          linalg.yield %s : f32
        } -> tensor<4x24xf32>
        %2 = kiln.binding 1 : memref<4x24xf32>
        bufferization.materialize_in_destination %g in restrict writable %2 : (tensor<4x24xf32>, memref<4x24xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a root that cannot be tiled (an insert_slice) runs as one
// workgroup without a tile configuration.
// CHECK-LABEL: kiln.executable @pad
//       CHECK: kiln.executable.export @pad ordinal(0) bindings(2) workgroups([1, 1, 1])
//       CHECK: linalg.fill ins
//   CHECK-NOT: lowering_config
kiln.executable @pad {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @pad ordinal(0) bindings(2)
    builtin.module {
      func.func @pad() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<4xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
        %e = tensor.empty() : tensor<6xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
        %i = tensor.insert_slice %1 into %f[1] [4] [1] : tensor<4xf32> into tensor<6xf32>
        %2 = kiln.binding 1 : memref<6xf32>
        bufferization.materialize_in_destination %i in restrict writable %2 : (tensor<6xf32>, memref<6xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests the packed matmul's tiles on AVX2: one 6x16 accumulator tile over all
// of K1 per vector iteration; workgroups take 4 RHS panels of 64 KiB each
// (half of the 512 KiB L2 x86-64-v3 assumes) and half the rows: 16 column
// blocks times 2 row blocks make the workgroups.
// CHECK-LABEL: kiln.executable @mmt4d_avx2
//       CHECK: kiln.executable.export @mmt4d_avx2 ordinal(0) bindings(3) workgroups([16, 2, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [86, 4, 0, 0, 0, 0], vector = [1, 1, 1, 6, 16, 1]>}
kiln.executable @mmt4d_avx2 {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_avx2 ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_avx2() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<171x1024x6x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<171x1024x6x1xf32> to tensor<171x1024x6x1xf32>
        %2 = kiln.binding 1 : memref<64x1024x16x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<64x1024x16x1xf32> to tensor<64x1024x16x1xf32>
        %e = tensor.empty() : tensor<171x64x6x16xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<171x64x6x16xf32>) -> tensor<171x64x6x16xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<171x1024x6x1xf32>, tensor<64x1024x16x1xf32>) outs(%f : tensor<171x64x6x16xf32>) -> tensor<171x64x6x16xf32>
        %4 = kiln.binding 2 : memref<171x64x6x16xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<171x64x6x16xf32>, memref<171x64x6x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that AVX2 code for a tile laid out for AVX-512 (a module's first CPU
// chooses the layout for every variant) computes it in register blocks: 6
// rows of 64 columns are 48 accumulators, of which its 16 registers hold
// 6 x 16 (12 accumulators, 2 RHS vectors and the broadcast element); the
// unpack still takes whole 6x64 tiles.
// CHECK-LABEL: kiln.executable @mmt4d_avx2_of_avx512_layout
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 6, 16, 1]>}
//       CHECK: linalg.unpack
//  CHECK-SAME:   lowering_config = #kiln.lowering_config<workgroup = [{{[0-9]+}}, {{[0-9]+}}], vector = [6, 64]>
kiln.executable @mmt4d_avx2_of_avx512_layout {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_avx2_of_avx512_layout ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_avx2_of_avx512_layout() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<43x512x6x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<43x512x6x1xf32> to tensor<43x512x6x1xf32>
        %2 = kiln.binding 1 : memref<8x512x64x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<8x512x64x1xf32> to tensor<8x512x64x1xf32>
        %e = tensor.empty() : tensor<43x8x6x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<43x8x6x64xf32>) -> tensor<43x8x6x64xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<43x512x6x1xf32>, tensor<8x512x64x1xf32>) outs(%f : tensor<43x8x6x64xf32>) -> tensor<43x8x6x64xf32>
        %u0 = tensor.empty() : tensor<256x512xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [6, 64] into %u0 : tensor<43x8x6x64xf32> -> tensor<256x512xf32>
        %4 = kiln.binding 2 : memref<256x512xf32>
        bufferization.materialize_in_destination %u in restrict writable %4 : (tensor<256x512xf32>, memref<256x512xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a vector times a [K, N] matrix takes its lanes along N (a
// block of N0 accumulators, one row of the matrix per step of K), not along
// K, which would gather a column (24 of its 48 columns: the tile near N0 = 32
// that divides them).
// CHECK-LABEL: kiln.executable @vecmat
//       CHECK: linalg.vecmat {lowering_config = #kiln.lowering_config<{{.*}}vector = [24, 1]>}
kiln.executable @vecmat {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @vecmat ordinal(0) bindings(3)
    builtin.module {
      func.func @vecmat() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1152xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1152xf32> to tensor<1152xf32>
        %2 = kiln.binding 1 : memref<1152x48xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<1152x48xf32> to tensor<1152x48xf32>
        %e = tensor.empty() : tensor<48xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<48xf32>) -> tensor<48xf32>
        %v = linalg.vecmat ins(%1, %3 : tensor<1152xf32>, tensor<1152x48xf32>) outs(%f : tensor<48xf32>) -> tensor<48xf32>
        %4 = kiln.binding 2 : memref<48xf32>
        bufferization.materialize_in_destination %v in restrict writable %4 : (tensor<48xf32>, memref<48xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed matmul with few rows (7 row tiles: a 7x7 image's 49
// pixels) and an RHS L2 does not hold (9 MiB) splits its columns alone, into
// 16 blocks of one panel, and keeps its rows whole: each row block would
// read the whole RHS from memory again.
// CHECK-LABEL: kiln.executable @mmt4d_few_rows
//       CHECK: kiln.executable.export @mmt4d_few_rows ordinal(0) bindings(3) workgroups([16, 1, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [0, 1, 0, 0, 0, 0], vector = [1, 1, 1, 8, 32, 1]>}
kiln.executable @mmt4d_few_rows {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_few_rows ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_few_rows() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<7x4608x8x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<7x4608x8x1xf32> to tensor<7x4608x8x1xf32>
        %2 = kiln.binding 1 : memref<16x4608x32x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<16x4608x32x1xf32> to tensor<16x4608x32x1xf32>
        %e = tensor.empty() : tensor<7x16x8x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<7x16x8x32xf32>) -> tensor<7x16x8x32xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<7x4608x8x1xf32>, tensor<16x4608x32x1xf32>) outs(%f : tensor<7x16x8x32xf32>) -> tensor<7x16x8x32xf32>
        %4 = kiln.binding 2 : memref<7x16x8x32xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<7x16x8x32xf32>, memref<7x16x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed matmul on a packed RHS (constant weights) whose LHS
// L2 does not hold (4 MiB) but whose L2 holds RHS panels for 128 columns or
// more (Sapphire Rapids: 8 panels of 32 columns in half of 2 MiB) runs
// blocks of 64 row tiles, the least a block takes, in each workgroup: 4
// panels of 128 columns each, 8 column blocks of 2 row blocks, each panel
// read from memory twice. With x86-64-v3's 512 KiB L2 (mmt4d_avx2 above:
// 64 columns) the rows split as the operands' reads decide.
// CHECK-LABEL: kiln.executable @mmt4d_large_lhs_row_blocks
//       CHECK: kiln.executable.export @mmt4d_large_lhs_row_blocks ordinal(0) bindings(3) workgroups([8, 2, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [64, 4, 0, 0, 0, 0], vector = [1, 1, 1, 8, 32, 1]>}
kiln.executable @mmt4d_large_lhs_row_blocks {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "sapphirerapids", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_large_lhs_row_blocks ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_large_lhs_row_blocks() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<128x1024x8x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<128x1024x8x1xf32> to tensor<128x1024x8x1xf32>
        %2 = kiln.binding 1 : memref<32x1024x32x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<32x1024x32x1xf32> to tensor<32x1024x32x1xf32>
        %e = tensor.empty() : tensor<128x32x8x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x32x8x32xf32>) -> tensor<128x32x8x32xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<128x1024x8x1xf32>, tensor<32x1024x32x1xf32>) outs(%f : tensor<128x32x8x32xf32>) -> tensor<128x32x8x32xf32>
        %4 = kiln.binding 2 : memref<128x32x8x32xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<128x32x8x32xf32>, memref<128x32x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a named CPU plans with its own L2: Haswell's 256 KiB holds 2 of
// the RHS panels above, and 32 column blocks of all rows make the workgroups.
// CHECK-LABEL: kiln.executable @mmt4d_haswell
//       CHECK: kiln.executable.export @mmt4d_haswell ordinal(0) bindings(3) workgroups([32, 1, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [0, 2, 0, 0, 0, 0], vector = [1, 1, 1, 6, 16, 1]>}
kiln.executable @mmt4d_haswell {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "haswell", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_haswell ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_haswell() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<171x1024x6x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<171x1024x6x1xf32> to tensor<171x1024x6x1xf32>
        %2 = kiln.binding 1 : memref<64x1024x16x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<64x1024x16x1xf32> to tensor<64x1024x16x1xf32>
        %e = tensor.empty() : tensor<171x64x6x16xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<171x64x6x16xf32>) -> tensor<171x64x6x16xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<171x1024x6x1xf32>, tensor<64x1024x16x1xf32>) outs(%f : tensor<171x64x6x16xf32>) -> tensor<171x64x6x16xf32>
        %4 = kiln.binding 2 : memref<171x64x6x16xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<171x64x6x16xf32>, memref<171x64x6x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed matmul with few rows (a batch of 64: 8 row tiles, 64
// KiB of LHS, which L2 holds) splits its columns, not its rows: 32 column
// blocks of one RHS panel each read the RHS once and the LHS again from L2,
// where 8 single-tile row blocks of the widest panels half of x86-64-v4's 1
// MiB L2 holds (16 of 32 KiB) would read the whole RHS 8 times.
// CHECK-LABEL: kiln.executable @mmt4d_few_rows
//       CHECK: kiln.executable.export @mmt4d_few_rows ordinal(0) bindings(3) workgroups([32, 1, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [0, 1, 0, 0, 0, 0], vector = [1, 1, 1, 8, 32, 1]>}
kiln.executable @mmt4d_few_rows {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_few_rows ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_few_rows() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<8x256x8x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<8x256x8x1xf32> to tensor<8x256x8x1xf32>
        %2 = kiln.binding 1 : memref<32x256x32x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<32x256x32x1xf32> to tensor<32x256x32x1xf32>
        %e = tensor.empty() : tensor<8x32x8x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8x32x8x32xf32>) -> tensor<8x32x8x32xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<8x256x8x1xf32>, tensor<32x256x32x1xf32>) outs(%f : tensor<8x32x8x32xf32>) -> tensor<8x32x8x32xf32>
        %4 = kiln.binding 2 : memref<8x32x8x32xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<8x32x8x32xf32>, memref<8x32x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests the tiles of a packed matmul that packs its RHS in its dispatch: a
// workgroup runs all 22 row tiles (0: the whole loop) against the panels it
// packed, so the columns alone make the workgroups: 2 of the 16 KiB panels
// each, as many as leave 8 workgroups toward 128 columns (not 8 panels, half
// of L2, in 2 workgroups). The pack takes its own vector tiles.
// CHECK-LABEL: kiln.executable @mmt4d_packing_rhs
//       CHECK: kiln.executable.export @mmt4d_packing_rhs ordinal(0) bindings(3) workgroups([8, 1, 1])
//       CHECK: linalg.pack {{.*}}lowering_config = #kiln.lowering_config<vector = [1, 8]>
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [0, 2, 0, 0, 0, 0], vector = [1, 1, 1, 6, 16, 1]>}
kiln.executable @mmt4d_packing_rhs {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_packing_rhs ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_packing_rhs() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<22x256x6x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<22x256x6x1xf32> to tensor<22x256x6x1xf32>
        %2 = kiln.binding 1 : memref<256x256xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<256x256xf32> to tensor<256x256xf32>
        %ep = tensor.empty() : tensor<16x256x16x1xf32>
        %p = linalg.pack %3 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %ep : tensor<256x256xf32> -> tensor<16x256x16x1xf32>
        %e = tensor.empty() : tensor<22x16x6x16xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<22x16x6x16xf32>) -> tensor<22x16x6x16xf32>
        %m = linalg.mmt4d ins(%1, %p : tensor<22x256x6x1xf32>, tensor<16x256x16x1xf32>) outs(%f : tensor<22x16x6x16xf32>) -> tensor<22x16x6x16xf32>
        %4 = kiln.binding 2 : memref<22x16x6x16xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<22x16x6x16xf32>, memref<22x16x6x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed matmul packing its RHS in its dispatch whose LHS L2
// does not hold (86 row tiles over K = 256: 516 KiB, more than the 512 KiB
// L2 x86-64-v3 assumes) gives each workgroup 128 columns, 8 of the 16-wide
// panels, so that each LHS tile it loads serves them all: 8 workgroups, not
// one per panel.
// CHECK-LABEL: kiln.executable @mmt4d_packing_rhs_large_lhs
//       CHECK: kiln.executable.export @mmt4d_packing_rhs_large_lhs ordinal(0) bindings(3) workgroups([8, 1, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [0, 8, 0, 0, 0, 0], vector = [1, 1, 1, 6, 16, 1]>}
kiln.executable @mmt4d_packing_rhs_large_lhs {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_packing_rhs_large_lhs ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_packing_rhs_large_lhs() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<86x256x6x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<86x256x6x1xf32> to tensor<86x256x6x1xf32>
        %2 = kiln.binding 1 : memref<256x1024xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<256x1024xf32> to tensor<256x1024xf32>
        %ep = tensor.empty() : tensor<64x256x16x1xf32>
        %p = linalg.pack %3 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %ep : tensor<256x1024xf32> -> tensor<64x256x16x1xf32>
        %e = tensor.empty() : tensor<86x64x6x16xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<86x64x6x16xf32>) -> tensor<86x64x6x16xf32>
        %m = linalg.mmt4d ins(%1, %p : tensor<86x256x6x1xf32>, tensor<64x256x16x1xf32>) outs(%f : tensor<86x64x6x16xf32>) -> tensor<86x64x6x16xf32>
        %4 = kiln.binding 2 : memref<86x64x6x16xf32>
        bufferization.materialize_in_destination %m in restrict writable %4 : (tensor<86x64x6x16xf32>, memref<86x64x6x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a pack moves one row of 8 inner tiles per vector iteration and
// splits its outer rows (of which the last is padding) over workgroups.
// CHECK-LABEL: kiln.executable @pack
//       CHECK: kiln.executable.export @pack ordinal(0) bindings(2) workgroups([28, 1, 1])
//       CHECK: linalg.pack {{.*}}lowering_config = #kiln.lowering_config<workgroup = [6, 0], vector = [1, 8]>
kiln.executable @pack {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @pack ordinal(0) bindings(2)
    builtin.module {
      func.func @pack() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1000x512xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1000x512xf32> to tensor<1000x512xf32>
        %e = tensor.empty() : tensor<167x512x6x1xf32>
        %p = linalg.pack %1 padding_value(%cst : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %e : tensor<1000x512xf32> -> tensor<167x512x6x1xf32>
        %2 = kiln.binding 1 : memref<167x512x6x1xf32>
        bufferization.materialize_in_destination %p in restrict writable %2 : (tensor<167x512x6x1xf32>, memref<167x512x6x1xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that an unpack's epilogue is tiled one inner tile (6x16) at a time,
// the unpack taking the same tiles, with workgroups of whole inner tiles:
// 1000 rows are not a multiple of 6, so the last tile of the last workgroup
// is partial.
// CHECK-LABEL: kiln.executable @unpack
//       CHECK: kiln.executable.export @unpack ordinal(0) bindings(3) workgroups([28, 1, 1])
//       CHECK: linalg.unpack {{.*}}lowering_config = #kiln.lowering_config<vector = [6, 16]>
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [36, 0], vector = [6, 16]>
kiln.executable @unpack {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @unpack ordinal(0) bindings(3)
    builtin.module {
      func.func @unpack() {
        %0 = kiln.binding 0 : memref<167x32x6x16xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<167x32x6x16xf32> to tensor<167x32x6x16xf32>
        %2 = kiln.binding 1 : memref<512xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<512xf32> to tensor<512xf32>
        %e = tensor.empty() : tensor<1000x512xf32>
        %u = linalg.unpack %1 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %e : tensor<167x32x6x16xf32> -> tensor<1000x512xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%u, %3 : tensor<1000x512xf32>, tensor<512xf32>) outs(%e : tensor<1000x512xf32>) {
        ^bb0(%x: f32, %b: f32, %o: f32):
          %s = arith.addf %x, %b : f32
          linalg.yield %s : f32
        } -> tensor<1000x512xf32>
        %4 = kiln.binding 2 : memref<1000x512xf32>
        bufferization.materialize_in_destination %g in restrict writable %4 : (tensor<1000x512xf32>, memref<1000x512xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a loop of 999 (27 x 37) gets a full vector tile of 8 lanes, not
// a divisor of 999 (3): the remainder is peeled.
// CHECK-LABEL: kiln.executable @odd
//       CHECK: kiln.executable.export @odd ordinal(0) bindings(2)
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [{{.+}}], vector = [1, 8]>
kiln.executable @odd {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @odd ordinal(0) bindings(2)
    builtin.module {
      func.func @odd() {
        %0 = kiln.binding 0 : memref<64x999xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<64x999xf32> to tensor<64x999xf32>
        %e = tensor.empty() : tensor<64x999xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%1 : tensor<64x999xf32>) outs(%e : tensor<64x999xf32>) {
        ^bb0(%x: f32, %o: f32):
          %s = math.exp %x : f32
          linalg.yield %s : f32
        } -> tensor<64x999xf32>
        %2 = kiln.binding 1 : memref<64x999xf32>
        bufferization.materialize_in_destination %g in restrict writable %2 : (tensor<64x999xf32>, memref<64x999xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a softmax dispatch is tiled by rows only: the divide reads the
// sum broadcast along the row, so tiling the row would compute the row's
// reductions once per tile; each reduction (128 elements) is vectorized
// whole, not tiled.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: kiln.executable @softmax
//       CHECK: kiln.executable.export @softmax ordinal(0) bindings(2) workgroups([4, 1, 1])
//       CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}lowering_config = #kiln.lowering_config<vector = [1, 0]>
//       CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}lowering_config = #kiln.lowering_config<vector = [1, 0]>
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [128, 0], vector = [1, 0]>
kiln.executable @softmax {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @softmax ordinal(0) bindings(2)
    builtin.module {
      func.func @softmax() {
        %lowest = arith.constant 0xFF800000 : f32
        %zero = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<512x128xf32>
        %x = bufferization.to_tensor %0 restrict : memref<512x128xf32> to tensor<512x128xf32>
        %er = tensor.empty() : tensor<512xf32>
        %e = tensor.empty() : tensor<512x128xf32>
        %fmax = linalg.fill ins(%lowest : f32) outs(%er : tensor<512xf32>) -> tensor<512xf32>
        %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
            ins(%x : tensor<512x128xf32>) outs(%fmax : tensor<512xf32>) {
        ^bb0(%v: f32, %m: f32):
          %r = arith.maximumf %v, %m : f32
          linalg.yield %r : f32
        } -> tensor<512xf32>
        %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
            ins(%x, %max : tensor<512x128xf32>, tensor<512xf32>) outs(%e : tensor<512x128xf32>) {
        ^bb0(%v: f32, %m: f32, %o: f32):
          %d = arith.subf %v, %m : f32
          %r = math.exp %d : f32
          linalg.yield %r : f32
        } -> tensor<512x128xf32>
        %fsum = linalg.fill ins(%zero : f32) outs(%er : tensor<512xf32>) -> tensor<512xf32>
        %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
            ins(%exp : tensor<512x128xf32>) outs(%fsum : tensor<512xf32>) {
        ^bb0(%v: f32, %s: f32):
          %r = arith.addf %v, %s : f32
          linalg.yield %r : f32
        } -> tensor<512xf32>
        %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
            ins(%exp, %sum : tensor<512x128xf32>, tensor<512xf32>) outs(%e : tensor<512x128xf32>) {
        ^bb0(%v: f32, %s: f32, %o: f32):
          %r = arith.divf %v, %s : f32
          linalg.yield %r : f32
        } -> tensor<512x128xf32>
        %1 = kiln.binding 1 : memref<512x128xf32>
        bufferization.materialize_in_destination %out in restrict writable %1 : (tensor<512x128xf32>, memref<512x128xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a convolution over channels gets the accumulator block of AVX2
// contractions (6 output columns x 16 output channels), one input channel
// at one filter tap per step (its elements broadcast from memory), and
// workgroups of output rows.
// CHECK-LABEL: kiln.executable @conv
//       CHECK: kiln.executable.export @conv ordinal(0) bindings(3)
//       CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, {{[1-9][0-9]*}}, 0, 0, 0, 0, 0], vector = [1, 1, 6, 16, 1, 1, 1]>
kiln.executable @conv {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @conv ordinal(0) bindings(3)
    builtin.module {
      func.func @conv() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x58x58x64xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x58x58x64xf32> to tensor<1x58x58x64xf32>
        %2 = kiln.binding 1 : memref<3x3x64x64xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
        %e = tensor.empty() : tensor<1x56x56x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%1, %3 : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %4 = kiln.binding 2 : memref<1x56x56x64xf32>
        bufferization.materialize_in_destination %c in restrict writable %4 : (tensor<1x56x56x64xf32>, memref<1x56x56x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that where the vector tile does not divide the output columns (28
// columns, 6-column tiles) their workgroups share one extent (two of 14,
// each with a static remainder), not 24 columns and a last 4 narrower than
// the tile.
// CHECK-LABEL: kiln.executable @conv_uneven_columns
//       CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}lowering_config = #kiln.lowering_config<vector = [1, 1, 6, 16, 1, 1, 1]>
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, {{[1-9][0-9]*}}, 14, 0], vector = [1, 1, 6, 16]>
kiln.executable @conv_uneven_columns {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @conv_uneven_columns ordinal(0) bindings(3)
    builtin.module {
      func.func @conv_uneven_columns() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x30x30x128xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x30x30x128xf32> to tensor<1x30x30x128xf32>
        %2 = kiln.binding 1 : memref<3x3x128x128xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<3x3x128x128xf32> to tensor<3x3x128x128xf32>
        %e = tensor.empty() : tensor<1x28x28x128xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%1, %3 : tensor<1x30x30x128xf32>, tensor<3x3x128x128xf32>) outs(%f : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
            ins(%c : tensor<1x28x28x128xf32>) outs(%e : tensor<1x28x28x128xf32>) {
        ^bb0(%in: f32, %out: f32):
          %m = arith.maximumf %in, %cst : f32
          linalg.yield %m : f32
        } -> tensor<1x28x28x128xf32>
        %4 = kiln.binding 2 : memref<1x28x28x128xf32>
        bufferization.materialize_in_destination %r in restrict writable %4 : (tensor<1x28x28x128xf32>, memref<1x28x28x128xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a channels-last pool takes its channels in vector lanes (its
// innermost loop, which the convolution interface counts as a batch of input
// and output) on 8 output columns.
// CHECK-LABEL: kiln.executable @max_pool
//       CHECK: linalg.pooling_nhwc_max {{.*}}lowering_config = #kiln.lowering_config<workgroup = [{{.*}}], vector = [1, 1, 8, 8, 1, 0]>
kiln.executable @max_pool {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @max_pool ordinal(0) bindings(2)
    builtin.module {
      func.func @max_pool() {
        %lowest = arith.constant -3.40282347E+38 : f32
        %0 = kiln.binding 0 : memref<1x114x114x64xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x114x114x64xf32> to tensor<1x114x114x64xf32>
        %w = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x56x56x64xf32>
        %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
            ins(%1, %w : tensor<1x114x114x64xf32>, tensor<3x3xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %2 = kiln.binding 1 : memref<1x56x56x64xf32>
        bufferization.materialize_in_destination %p in restrict writable %2 : (tensor<1x56x56x64xf32>, memref<1x56x56x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a channels-first pool, whose channels are not the result's
// innermost dim, keeps one channel per vector, its lanes on output columns.
// CHECK-LABEL: kiln.executable @max_pool_nchw
//       CHECK: linalg.pooling_nchw_max {{.*}}lowering_config = #kiln.lowering_config<workgroup = [{{.*}}], vector = [1, 1, 1, 8, 1, 0]>
kiln.executable @max_pool_nchw {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @max_pool_nchw ordinal(0) bindings(2)
    builtin.module {
      func.func @max_pool_nchw() {
        %lowest = arith.constant -3.40282347E+38 : f32
        %0 = kiln.binding 0 : memref<1x64x114x114xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x64x114x114xf32> to tensor<1x64x114x114xf32>
        %w = tensor.empty() : tensor<3x3xf32>
        %e = tensor.empty() : tensor<1x64x56x56xf32>
        %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
        %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
            ins(%1, %w : tensor<1x64x114x114xf32>, tensor<3x3xf32>) outs(%f : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
        %2 = kiln.binding 1 : memref<1x64x56x56xf32>
        bufferization.materialize_in_destination %p in restrict writable %2 : (tensor<1x64x56x56xf32>, memref<1x64x56x56xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that with AVX-512 a convolution step takes a whole filter row (the
// filter width's loop untiled, 0) on two-vector rows: 10 rows less the
// halo (8 output columns, which 56 divides into 7 tiles) x 32 output
// channels.
// CHECK-LABEL: kiln.executable @conv_avx512
//       CHECK: kiln.executable.export @conv_avx512 ordinal(0) bindings(3)
//       CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, {{[1-9][0-9]*}}, 0, 0, 0, 0, 0], vector = [1, 1, 8, 32, 1, 0, 1]>
kiln.executable @conv_avx512 {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @conv_avx512 ordinal(0) bindings(3)
    builtin.module {
      func.func @conv_avx512() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x58x58x64xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x58x58x64xf32> to tensor<1x58x58x64xf32>
        %2 = kiln.binding 1 : memref<3x3x64x64xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
        %e = tensor.empty() : tensor<1x56x56x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%1, %3 : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
        %4 = kiln.binding 2 : memref<1x56x56x64xf32>
        bufferization.materialize_in_destination %c in restrict writable %4 : (tensor<1x56x56x64xf32>, memref<1x56x56x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed contraction unpacked in its own dispatch is planned on
// the contraction and its tiles carried to the epilogue that stores: one row
// tile (8 rows) by every column per workgroup, 13 of them for 100 rows, each
// vector iteration one 8x32 accumulator tile; the contraction keeps only its
// vector tiles (its K loop tiled by one).
// CHECK-LABEL: kiln.executable @mmt4d_unpack
//       CHECK: kiln.executable.export @mmt4d_unpack ordinal(0) bindings(4) workgroups([13, 1, 1])
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 8, 32, 1]>}
//       CHECK: linalg.unpack
//   CHECK-NOT: lowering_config
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [8, 0], vector = [8, 32]>
kiln.executable @mmt4d_unpack {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_unpack ordinal(0) bindings(4)
    builtin.module {
      func.func @mmt4d_unpack() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<13x80x8x1xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<13x80x8x1xf32> to tensor<13x80x8x1xf32>
        %2 = kiln.binding 1 : memref<2x80x32x1xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<2x80x32x1xf32> to tensor<2x80x32x1xf32>
        %4 = kiln.binding 2 : memref<40xf32>
        %5 = bufferization.to_tensor %4 restrict : memref<40xf32> to tensor<40xf32>
        %ec = tensor.empty() : tensor<13x2x8x32xf32>
        %fc = linalg.fill ins(%cst : f32) outs(%ec : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
        %m = linalg.mmt4d ins(%1, %3 : tensor<13x80x8x1xf32>, tensor<2x80x32x1xf32>) outs(%fc : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
        %e = tensor.empty() : tensor<100x40xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<13x2x8x32xf32> -> tensor<100x40xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%u, %5 : tensor<100x40xf32>, tensor<40xf32>) outs(%e : tensor<100x40xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        } -> tensor<100x40xf32>
        %6 = kiln.binding 3 : memref<100x40xf32>
        bufferization.materialize_in_destination %g in restrict writable %6 : (tensor<100x40xf32>, memref<100x40xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that in a contraction's dispatch the LHS pack, which pads nothing
// and tiles K by one, is marked to be read in place (no tiles of its own),
// while the RHS pack, packed per workgroup, gets its own vector tiles.
// CHECK-LABEL: kiln.executable @lhs_in_place
//       CHECK: kiln.executable.export @lhs_in_place
//       CHECK: linalg.pack {{.*}} {kiln.read_in_place} : tensor<64x80xf32> -> tensor<8x80x8x1xf32>
//       CHECK: linalg.pack {{.*}} {lowering_config = #kiln.lowering_config<vector = [{{.*}}]>} : tensor<80x512xf32> -> tensor<16x80x32x1xf32>
kiln.executable @lhs_in_place {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @lhs_in_place ordinal(0) bindings(3)
    builtin.module {
      func.func @lhs_in_place() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<64x80xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<64x80xf32> to tensor<64x80xf32>
        %2 = kiln.binding 1 : memref<80x512xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<80x512xf32> to tensor<80x512xf32>
        %ea = tensor.empty() : tensor<8x80x8x1xf32>
        %pa = linalg.pack %1 inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<64x80xf32> -> tensor<8x80x8x1xf32>
        %eb = tensor.empty() : tensor<16x80x32x1xf32>
        %pb = linalg.pack %3 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %eb : tensor<80x512xf32> -> tensor<16x80x32x1xf32>
        %ec = tensor.empty() : tensor<8x16x8x32xf32>
        %fc = linalg.fill ins(%cst : f32) outs(%ec : tensor<8x16x8x32xf32>) -> tensor<8x16x8x32xf32>
        %m = linalg.mmt4d ins(%pa, %pb : tensor<8x80x8x1xf32>, tensor<16x80x32x1xf32>) outs(%fc : tensor<8x16x8x32xf32>) -> tensor<8x16x8x32xf32>
        %e = tensor.empty() : tensor<64x512xf32>
        %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<8x16x8x32xf32> -> tensor<64x512xf32>
        %4 = kiln.binding 2 : memref<64x512xf32>
        bufferization.materialize_in_destination %u in restrict writable %4 : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a large pad (its fill and insert_slice) is split over
// workgroups by rows of its destination (58 rows of 58x64 elements: 12
// workgroups of about 16Ki elements each).
// CHECK-LABEL: kiln.executable @big_pad
//       CHECK: kiln.executable.export @big_pad ordinal(0) bindings(2) workgroups([12, 1, 1])
//       CHECK: tensor.insert_slice {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, 5, 0, 0], vector = [0, 0, 0, 0]>
kiln.executable @big_pad {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @big_pad ordinal(0) bindings(2)
    builtin.module {
      func.func @big_pad() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x56x56x64xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x56x56x64xf32> to tensor<1x56x56x64xf32>
        %e = tensor.empty() : tensor<1x58x58x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x58x58x64xf32>) -> tensor<1x58x58x64xf32>
        %i = tensor.insert_slice %1 into %f[0, 1, 1, 0] [1, 56, 56, 64] [1, 1, 1, 1] : tensor<1x56x56x64xf32> into tensor<1x58x58x64xf32>
        %2 = kiln.binding 1 : memref<1x58x58x64xf32>
        bufferization.materialize_in_destination %i in restrict writable %2 : (tensor<1x58x58x64xf32>, memref<1x58x58x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a large pad with a batch known only at run time is split over
// workgroups by its rows as one image's would be (58 rows: 12 workgroups),
// each taking the whole batch.
// CHECK-LABEL: kiln.executable @big_pad_dynamic_batch
//       CHECK: kiln.executable.export @big_pad_dynamic_batch ordinal(0) bindings(2) workgroups([12, 1, 1])
//       CHECK: tensor.insert_slice {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, 5, 0, 0], vector = [0, 0, 0, 0]>
kiln.executable @big_pad_dynamic_batch {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @big_pad_dynamic_batch ordinal(0) bindings(2)
    builtin.module {
      func.func @big_pad_dynamic_batch() {
        %cst = arith.constant 0.0 : f32
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n) : memref<?x56x56x64xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<?x56x56x64xf32> to tensor<?x56x56x64xf32>
        %e = tensor.empty(%n) : tensor<?x58x58x64xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x58x58x64xf32>) -> tensor<?x58x58x64xf32>
        %i = tensor.insert_slice %1 into %f[0, 1, 1, 0] [%n, 56, 56, 64] [1, 1, 1, 1] : tensor<?x56x56x64xf32> into tensor<?x58x58x64xf32>
        %2 = kiln.binding 1(%n) : memref<?x58x58x64xf32>
        bufferization.materialize_in_destination %i in restrict writable %2 : (tensor<?x58x58x64xf32>, memref<?x58x58x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a loop whose range is known only at run time is tiled as if
// it were large and takes its grid dimension from its dispatch constant:
// rows of ?x16 in workgroups of 1024 rows, ceil(constant 0 / 1024) of them
// along x.
// CHECK-LABEL: kiln.executable @dyn
//       CHECK: kiln.executable.export @dyn ordinal(0) bindings(2) workgroups([1, 1, 1]) {workgroup_tiles = array<i64: 0, 0, 1024>}
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [1024, 0], vector = [1, 16]>
kiln.executable @dyn {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @dyn ordinal(0) bindings(2)
    builtin.module {
      func.func @dyn() {
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n) : memref<?x16xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<?x16xf32> to tensor<?x16xf32>
        %e = tensor.empty(%n) : tensor<?x16xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                             iterator_types = ["parallel", "parallel"]}
            ins(%1 : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) {
        ^bb0(%x: f32, %o: f32):
          %s = arith.mulf %x, %x : f32
          linalg.yield %s : f32
        } -> tensor<?x16xf32>
        %m = kiln.dispatch.constant 1 : index
        %2 = kiln.binding 1(%m) : memref<?x16xf32>
        bufferization.materialize_in_destination %g in restrict writable %2 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a pack whose tile sizes are index constants moves one tile per
// vector iteration and splits its outer rows (known only at run time, the
// output's extent: constant 0) over workgroups.
// CHECK-LABEL: kiln.executable @pack_dynamic_tiles
//       CHECK: kiln.executable.export @pack_dynamic_tiles ordinal(0) bindings(2) workgroups([1, 1, 1]) {index_constants = 2 : index, workgroup_tiles = array<i64: 0, 0, [[TILE:[0-9]+]]>}
//       CHECK: linalg.pack {{.*}}lowering_config = #kiln.lowering_config<workgroup = [[[TILE]], 0], vector = [1, 1]>
kiln.executable @pack_dynamic_tiles {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @pack_dynamic_tiles ordinal(0) bindings(2) {index_constants = 2 : index}
    builtin.module {
      func.func @pack_dynamic_tiles() {
        %cst = arith.constant 0 : i32
        %0 = kiln.binding 0 : memref<100x250xi32>
        %1 = bufferization.to_tensor %0 restrict : memref<100x250xi32> to tensor<100x250xi32>
        %r = kiln.dispatch.constant 0 : index
        %c = kiln.dispatch.constant 1 : index
        %t0 = kiln.dispatch.constant 4 : index
        %t1 = kiln.dispatch.constant 5 : index
        %e = tensor.empty(%r, %c, %t0, %t1) : tensor<?x?x?x?xi32>
        %p = linalg.pack %1 padding_value(%cst : i32) inner_dims_pos = [0, 1] inner_tiles = [%t0, %t1] into %e : tensor<100x250xi32> -> tensor<?x?x?x?xi32>
        %d2 = kiln.dispatch.constant 2 : index
        %d3 = kiln.dispatch.constant 3 : index
        %2 = kiln.binding 1(%r, %c, %d2, %d3) : memref<?x?x?x?xi32>
        bufferization.materialize_in_destination %p in restrict writable %2 : (tensor<?x?x?x?xi32>, memref<?x?x?x?xi32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed contraction whose row tiles are known only at run
// time splits them as it would 1024 rows (128 tiles of 8), each workgroup
// taking a fixed number of row tiles, so larger batches get more
// workgroups: the grid's y dimension is ceil(constant 0 / rows per
// workgroup), and the packed rows and the result's agree.
// CHECK-LABEL: kiln.executable @mmt4d_dynamic_rows
//       CHECK: kiln.executable.export @mmt4d_dynamic_rows ordinal(0) bindings(3) workgroups([{{[0-9]+}}, 1, 1]) {equal_constants = array<i64: 0, 1>, workgroup_tiles = array<i64: 1, 0, [[TILE:[0-9]+]]>}
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<workgroup = [[[TILE]], {{[0-9]+}}, 0, 0, 0, 0], vector = [1, 1, 1, 8, 32, 1]>}
kiln.executable @mmt4d_dynamic_rows {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_dynamic_rows ordinal(0) bindings(3) {equal_constants = array<i64: 0, 1>}
    builtin.module {
      func.func @mmt4d_dynamic_rows() {
        %zero = arith.constant 0.0 : f32
        %r = kiln.dispatch.constant 1 : index
        %m = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%m) : memref<?x512x8x1xf32>
        %a = bufferization.to_tensor %0 restrict : memref<?x512x8x1xf32> to tensor<?x512x8x1xf32>
        %1 = kiln.binding 1 : memref<16x512x32x1xf32>
        %b = bufferization.to_tensor %1 restrict : memref<16x512x32x1xf32> to tensor<16x512x32x1xf32>
        %e = tensor.empty(%r) : tensor<?x16x8x32xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
        %c = linalg.mmt4d ins(%a, %b : tensor<?x512x8x1xf32>, tensor<16x512x32x1xf32>) outs(%f : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
        %2 = kiln.binding 2(%r) : memref<?x16x8x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %2 : (tensor<?x16x8x32xf32>, memref<?x16x8x32xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a packed contraction whose rows are known only at run time,
// unpacked in its dispatch and reading its LHS in place, gives the unpack
// whole accumulator tiles: 8 rows (not the rows' unknown count) by 32
// columns per vector tile, and as many rows per workgroup as 64 row tiles
// (a block of the 128 its rows are planned as).
// CHECK-LABEL: kiln.executable @mmt4d_dynamic_rows_unpacked
//       CHECK: linalg.mmt4d {lowering_config = #kiln.lowering_config<vector = [1, 1, 1, 8, 32, 1]>}
//       CHECK: linalg.unpack {{.*}}lowering_config = #kiln.lowering_config<workgroup = [512, {{[0-9]+}}], vector = [8, 32]>
kiln.executable @mmt4d_dynamic_rows_unpacked {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @mmt4d_dynamic_rows_unpacked ordinal(0) bindings(3)
    builtin.module {
      func.func @mmt4d_dynamic_rows_unpacked() {
        %zero = arith.constant 0.0 : f32
        %n = kiln.dispatch.constant 0 : index
        %0 = kiln.binding 0(%n) : memref<?x512xf32>
        %a = bufferization.to_tensor %0 restrict : memref<?x512xf32> to tensor<?x512xf32>
        %1 = kiln.binding 1 : memref<16x512x32x1xf32>
        %b = bufferization.to_tensor %1 restrict : memref<16x512x32x1xf32> to tensor<16x512x32x1xf32>
        %m1 = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%n]
        %ea = tensor.empty(%m1) : tensor<?x512x8x1xf32>
        %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<?x512xf32> -> tensor<?x512x8x1xf32>
        %e = tensor.empty(%m1) : tensor<?x16x8x32xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
        %c = linalg.mmt4d ins(%pa, %b : tensor<?x512x8x1xf32>, tensor<16x512x32x1xf32>) outs(%f : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
        %eu = tensor.empty(%n) : tensor<?x512xf32>
        %u = linalg.unpack %c inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %eu : tensor<?x16x8x32xf32> -> tensor<?x512xf32>
        %2 = kiln.binding 2(%n) : memref<?x512xf32>
        bufferization.materialize_in_destination %u in restrict writable %2 : (tensor<?x512xf32>, memref<?x512xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a direct convolution over groups of channels (32 groups of 4)
// vectorizes one group's 4 outputs per register and fills AVX-512's 20
// accumulator registers with pixels, rounded to 14, a divisor of the 56
// output columns (down to half the block rather than a remainder).
// CHECK-LABEL: kiln.executable @grouped_conv_avx512
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, {{[1-9][0-9]*}}, 0, 0, 0, 0, 0, 0], vector = [1, 1, 14, 1, 4, 1, 1, 1]>
kiln.executable @grouped_conv_avx512 {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @grouped_conv_avx512 ordinal(0) bindings(3)
    builtin.module {
      func.func @grouped_conv_avx512() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x58x58x32x4xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x58x58x32x4xf32> to tensor<1x58x58x32x4xf32>
        %2 = kiln.binding 1 : memref<3x3x4x32x4xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<3x3x4x32x4xf32> to tensor<3x3x4x32x4xf32>
        %e = tensor.empty() : tensor<1x56x56x32x4xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x56x56x32x4xf32>) -> tensor<1x56x56x32x4xf32>
        %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>,
                                              affine_map<(n, oh, ow, g, m, kh, kw, c) -> (kh, kw, c, g, m)>,
                                              affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh, ow, g, m)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%1, %3 : tensor<1x58x58x32x4xf32>, tensor<3x3x4x32x4xf32>) outs(%f : tensor<1x56x56x32x4xf32>) {
        ^bb0(%in: f32, %w: f32, %out: f32):
          %m = arith.mulf %in, %w : f32
          %a = arith.addf %out, %m : f32
          linalg.yield %a : f32
        } -> tensor<1x56x56x32x4xf32>
        %4 = kiln.binding 2 : memref<1x56x56x32x4xf32>
        bufferization.materialize_in_destination %c in restrict writable %4 : (tensor<1x56x56x32x4xf32>, memref<1x56x56x32x4xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that with AVX2 (12 accumulator registers) a group of 8 outputs is
// one register and the pixels are 7, which divides the 28 output columns.
// CHECK-LABEL: kiln.executable @grouped_conv_avx2
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, {{[1-9][0-9]*}}, 0, 0, 0, 0, 0, 0], vector = [1, 1, 7, 1, 8, 1, 1, 1]>
kiln.executable @grouped_conv_avx2 {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @grouped_conv_avx2 ordinal(0) bindings(3)
    builtin.module {
      func.func @grouped_conv_avx2() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x30x30x32x8xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x30x30x32x8xf32> to tensor<1x30x30x32x8xf32>
        %2 = kiln.binding 1 : memref<3x3x8x32x8xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<3x3x8x32x8xf32> to tensor<3x3x8x32x8xf32>
        %e = tensor.empty() : tensor<1x28x28x32x8xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x28x28x32x8xf32>) -> tensor<1x28x28x32x8xf32>
        %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>,
                                              affine_map<(n, oh, ow, g, m, kh, kw, c) -> (kh, kw, c, g, m)>,
                                              affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh, ow, g, m)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%1, %3 : tensor<1x30x30x32x8xf32>, tensor<3x3x8x32x8xf32>) outs(%f : tensor<1x28x28x32x8xf32>) {
        ^bb0(%in: f32, %w: f32, %out: f32):
          %m = arith.mulf %in, %w : f32
          %a = arith.addf %out, %m : f32
          linalg.yield %a : f32
        } -> tensor<1x28x28x32x8xf32>
        %4 = kiln.binding 2 : memref<1x28x28x32x8xf32>
        bufferization.materialize_in_destination %c in restrict writable %4 : (tensor<1x28x28x32x8xf32>, memref<1x28x28x32x8xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Tests that a group of 32 outputs takes two AVX-512 registers per pixel
// and the 7 output columns whole (10 pixels would fit).
// CHECK-LABEL: kiln.executable @grouped_conv_wide_groups
//       CHECK: linalg.generic {{.*}}lowering_config = #kiln.lowering_config<workgroup = [0, {{[1-9][0-9]*}}, 0, 0, 0, 0, 0, 0], vector = [1, 1, 7, 1, 32, 1, 1, 1]>
kiln.executable @grouped_conv_wide_groups {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @grouped_conv_wide_groups ordinal(0) bindings(3)
    builtin.module {
      func.func @grouped_conv_wide_groups() {
        %cst = arith.constant 0.0 : f32
        %0 = kiln.binding 0 : memref<1x9x9x32x32xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<1x9x9x32x32xf32> to tensor<1x9x9x32x32xf32>
        %2 = kiln.binding 1 : memref<3x3x32x32x32xf32>
        %3 = bufferization.to_tensor %2 restrict : memref<3x3x32x32x32xf32> to tensor<3x3x32x32x32xf32>
        %e = tensor.empty() : tensor<1x7x7x32x32xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x7x7x32x32xf32>) -> tensor<1x7x7x32x32xf32>
        %c = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>,
                                              affine_map<(n, oh, ow, g, m, kh, kw, c) -> (kh, kw, c, g, m)>,
                                              affine_map<(n, oh, ow, g, m, kh, kw, c) -> (n, oh, ow, g, m)>],
                             iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
            ins(%1, %3 : tensor<1x9x9x32x32xf32>, tensor<3x3x32x32x32xf32>) outs(%f : tensor<1x7x7x32x32xf32>) {
        ^bb0(%in: f32, %w: f32, %out: f32):
          %m = arith.mulf %in, %w : f32
          %a = arith.addf %out, %m : f32
          linalg.yield %a : f32
        } -> tensor<1x7x7x32x32xf32>
        %4 = kiln.binding 2 : memref<1x7x7x32x32xf32>
        bufferization.materialize_in_destination %c in restrict writable %4 : (tensor<1x7x7x32x32xf32>, memref<1x7x7x32x32xf32>) -> ()
        return
      }
    }
  }
}
