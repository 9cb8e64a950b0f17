// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-materialize-data-tiling{cpu=x86-64-v3}))" | FileCheck %s --check-prefix=AVX2
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-materialize-data-tiling{cpu=x86-64-v4}))" | FileCheck %s --check-prefix=AVX512
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-materialize-data-tiling{cpu=x86-64-v4,x86-64-v3}))" | FileCheck %s --check-prefix=SHARED
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-materialize-data-tiling{cpu=x86-64-v3,x86-64-v4}))" | FileCheck %s --check-prefix=AVX2

// Tests that a matmul becomes packs of both operands, an mmt4d and an unpack,
// with 6 x 16 accumulator tiles for AVX2's 16 registers and 8 x 32 for
// AVX-512's 32 (in 6 rows here, which pad 100 rows the least); sizes that do not divide the tiles are padded with zeros,
// and the fill of the accumulator is packed into a fill. For AVX-512 code
// beside AVX2 code the tiles are AVX-512's in the 6 rows of AVX2's block;
// for AVX2 code first, AVX2's.
// AVX2-LABEL: func.func @matmul
//  AVX2-SAME:   %[[A:.+]]: tensor<100x80xf32>, %[[B:.+]]: tensor<80x40xf32>
//       AVX2:   %[[ZERO:.+]] = arith.constant 0.0
//       AVX2:   %[[PA:.+]] = linalg.pack %[[A]] padding_value(%[[ZERO]] : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %{{.+}} : tensor<100x80xf32> -> tensor<17x80x6x1xf32>
//       AVX2:   %[[PB:.+]] = linalg.pack %[[B]] padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %{{.+}} : tensor<80x40xf32> -> tensor<3x80x16x1xf32>
//       AVX2:   %[[ACC:.+]] = linalg.fill ins(%{{.+}}) outs(%{{.+}} : tensor<17x3x6x16xf32>)
//       AVX2:   %[[M:.+]] = linalg.mmt4d ins(%[[PA]], %[[PB]] : tensor<17x80x6x1xf32>, tensor<3x80x16x1xf32>) outs(%[[ACC]] : tensor<17x3x6x16xf32>)
//       AVX2:   linalg.unpack %[[M]] inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %{{.+}} : tensor<17x3x6x16xf32> -> tensor<100x40xf32>
//   AVX2-NOT:   linalg.matmul
// AVX512-LABEL: func.func @matmul
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<17x2x6x32xf32>
// SHARED-LABEL: func.func @matmul
//       SHARED:   linalg.mmt4d {{.*}} -> tensor<17x2x6x32xf32>
func.func @matmul(%a: tensor<100x80xf32>, %b: tensor<80x40xf32>) -> tensor<100x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x40xf32>) -> tensor<100x40xf32>
  %m = linalg.matmul ins(%a, %b : tensor<100x80xf32>, tensor<80x40xf32>) outs(%f : tensor<100x40xf32>) -> tensor<100x40xf32>
  return %m : tensor<100x40xf32>
}

// -----

// Tests that a constant weight is packed at compile time: no pack of it is
// left, and the packed constant holds N0-wide column tiles one after the
// other (B is 2 x 32, iota: tile 0 is columns 0-15 of rows 0 and 1, then
// tile 1 starts with column 16 of row 0).
// AVX2-LABEL: func.func @constant_weight
//       AVX2:   %[[W:.+]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00], [1.000000e+00]
//  AVX2-SAME:   [1.500000e+01]], {{\[\[}}3.200000e+01], [3.300000e+01]
//  AVX2-SAME:   [4.700000e+01]]], {{\[\[\[}}1.600000e+01]
//  AVX2-SAME:   : tensor<2x2x16x1xf32>
//       AVX2:   linalg.mmt4d ins(%{{.+}}, %[[W]] :
//   AVX2-NOT:   linalg.pack %cst
func.func @constant_weight(%a: tensor<8192x2xf32>) -> tensor<8192x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0],
                             [32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<2x32xf32>
  %e = tensor.empty() : tensor<8192x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8192x32xf32>) -> tensor<8192x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8192x2xf32>, tensor<2x32xf32>) outs(%f : tensor<8192x32xf32>) -> tensor<8192x32xf32>
  return %m : tensor<8192x32xf32>
}

// -----

// Tests that a constant reshaped before its pack (a 1x1 filter collapsed to
// a matrix; an imported weight is a resource, whose reshape does not fold)
// is packed at compile time too.
// AVX2-LABEL: func.func @reshaped_constant_weight
//       AVX2:   %[[W:.+]] = arith.constant dense_resource<{{.+}}.packed> : tensor<2x2x16x1xf32>
//       AVX2:   linalg.mmt4d ins(%{{.+}}, %[[W]] :
//   AVX2-NOT:   linalg.pack
func.func @reshaped_constant_weight(%a: tensor<8192x2xf32>) -> tensor<8192x32xf32> {
  %zero = arith.constant 0.0 : f32
  %w4 = arith.constant dense_resource<filter> : tensor<1x1x2x32xf32>
  %w = tensor.collapse_shape %w4 [[0, 1, 2], [3]] : tensor<1x1x2x32xf32> into tensor<2x32xf32>
  %e = tensor.empty() : tensor<8192x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8192x32xf32>) -> tensor<8192x32xf32>
  %m = linalg.matmul ins(%a, %w : tensor<8192x2xf32>, tensor<2x32xf32>) outs(%f : tensor<8192x32xf32>) -> tensor<8192x32xf32>
  return %m : tensor<8192x32xf32>
}

{-#
  dialect_resources: {
    builtin: {
      filter: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C4200004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42"
    }
  }
#-}

// -----

// Tests that a one-row matmul (a classifier on one image) packs when its
// matrix is a constant, which packs at compile time into panels of N0
// columns, and becomes a vecmat when it is not.
//   AVX2-LABEL: func.func @one_row
// AVX512-LABEL: func.func @one_row
//       AVX512:   %[[W:.+]] = arith.constant dense<5.000000e-01> : tensor<32x256x32x1xf32>
//       AVX512:   linalg.mmt4d ins(%{{.+}}, %[[W]] : tensor<1x256x1x1xf32>, tensor<32x256x32x1xf32>) outs(%{{.+}} : tensor<1x32x1x32xf32>)
//       AVX512:   linalg.unpack {{.*}} -> tensor<1x1024xf32>
//       AVX512:   linalg.vecmat ins(%{{.+}}, %{{.+}} : tensor<256xf32>, tensor<256x1024xf32>)
func.func @one_row(%x: tensor<1x256xf32>, %m: tensor<256x1024xf32>) -> (tensor<1x1024xf32>, tensor<1x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<256x1024xf32>
  %e = tensor.empty() : tensor<1x1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %c = linalg.matmul ins(%x, %w : tensor<1x256xf32>, tensor<256x1024xf32>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  %v = linalg.matmul ins(%x, %m : tensor<1x256xf32>, tensor<256x1024xf32>) outs(%f : tensor<1x1024xf32>) -> tensor<1x1024xf32>
  return %c, %v : tensor<1x1024xf32>, tensor<1x1024xf32>
}

// -----

// Tests that a batch matmul becomes a batch_mmt4d, with the batch outermost
// in every packed operand.
// AVX2-LABEL: func.func @batch_matmul
//       AVX2:   linalg.pack %{{.+}} inner_dims_pos = [1, 2] inner_tiles = [6, 1] {{.*}} -> tensor<4x11x96x6x1xf32>
//       AVX2:   linalg.pack %{{.+}} outer_dims_perm = [0, 2, 1] inner_dims_pos = [2, 1] inner_tiles = [16, 1] {{.*}} -> tensor<4x5x96x16x1xf32>
//       AVX2:   linalg.batch_mmt4d {{.*}} -> tensor<4x11x5x6x16xf32>
//       AVX2:   linalg.unpack {{.*}} -> tensor<4x64x80xf32>
func.func @batch_matmul(%a: tensor<4x64x96xf32>, %b: tensor<4x96x80xf32>) -> tensor<4x64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64x80xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64x80xf32>) -> tensor<4x64x80xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<4x64x96xf32>, tensor<4x96x80xf32>) outs(%f : tensor<4x64x80xf32>) -> tensor<4x64x80xf32>
  return %m : tensor<4x64x80xf32>
}

// -----

// Tests that a matmul with a transposed RHS (a generic contraction, as from
// Q K^T) packs its RHS without a transpose: N and K are already its outer
// and inner dims.
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>
// AVX2-LABEL: func.func @matmul_transpose_b
//       AVX2:   linalg.pack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [16, 1] {{.*}} : tensor<128x64xf32> -> tensor<8x64x16x1xf32>
//       AVX2:   linalg.mmt4d
func.func @matmul_transpose_b(%a: tensor<128x64xf32>, %b: tensor<128x64xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %m = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<128x64xf32>, tensor<128x64xf32>) outs(%f : tensor<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %m : tensor<128x128xf32>
}

// -----

// Tests that small contractions, matrix-vector products and mixed element
// types are left alone.
// AVX2-LABEL: func.func @left_alone
//   AVX2-NOT:   linalg.pack
//   AVX2-NOT:   linalg.mmt4d
//       AVX2:   linalg.matmul ins(%{{.+}} : tensor<8x8xf32>, tensor<8x8xf32>)
//       AVX2:   linalg.matvec
//       AVX2:   linalg.matmul ins(%{{.+}} : tensor<128x128xi8>, tensor<128x128xi8>) outs(%{{.+}} : tensor<128x128xi32>)
func.func @left_alone(%a: tensor<8x8xf32>, %v: tensor<1024xf32>, %m: tensor<1024x1024xf32>,
                      %x: tensor<128x128xi8>) -> (tensor<8x8xf32>, tensor<1024xf32>, tensor<128x128xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %small = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %ev = tensor.empty() : tensor<1024xf32>
  %fv = linalg.fill ins(%zero : f32) outs(%ev : tensor<1024xf32>) -> tensor<1024xf32>
  %mv = linalg.matvec ins(%m, %v : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%fv : tensor<1024xf32>) -> tensor<1024xf32>
  %izero = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<128x128xi32>
  %fi = linalg.fill ins(%izero : i32) outs(%ei : tensor<128x128xi32>) -> tensor<128x128xi32>
  %mixed = linalg.matmul ins(%x, %x : tensor<128x128xi8>, tensor<128x128xi8>) outs(%fi : tensor<128x128xi32>) -> tensor<128x128xi32>
  return %small, %mv, %mixed : tensor<8x8xf32>, tensor<1024xf32>, tensor<128x128xi32>
}

// -----

// Tests that a transpose feeding a contraction (attention's split into heads)
// folds into the operand's pack, and a transpose of the result into the
// unpack: no linalg.transpose is left to run as a dispatch of its own.
// AVX2-LABEL: func.func @transposed_operands
//   AVX2-NOT:   linalg.transpose
//       AVX2:   linalg.pack %{{.+}} outer_dims_perm = [1, 0, 2] inner_dims_pos = [0, 2] inner_tiles = [6, 1] {{.*}} : tensor<128x4x64xf32> -> tensor<4x22x64x6x1xf32>
//       AVX2:   linalg.batch_mmt4d
//       AVX2:   linalg.unpack {{.*}} outer_dims_perm = [1, 0, 2] {{.*}} -> tensor<128x4x128xf32>
//   AVX2-NOT:   linalg.transpose
func.func @transposed_operands(%q: tensor<128x4x64xf32>, %k: tensor<4x64x128xf32>) -> tensor<128x4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<4x128x64xf32>
  %qt = linalg.transpose ins(%q : tensor<128x4x64xf32>) outs(%eq : tensor<4x128x64xf32>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %s = linalg.batch_matmul ins(%qt, %k : tensor<4x128x64xf32>, tensor<4x64x128xf32>) outs(%f : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %et = tensor.empty() : tensor<128x4x128xf32>
  %st = linalg.transpose ins(%s : tensor<4x128x128xf32>) outs(%et : tensor<128x4x128xf32>) permutation = [1, 0, 2]
  return %st : tensor<128x4x128xf32>
}

// -----

// Tests that a matmul whose rows are known only at run time (a batch) is
// packed as one of many rows: its rows padded to whole M0 tiles (ceil(m /
// M0) of them) and the result unpacked into the rows of the accumulator;
// a dynamic range other than the rows leaves the contraction unpacked.
// AVX2-LABEL: func.func @dynamic_rows
//  AVX2-SAME:   %[[A:.+]]: tensor<?x512xf32>
//       AVX2:   %[[PA:.+]] = linalg.pack %[[A]] padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [6, 1] into %{{.+}} : tensor<?x512xf32> -> tensor<?x512x6x1xf32>
//       AVX2:   %[[M:.+]] = linalg.mmt4d ins(%[[PA]], %{{.+}} : tensor<?x512x6x1xf32>, tensor<32x512x16x1xf32>) outs(%{{.+}} : tensor<?x32x6x16xf32>)
//       AVX2:   %[[ROWS:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x512xf32>
//       AVX2:   %[[E:.+]] = tensor.empty(%[[ROWS]]) : tensor<?x512xf32>
//       AVX2:   linalg.unpack %[[M]] inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %[[E]] : tensor<?x32x6x16xf32> -> tensor<?x512xf32>
// AVX2-LABEL: func.func @dynamic_columns
//       AVX2:   linalg.matmul
//   AVX2-NOT:   linalg.mmt4d
func.func @dynamic_rows(%a: tensor<?x512xf32>, %b: tensor<512x512xf32>) -> tensor<?x512xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x512xf32>
  %e = tensor.empty(%m) : tensor<?x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x512xf32>, tensor<512x512xf32>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %r : tensor<?x512xf32>
}

func.func @dynamic_columns(%a: tensor<512x512xf32>, %b: tensor<512x?xf32>) -> tensor<512x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %b, %c1 : tensor<512x?xf32>
  %e = tensor.empty(%n) : tensor<512x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x?xf32>) -> tensor<512x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x?xf32>) outs(%f : tensor<512x?xf32>) -> tensor<512x?xf32>
  return %r : tensor<512x?xf32>
}

// -----

// Tests that rows known only at run time that an image's pixels make (the
// LHS merges [N, 56, 56, 24] into [N*56*56, 24]) are planned as at least
// 56*56 rows: the 1x1 convolution is packed, where 24 x 144 over 64 rows
// would not pay for the packing (the same matmul on a plain [?, 24] LHS).
// AVX2-LABEL: func.func @dynamic_image_rows
//       AVX2:   linalg.mmt4d
//   AVX2-NOT:   linalg.matmul
// AVX2-LABEL: func.func @dynamic_plain_rows
//       AVX2:   linalg.matmul
//   AVX2-NOT:   linalg.mmt4d
func.func @dynamic_image_rows(%x: tensor<?x56x56x24xf32>, %b: tensor<24x144xf32>) -> tensor<?x144xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %a = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<?x56x56x24xf32> into tensor<?x24xf32>
  %m = tensor.dim %a, %c0 : tensor<?x24xf32>
  %e = tensor.empty(%m) : tensor<?x144xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x144xf32>) -> tensor<?x144xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x24xf32>, tensor<24x144xf32>) outs(%f : tensor<?x144xf32>) -> tensor<?x144xf32>
  return %r : tensor<?x144xf32>
}

func.func @dynamic_plain_rows(%a: tensor<?x24xf32>, %b: tensor<24x144xf32>) -> tensor<?x144xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x24xf32>
  %e = tensor.empty(%m) : tensor<?x144xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x144xf32>) -> tensor<?x144xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x24xf32>, tensor<24x144xf32>) outs(%f : tensor<?x144xf32>) -> tensor<?x144xf32>
  return %r : tensor<?x144xf32>
}

// -----

// Tests that with 32 registers a contraction with at least 256 rows, or 192
// that the default block pads (ViT's 197 here; not 196, which seven divide),
// and 256 columns, whose 32-column RHS panels L1 would not hold (x86-64-v4:
// 32 KiB, so K above 256), takes the wide block of 6 rows of 64 columns;
// with fewer rows or columns, a K whose panels L1 holds, or f16 elements,
// the default block stays. AVX2 keeps 6 x 16 throughout. Beside AVX2 code the wide
// block stays and the others take 6 rows.
// AVX512-LABEL: func.func @wide_block
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<33x5x6x64xf32>
// AVX512-LABEL: func.func @rows_seven_divide
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<28x9x7x32xf32>
// AVX512-LABEL: func.func @few_rows
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<24x9x8x32xf32>
// AVX512-LABEL: func.func @few_columns
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<43x8x6x32xf32>
// AVX512-LABEL: func.func @shallow
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<43x9x6x32xf32>
// AVX512-LABEL: func.func @half_precision
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<43x5x6x64xf16>
// SHARED-LABEL: func.func @wide_block
//       SHARED:   linalg.mmt4d {{.*}} -> tensor<33x5x6x64xf32>
// SHARED-LABEL: func.func @few_rows
//       SHARED:   linalg.mmt4d {{.*}} -> tensor<32x9x6x32xf32>
// SHARED-LABEL: func.func @half_precision
//       SHARED:   linalg.mmt4d {{.*}} -> tensor<43x5x6x64xf16>
// AVX2-LABEL: func.func @wide_block
//       AVX2:   linalg.mmt4d {{.*}} -> tensor<33x17x6x16xf32>
func.func @wide_block(%a: tensor<197x257xf32>, %b: tensor<257x263xf32>) -> tensor<197x263xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<197x263xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<197x263xf32>) -> tensor<197x263xf32>
  %r = linalg.matmul ins(%a, %b : tensor<197x257xf32>, tensor<257x263xf32>) outs(%f : tensor<197x263xf32>) -> tensor<197x263xf32>
  return %r : tensor<197x263xf32>
}

func.func @rows_seven_divide(%a: tensor<196x512xf32>, %b: tensor<512x263xf32>) -> tensor<196x263xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<196x263xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<196x263xf32>) -> tensor<196x263xf32>
  %r = linalg.matmul ins(%a, %b : tensor<196x512xf32>, tensor<512x263xf32>) outs(%f : tensor<196x263xf32>) -> tensor<196x263xf32>
  return %r : tensor<196x263xf32>
}

func.func @few_rows(%a: tensor<191x512xf32>, %b: tensor<512x263xf32>) -> tensor<191x263xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<191x263xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<191x263xf32>) -> tensor<191x263xf32>
  %r = linalg.matmul ins(%a, %b : tensor<191x512xf32>, tensor<512x263xf32>) outs(%f : tensor<191x263xf32>) -> tensor<191x263xf32>
  return %r : tensor<191x263xf32>
}

func.func @few_columns(%a: tensor<257x512xf32>, %b: tensor<512x255xf32>) -> tensor<257x255xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257x255xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<257x255xf32>) -> tensor<257x255xf32>
  %r = linalg.matmul ins(%a, %b : tensor<257x512xf32>, tensor<512x255xf32>) outs(%f : tensor<257x255xf32>) -> tensor<257x255xf32>
  return %r : tensor<257x255xf32>
}

func.func @shallow(%a: tensor<257x256xf32>, %b: tensor<256x263xf32>) -> tensor<257x263xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257x263xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<257x263xf32>) -> tensor<257x263xf32>
  %r = linalg.matmul ins(%a, %b : tensor<257x256xf32>, tensor<256x263xf32>) outs(%f : tensor<257x263xf32>) -> tensor<257x263xf32>
  return %r : tensor<257x263xf32>
}

func.func @half_precision(%a: tensor<257x512xf16>, %b: tensor<512x263xf16>) -> tensor<257x263xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<257x263xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<257x263xf16>) -> tensor<257x263xf16>
  %r = linalg.matmul ins(%a, %b : tensor<257x512xf16>, tensor<512x263xf16>) outs(%f : tensor<257x263xf16>) -> tensor<257x263xf16>
  return %r : tensor<257x263xf16>
}

// -----

// Tests that a contraction with fewer columns than N0 takes the vectors
// they fill: 16 columns one AVX-512 vector (6 x 16 tiles for 100 rows), 8 columns one AVX2 vector; 24 columns keep N0.
// AVX2-LABEL: func.func @few_output_columns
//       AVX2:   linalg.mmt4d {{.*}} -> tensor<17x1x6x16xf32>
//       AVX2:   linalg.mmt4d {{.*}} -> tensor<17x1x6x8xf32>
// AVX512-LABEL: func.func @few_output_columns
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<17x1x6x16xf32>
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<17x1x6x16xf32>
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<17x1x6x32xf32>
// SHARED-LABEL: func.func @few_output_columns
//       SHARED:   linalg.mmt4d {{.*}} -> tensor<17x1x6x16xf32>
func.func @few_output_columns(%a: tensor<100x512xf32>, %b16: tensor<512x16xf32>, %b8: tensor<512x8xf32>, %b24: tensor<512x24xf32>) -> (tensor<100x16xf32>, tensor<100x8xf32>, tensor<100x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %e16 = tensor.empty() : tensor<100x16xf32>
  %f16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %r16 = linalg.matmul ins(%a, %b16 : tensor<100x512xf32>, tensor<512x16xf32>) outs(%f16 : tensor<100x16xf32>) -> tensor<100x16xf32>
  %e8 = tensor.empty() : tensor<100x8xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<100x8xf32>) -> tensor<100x8xf32>
  %r8 = linalg.matmul ins(%a, %b8 : tensor<100x512xf32>, tensor<512x8xf32>) outs(%f8 : tensor<100x8xf32>) -> tensor<100x8xf32>
  %e24 = tensor.empty() : tensor<100x24xf32>
  %f24 = linalg.fill ins(%zero : f32) outs(%e24 : tensor<100x24xf32>) -> tensor<100x24xf32>
  %r24 = linalg.matmul ins(%a, %b24 : tensor<100x512xf32>, tensor<512x24xf32>) outs(%f24 : tensor<100x24xf32>) -> tensor<100x24xf32>
  return %r16, %r8, %r24 : tensor<100x16xf32>, tensor<100x8xf32>, tensor<100x24xf32>
}

// -----

// Tests that AVX-512's tiles take eight, seven or six rows, whichever pad the
// rows the least (8 where they tie): 49 rows in 7, 196 in 7, 64 in 8, 100 in
// 6; AVX2 keeps 6.
// AVX512-LABEL: func.func @rows_padded_least
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<7x8x7x32xf32>
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<28x8x7x32xf32>
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<8x8x8x32xf32>
//       AVX512:   linalg.mmt4d {{.*}} -> tensor<17x8x6x32xf32>
// AVX2-LABEL: func.func @rows_padded_least
//       AVX2:   linalg.mmt4d {{.*}} -> tensor<9x16x6x16xf32>
func.func @rows_padded_least(%a49: tensor<49x256xf32>, %a196: tensor<196x256xf32>, %a64: tensor<64x256xf32>, %a100: tensor<100x256xf32>, %b: tensor<256x256xf32>) -> (tensor<49x256xf32>, tensor<196x256xf32>, tensor<64x256xf32>, tensor<100x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e49 = tensor.empty() : tensor<49x256xf32>
  %f49 = linalg.fill ins(%zero : f32) outs(%e49 : tensor<49x256xf32>) -> tensor<49x256xf32>
  %r49 = linalg.matmul ins(%a49, %b : tensor<49x256xf32>, tensor<256x256xf32>) outs(%f49 : tensor<49x256xf32>) -> tensor<49x256xf32>
  %e196 = tensor.empty() : tensor<196x256xf32>
  %f196 = linalg.fill ins(%zero : f32) outs(%e196 : tensor<196x256xf32>) -> tensor<196x256xf32>
  %r196 = linalg.matmul ins(%a196, %b : tensor<196x256xf32>, tensor<256x256xf32>) outs(%f196 : tensor<196x256xf32>) -> tensor<196x256xf32>
  %e64 = tensor.empty() : tensor<64x256xf32>
  %f64 = linalg.fill ins(%zero : f32) outs(%e64 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r64 = linalg.matmul ins(%a64, %b : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f64 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e100 = tensor.empty() : tensor<100x256xf32>
  %f100 = linalg.fill ins(%zero : f32) outs(%e100 : tensor<100x256xf32>) -> tensor<100x256xf32>
  %r100 = linalg.matmul ins(%a100, %b : tensor<100x256xf32>, tensor<256x256xf32>) outs(%f100 : tensor<100x256xf32>) -> tensor<100x256xf32>
  return %r49, %r196, %r64, %r100 : tensor<49x256xf32>, tensor<196x256xf32>, tensor<64x256xf32>, tensor<100x256xf32>
}

// -----

// Tests that a transpose of a constant (a depthwise filter, [C, KH, KW] in
// ONNX's layout, [KH, KW, C] in the kernel's) is folded at compile time,
// whether the constant is dense or a resource behind a reshape; a transpose
// of an argument stays.
// AVX2-LABEL: func.func @transposed_constant_filter
//   AVX2-DAG:   %[[D:.+]] = arith.constant dense<{{\[\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]]> : tensor<1x3x2xf32>
//   AVX2-DAG:   %[[R:.+]] = arith.constant dense_resource<{{.+}}.packed> : tensor<3x2xf32>
//       AVX2:   %[[A:.+]] = linalg.transpose ins(%{{.+}} : tensor<2x3xf32>)
//       AVX2:   return %[[D]], %[[R]], %[[A]]
func.func @transposed_constant_filter(%arg: tensor<2x3xf32>) -> (tensor<1x3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>) {
  %dense = arith.constant dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> : tensor<2x1x3xf32>
  %e1 = tensor.empty() : tensor<1x3x2xf32>
  %t1 = linalg.transpose ins(%dense : tensor<2x1x3xf32>) outs(%e1 : tensor<1x3x2xf32>) permutation = [1, 2, 0]
  %resource = arith.constant dense_resource<depthwise> : tensor<2x1x3xf32>
  %collapsed = tensor.collapse_shape %resource [[0, 1], [2]] : tensor<2x1x3xf32> into tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<3x2xf32>
  %t2 = linalg.transpose ins(%collapsed : tensor<2x3xf32>) outs(%e2 : tensor<3x2xf32>) permutation = [1, 0]
  %t3 = linalg.transpose ins(%arg : tensor<2x3xf32>) outs(%e2 : tensor<3x2xf32>) permutation = [1, 0]
  return %t1, %t2, %t3 : tensor<1x3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      depthwise: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}
