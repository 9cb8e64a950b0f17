// RUN: kiln-opt %s --split-input-file --kiln-form-dispatch-regions | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-form-dispatch-regions=fuse=false | FileCheck %s --check-prefix=NOFUSE

// Tests that a matmul takes its fill, its scalar constant and its
// elementwise consumer into one region.
// CHECK-LABEL: func.func @matmul_bias_relu
//  CHECK-SAME:   (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>, %[[BIAS:.+]]: tensor<16xf32>)
//       CHECK:   %[[R:.+]] = kiln.dispatch.region -> (tensor<4x16xf32>) {
//   CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.0
//   CHECK-DAG:     %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
//       CHECK:     %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]]
//       CHECK:     %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]]
//       CHECK:     %[[G:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[BIAS]]
//       CHECK:     kiln.return %[[G]] : tensor<4x16xf32>
//       CHECK:   return %[[R]]

// Without fusion the consumer is a dispatch of its own; the matmul still
// copies in the fill it writes and the fill's constant.
// NOFUSE-LABEL: func.func @matmul_bias_relu
//       NOFUSE:   %[[M:.+]] = kiln.dispatch.region -> (tensor<4x16xf32>) {
//       NOFUSE:     linalg.fill
//       NOFUSE:     linalg.matmul
//   NOFUSE-NOT:     linalg.generic
//       NOFUSE:     kiln.return
//       NOFUSE:   %[[R:.+]] = kiln.dispatch.region -> (tensor<4x16xf32>) {
//       NOFUSE:     linalg.generic {{.*}} ins(%[[M]],
//       NOFUSE:   return %[[R]]
func.func @matmul_bias_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    linalg.yield %z : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Tests that a root whose result has another user keeps its consumer out:
// both results must reach memory anyway.
// CHECK-LABEL: func.func @shared_root
//       CHECK:   %[[M:.+]] = kiln.dispatch.region -> (tensor<4x4xf32>) {
//       CHECK:     linalg.matmul
//   CHECK-NOT:     linalg.generic
//       CHECK:     kiln.return
//       CHECK:   %[[G:.+]] = kiln.dispatch.region -> (tensor<4x4xf32>) {
//       CHECK:     linalg.generic {{.*}} ins(%[[M]] :
//       CHECK:   return %[[M]], %[[G]]
func.func @shared_root(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.negf %x : f32
    linalg.yield %z : f32
  } -> tensor<4x4xf32>
  return %m, %r : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Tests that a fill with two users is copied into both regions, and that
// reshapes stay on the host.
// CHECK-LABEL: func.func @shared_fill
//       CHECK:   kiln.dispatch.region
//       CHECK:     linalg.fill
//       CHECK:     linalg.matmul
//       CHECK:   tensor.collapse_shape
//       CHECK:   kiln.dispatch.region
//       CHECK:     linalg.fill
//       CHECK:     linalg.matmul
func.func @shared_fill(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = tensor.collapse_shape %m1 [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  %m2 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c, %m2 : tensor<16xf32>, tensor<4x4xf32>
}

// -----

// Tests that the insert_slice chain of a concat becomes one region with the
// empty destination.
// CHECK-LABEL: func.func @concat
//       CHECK:   kiln.dispatch.region -> (tensor<6xf32>) {
//       CHECK:     tensor.empty
//       CHECK:     tensor.insert_slice
//       CHECK:     tensor.insert_slice
//       CHECK:     kiln.return
//   CHECK-NOT:   kiln.dispatch.region
func.func @concat(%a: tensor<2xf32>, %b: tensor<4xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %0 = tensor.insert_slice %a into %e[0] [2] [1] : tensor<2xf32> into tensor<6xf32>
  %1 = tensor.insert_slice %b into %0[2] [4] [1] : tensor<4xf32> into tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// Tests that a decomposed softmax (max, exp of the difference, sum, divide)
// forms one region: each producer joins once all of its users have, so the
// exp, used by both the sum and the divide, joins after them.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @softmax
//       CHECK:   %[[R:.+]] = kiln.dispatch.region -> (tensor<64x128xf32>) {
//       CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     math.exp
//       CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.divf
//       CHECK:     kiln.return
//   CHECK-NOT:   kiln.dispatch.region
//       CHECK:   return %[[R]]
func.func @softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %e = tensor.empty() : tensor<64x128xf32>
  %fmax = linalg.fill ins(%lowest : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%fmax : tensor<64xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<64x128xf32>, tensor<64xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<64x128xf32>) outs(%fsum : tensor<64xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %out : tensor<64x128xf32>
}

// -----

// Tests that the same softmax over rows whose number is known only at run
// time forms one region too (each row's reduction is static), its result
// sized by the input's rows.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @softmax_dynamic_rows
//       CHECK:   %[[N:.+]] = tensor.dim
//       CHECK:   %[[R:.+]] = kiln.dispatch.region -> (tensor<?x128xf32>) dims(%[[N]]) {
//       CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     math.exp
//       CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
//       CHECK:     arith.divf
//       CHECK:     kiln.return
//   CHECK-NOT:   kiln.dispatch.region
//       CHECK:   return %[[R]]
func.func @softmax_dynamic_rows(%x: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x128xf32>
  %er = tensor.empty(%n) : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?x128xf32>
  %fmax = linalg.fill ins(%lowest : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x128xf32>) outs(%fmax : tensor<?xf32>) {
  ^bb0(%v: f32, %m: f32):
    %r = arith.maximumf %v, %m : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<?x128xf32>, tensor<?xf32>) outs(%e : tensor<?x128xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<?x128xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<?x128xf32>) outs(%fsum : tensor<?xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<?x128xf32>, tensor<?xf32>) outs(%e : tensor<?x128xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<?x128xf32>
  return %out : tensor<?x128xf32>
}

// -----

// Tests that a reduction whose result the host also returns is not pulled
// into its consumer's region: it must reach memory anyway, and a chain joins
// a producer only when every user is in the chain.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
// CHECK-LABEL: func.func @reduction_used_twice
//       CHECK:   kiln.dispatch.region -> (tensor<64xf32>)
//       CHECK:   kiln.dispatch.region -> (tensor<64x128xf32>)
func.func @reduction_used_twice(%x: tensor<64x128xf32>) -> (tensor<64xf32>, tensor<64x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<64xf32>
  %e = tensor.empty() : tensor<64x128xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x128xf32>) outs(%fsum : tensor<64xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<64x128xf32>, tensor<64xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = arith.divf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %sum, %out : tensor<64xf32>, tensor<64x128xf32>
}

// -----

// Tests that a packed contraction packs its RHS in its own region when it has
// few row tiles (11 <= 16) or many column tiles (64 >= 16): its workgroups
// can split the columns alone. One with many row tiles and few column tiles
// (171 and 8) leaves the pack to a region of its own, packed once for all
// workgroups, which then split the rows too; unless it is small (256 x 256 x
// 256 in 32 x 8 tiles): it packs its RHS itself.
// CHECK-LABEL: func.func @rhs_pack
//       CHECK:   kiln.dispatch.region -> (tensor<11x64x6x16xf32>) {
//       CHECK:     linalg.pack
//       CHECK:     linalg.mmt4d
//       CHECK:   kiln.dispatch.region -> (tensor<171x64x6x16xf32>) {
//       CHECK:     linalg.pack
//       CHECK:     linalg.mmt4d
//       CHECK:   kiln.dispatch.region -> (tensor<8x1024x16x1xf32>) {
//       CHECK:     linalg.pack
//       CHECK:   kiln.dispatch.region -> (tensor<171x8x6x16xf32>) {
//   CHECK-NOT:     linalg.pack
//       CHECK:     linalg.mmt4d
//       CHECK:   kiln.dispatch.region -> (tensor<32x8x8x32xf32>) {
//       CHECK:     linalg.pack
//       CHECK:     linalg.mmt4d
func.func @rhs_pack(%small: tensor<11x1024x6x1xf32>, %large: tensor<171x1024x6x1xf32>, %b: tensor<1024x1024xf32>, %narrow: tensor<1024x128xf32>,
                    %a256: tensor<32x256x8x1xf32>, %b256: tensor<256x256xf32>)
    -> (tensor<11x64x6x16xf32>, tensor<171x64x6x16xf32>, tensor<171x8x6x16xf32>, tensor<32x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x1024x16x1xf32>
  %p1 = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %e1 : tensor<1024x1024xf32> -> tensor<64x1024x16x1xf32>
  %es = tensor.empty() : tensor<11x64x6x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<11x64x6x16xf32>) -> tensor<11x64x6x16xf32>
  %ms = linalg.mmt4d ins(%small, %p1 : tensor<11x1024x6x1xf32>, tensor<64x1024x16x1xf32>) outs(%fs : tensor<11x64x6x16xf32>) -> tensor<11x64x6x16xf32>
  %e2 = tensor.empty() : tensor<64x1024x16x1xf32>
  %p2 = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %e2 : tensor<1024x1024xf32> -> tensor<64x1024x16x1xf32>
  %el = tensor.empty() : tensor<171x64x6x16xf32>
  %fl = linalg.fill ins(%zero : f32) outs(%el : tensor<171x64x6x16xf32>) -> tensor<171x64x6x16xf32>
  %ml = linalg.mmt4d ins(%large, %p2 : tensor<171x1024x6x1xf32>, tensor<64x1024x16x1xf32>) outs(%fl : tensor<171x64x6x16xf32>) -> tensor<171x64x6x16xf32>
  %e3 = tensor.empty() : tensor<8x1024x16x1xf32>
  %p3 = linalg.pack %narrow outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %e3 : tensor<1024x128xf32> -> tensor<8x1024x16x1xf32>
  %en = tensor.empty() : tensor<171x8x6x16xf32>
  %fn = linalg.fill ins(%zero : f32) outs(%en : tensor<171x8x6x16xf32>) -> tensor<171x8x6x16xf32>
  %mn = linalg.mmt4d ins(%large, %p3 : tensor<171x1024x6x1xf32>, tensor<8x1024x16x1xf32>) outs(%fn : tensor<171x8x6x16xf32>) -> tensor<171x8x6x16xf32>
  %e4 = tensor.empty() : tensor<8x256x32x1xf32>
  %p4 = linalg.pack %b256 outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %e4 : tensor<256x256xf32> -> tensor<8x256x32x1xf32>
  %e256 = tensor.empty() : tensor<32x8x8x32xf32>
  %f256 = linalg.fill ins(%zero : f32) outs(%e256 : tensor<32x8x8x32xf32>) -> tensor<32x8x8x32xf32>
  %m256 = linalg.mmt4d ins(%a256, %p4 : tensor<32x256x8x1xf32>, tensor<8x256x32x1xf32>) outs(%f256 : tensor<32x8x8x32xf32>) -> tensor<32x8x8x32xf32>
  return %ms, %ml, %mn, %m256 : tensor<11x64x6x16xf32>, tensor<171x64x6x16xf32>, tensor<171x8x6x16xf32>, tensor<32x8x8x32xf32>
}

// -----

// Tests that a packed contraction joins the region of the unpack of its
// result, with the unpack's epilogue: the packed accumulators never leave
// the region. The LHS pack, padded (100 rows in tiles of 8) but read only
// where the unpack drops its padded rows, is read in place: it joins too.
// CHECK-LABEL: func.func @contraction_unpack_epilogue
//   CHECK-NOT:   linalg.pack
//       CHECK:   kiln.dispatch.region -> (tensor<100x40xf32>) {
//       CHECK:     %[[PA:.+]] = linalg.pack
//       CHECK:     linalg.fill
//       CHECK:     linalg.mmt4d ins(%[[PA]],
//       CHECK:     linalg.unpack
//       CHECK:     linalg.generic
//   CHECK-NOT:   kiln.dispatch.region
func.func @contraction_unpack_epilogue(%a: tensor<100x80xf32>, %b: tensor<2x80x32x1xf32>, %bias: tensor<40xf32>) -> tensor<100x40xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<13x80x8x1xf32>
  %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<100x80xf32> -> tensor<13x80x8x1xf32>
  %ec = tensor.empty() : tensor<13x2x8x32xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
  %m = linalg.mmt4d ins(%pa, %b : tensor<13x80x8x1xf32>, tensor<2x80x32x1xf32>) outs(%fc : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
  %e = tensor.empty() : tensor<100x40xf32>
  %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<13x2x8x32xf32> -> tensor<100x40xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%u, %bias : tensor<100x40xf32>, tensor<40xf32>) outs(%e : tensor<100x40xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<100x40xf32>
  return %g : tensor<100x40xf32>
}

// -----

// Tests that a packed contraction whose rows are known only at run time (a
// batch) forms one region too: its LHS pack is read in place (the last
// tile's rows past the batch read its last row), its RHS pack joins (16
// panels give the workgroups whatever the rows), and so does the unpack of
// its rows.
// CHECK-LABEL: func.func @contraction_dynamic_rows
//   CHECK-NOT:   linalg.pack
//       CHECK:   kiln.dispatch.region -> (tensor<?x512xf32>) dims(%{{.+}}) {
//       CHECK:     %[[PA:.+]] = linalg.pack
//       CHECK:     %[[PB:.+]] = linalg.pack
//       CHECK:     linalg.mmt4d ins(%[[PA]], %[[PB]] :
//       CHECK:     linalg.unpack
//   CHECK-NOT:   kiln.dispatch.region
func.func @contraction_dynamic_rows(%a: tensor<?x80xf32>, %b: tensor<80x512xf32>) -> tensor<?x512xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x80xf32>
  %m1 = arith.ceildivsi %n, %c8 : index
  %ea = tensor.empty(%m1) : tensor<?x80x8x1xf32>
  %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<?x80xf32> -> tensor<?x80x8x1xf32>
  %eb = tensor.empty() : tensor<16x80x32x1xf32>
  %pb = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %eb : tensor<80x512xf32> -> tensor<16x80x32x1xf32>
  %ec = tensor.empty(%m1) : tensor<?x16x8x32xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
  %m = linalg.mmt4d ins(%pa, %pb : tensor<?x80x8x1xf32>, tensor<16x80x32x1xf32>) outs(%fc : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
  %e = tensor.empty(%n) : tensor<?x512xf32>
  %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<?x16x8x32xf32> -> tensor<?x512xf32>
  return %u : tensor<?x512xf32>
}

// -----

// Tests that the same contraction whose unpack transposes its result (rows
// known only at run time, outer dims permuted) keeps its packs and its
// unpack in regions of their own: its workgroups would split the packed
// rows, a count the dispatch is not given.
// CHECK-LABEL: func.func @contraction_dynamic_rows_transposed
//       CHECK:   kiln.dispatch.region -> (tensor<?x80x8x1xf32>)
//       CHECK:   kiln.dispatch.region -> (tensor<16x80x32x1xf32>)
//       CHECK:   kiln.dispatch.region -> (tensor<?x16x8x32xf32>)
//   CHECK-NOT:     linalg.unpack
//       CHECK:   kiln.dispatch.region -> (tensor<512x?xf32>)
//       CHECK:     linalg.unpack
func.func @contraction_dynamic_rows_transposed(%a: tensor<?x80xf32>, %b: tensor<80x512xf32>) -> tensor<512x?xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x80xf32>
  %m1 = arith.ceildivsi %n, %c8 : index
  %ea = tensor.empty(%m1) : tensor<?x80x8x1xf32>
  %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<?x80xf32> -> tensor<?x80x8x1xf32>
  %eb = tensor.empty() : tensor<16x80x32x1xf32>
  %pb = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [32, 1] into %eb : tensor<80x512xf32> -> tensor<16x80x32x1xf32>
  %ec = tensor.empty(%m1) : tensor<?x16x8x32xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
  %m = linalg.mmt4d ins(%pa, %pb : tensor<?x80x8x1xf32>, tensor<16x80x32x1xf32>) outs(%fc : tensor<?x16x8x32xf32>) -> tensor<?x16x8x32xf32>
  %e = tensor.empty(%n) : tensor<512x?xf32>
  %u = linalg.unpack %m outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 32] into %e : tensor<?x16x8x32xf32> -> tensor<512x?xf32>
  return %u : tensor<512x?xf32>
}

// -----

// Tests that a packed contraction whose result has another user than its
// unpack keeps a region of its own.
// CHECK-LABEL: func.func @contraction_result_used_twice
//       CHECK:   %[[M:.+]] = kiln.dispatch.region -> (tensor<13x2x8x32xf32>) {
//       CHECK:     linalg.mmt4d
//   CHECK-NOT:     linalg.unpack
//       CHECK:   kiln.dispatch.region -> (tensor<100x40xf32>) {
//       CHECK:     linalg.unpack %[[M]]
func.func @contraction_result_used_twice(%a: tensor<13x80x8x1xf32>, %b: tensor<2x80x32x1xf32>) -> (tensor<100x40xf32>, tensor<13x2x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<13x2x8x32xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
  %m = linalg.mmt4d ins(%a, %b : tensor<13x80x8x1xf32>, tensor<2x80x32x1xf32>) outs(%fc : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
  %e = tensor.empty() : tensor<100x40xf32>
  %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<13x2x8x32xf32> -> tensor<100x40xf32>
  return %u, %m : tensor<100x40xf32>, tensor<13x2x8x32xf32>
}

// -----

// Tests that a pack that pads nothing and tiles K by one, read only as the
// LHS of packed contractions, is copied into each of their regions (they
// read it in place) instead of forming a region of its own.
// CHECK-LABEL: func.func @lhs_pack_read_in_place
//  CHECK-SAME:   %[[A:[a-zA-Z0-9]+]]: tensor<64x80xf32>
//   CHECK-NOT:   linalg.pack
//       CHECK:   kiln.dispatch.region -> (tensor<64x40xf32>) {
//       CHECK:     linalg.pack %[[A]]
//       CHECK:     linalg.mmt4d
//       CHECK:   kiln.dispatch.region -> (tensor<64x40xf32>) {
//       CHECK:     linalg.pack %[[A]]
//       CHECK:     linalg.mmt4d
func.func @lhs_pack_read_in_place(%a: tensor<64x80xf32>, %b: tensor<2x80x32x1xf32>, %c: tensor<2x80x32x1xf32>) -> (tensor<64x40xf32>, tensor<64x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<8x80x8x1xf32>
  %pa = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<64x80xf32> -> tensor<8x80x8x1xf32>
  %ec = tensor.empty() : tensor<8x2x8x32xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<8x2x8x32xf32>) -> tensor<8x2x8x32xf32>
  %m1 = linalg.mmt4d ins(%pa, %b : tensor<8x80x8x1xf32>, tensor<2x80x32x1xf32>) outs(%fc : tensor<8x2x8x32xf32>) -> tensor<8x2x8x32xf32>
  %m2 = linalg.mmt4d ins(%pa, %c : tensor<8x80x8x1xf32>, tensor<2x80x32x1xf32>) outs(%fc : tensor<8x2x8x32xf32>) -> tensor<8x2x8x32xf32>
  %e = tensor.empty() : tensor<64x40xf32>
  %u1 = linalg.unpack %m1 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<8x2x8x32xf32> -> tensor<64x40xf32>
  %u2 = linalg.unpack %m2 inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<8x2x8x32xf32> -> tensor<64x40xf32>
  return %u1, %u2 : tensor<64x40xf32>, tensor<64x40xf32>
}

// -----

// Tests that a padded LHS pack keeps a region of its own when its
// contraction's result has another user than its unpack: that user would
// see the padded rows, which a pack read in place leaves unspecified.
// CHECK-LABEL: func.func @padded_lhs_pack_result_used_twice
//       CHECK:   %[[PA:.+]] = kiln.dispatch.region -> (tensor<13x80x8x1xf32>) {
//       CHECK:     linalg.pack
//       CHECK:   kiln.dispatch.region -> (tensor<13x2x8x32xf32>) {
//       CHECK:     linalg.mmt4d ins(%[[PA]],
func.func @padded_lhs_pack_result_used_twice(%a: tensor<100x80xf32>, %b: tensor<2x80x32x1xf32>) -> (tensor<100x40xf32>, tensor<13x2x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<13x80x8x1xf32>
  %pa = linalg.pack %a padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %ea : tensor<100x80xf32> -> tensor<13x80x8x1xf32>
  %ec = tensor.empty() : tensor<13x2x8x32xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
  %m = linalg.mmt4d ins(%pa, %b : tensor<13x80x8x1xf32>, tensor<2x80x32x1xf32>) outs(%fc : tensor<13x2x8x32xf32>) -> tensor<13x2x8x32xf32>
  %e = tensor.empty() : tensor<100x40xf32>
  %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %e : tensor<13x2x8x32xf32> -> tensor<100x40xf32>
  return %u, %m : tensor<100x40xf32>, tensor<13x2x8x32xf32>
}

// -----

// Tests that a region's dynamic result dims are computed before it from
// what the host has (through the result's empty destination to the
// tensor.dim of the input), and that the dim is also cloned in for the
// region's own use.
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:   (%[[X:.+]]: tensor<?x4xf32>)
//       CHECK:   %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4xf32>
//       CHECK:   %[[R:.+]] = kiln.dispatch.region -> (tensor<?x4xf32>) dims(%[[N]]) {
//       CHECK:     %[[M:.+]] = tensor.dim %[[X]]
//       CHECK:     tensor.empty(%[[M]]) : tensor<?x4xf32>
//       CHECK:     linalg.generic
//       CHECK:   return %[[R]]
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// Tests that a pad (a fill and an insert_slice) read by a convolution alone
// joins the convolution's region, while a padded image two convolutions
// read, or one whose rows are too wide for a workgroup to pad its own
// (all 6 rows of 1102 x 64 floats, past 512 KiB), keeps a region of its own.
// CHECK-LABEL: func.func @pads_into_convolutions
//  CHECK-SAME:   %[[X:[a-zA-Z0-9]+]]: tensor<1x56x56x64xf32>
//  CHECK-SAME:   %[[W:[a-zA-Z0-9]+]]: tensor<1x4x1100x64xf32>
//       CHECK:   kiln.dispatch.region -> (tensor<1x56x56x64xf32>) {
//       CHECK:     %[[FILL:.+]] = linalg.fill
//  CHECK-NEXT:     %[[PAD:.+]] = tensor.insert_slice %[[X]] into %[[FILL]]
//       CHECK:     %[[CONV:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD]],
//  CHECK-NEXT:     kiln.return %[[CONV]]
//       CHECK:   %[[SHARED:.+]] = kiln.dispatch.region -> (tensor<1x58x58x64xf32>) {
//       CHECK:     %[[S:.+]] = tensor.insert_slice %[[X]]
//  CHECK-NEXT:     kiln.return %[[S]]
//       CHECK:   kiln.dispatch.region -> (tensor<1x56x56x64xf32>) {
//   CHECK-NOT:     tensor.insert_slice
//       CHECK:     linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[SHARED]],
//       CHECK:   kiln.dispatch.region -> (tensor<1x28x28x64xf32>) {
//   CHECK-NOT:     tensor.insert_slice
//       CHECK:     linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[SHARED]],
//       CHECK:   %[[WIDE:.+]] = kiln.dispatch.region -> (tensor<1x6x1102x64xf32>) {
//       CHECK:     %[[P:.+]] = tensor.insert_slice %[[W]]
//  CHECK-NEXT:     kiln.return %[[P]]
//       CHECK:   kiln.dispatch.region -> (tensor<1x4x1100x2xf32>) {
//   CHECK-NOT:     tensor.insert_slice
//       CHECK:     linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[WIDE]],
func.func @pads_into_convolutions(%x: tensor<1x56x56x64xf32>, %f: tensor<3x3x64x64xf32>,
                                  %w: tensor<1x4x1100x64xf32>, %fw: tensor<3x3x64x2xf32>)
    -> (tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32>, tensor<1x28x28x64xf32>, tensor<1x4x1100x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ep = tensor.empty() : tensor<1x58x58x64xf32>
  %fp = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x58x58x64xf32>) -> tensor<1x58x58x64xf32>
  %p = tensor.insert_slice %x into %fp[0, 1, 1, 0] [1, 56, 56, 64] [1, 1, 1, 1] : tensor<1x56x56x64xf32> into tensor<1x58x58x64xf32>
  %eo = tensor.empty() : tensor<1x56x56x64xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%fo : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %fs = linalg.fill ins(%half : f32) outs(%ep : tensor<1x58x58x64xf32>) -> tensor<1x58x58x64xf32>
  %s = tensor.insert_slice %x into %fs[0, 1, 1, 0] [1, 56, 56, 64] [1, 1, 1, 1] : tensor<1x56x56x64xf32> into tensor<1x58x58x64xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%s, %f : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%fo : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %e2 = tensor.empty() : tensor<1x28x28x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%s, %f : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f2 : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  %ew = tensor.empty() : tensor<1x6x1102x64xf32>
  %fwp = linalg.fill ins(%zero : f32) outs(%ew : tensor<1x6x1102x64xf32>) -> tensor<1x6x1102x64xf32>
  %pw = tensor.insert_slice %w into %fwp[0, 1, 1, 0] [1, 4, 1100, 64] [1, 1, 1, 1] : tensor<1x4x1100x64xf32> into tensor<1x6x1102x64xf32>
  %ewo = tensor.empty() : tensor<1x4x1100x2xf32>
  %fwo = linalg.fill ins(%zero : f32) outs(%ewo : tensor<1x4x1100x2xf32>) -> tensor<1x4x1100x2xf32>
  %cw = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pw, %fw : tensor<1x6x1102x64xf32>, tensor<3x3x64x2xf32>) outs(%fwo : tensor<1x4x1100x2xf32>) -> tensor<1x4x1100x2xf32>
  return %c, %c1, %c2, %cw : tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32>, tensor<1x28x28x64xf32>, tensor<1x4x1100x2xf32>
}

// -----

// Tests that a pad joins a convolution whose batch is known only at run
// time as it joins a static one: each workgroup, on one image, pads the
// rows its tile reads.
// CHECK-LABEL: func.func @pad_into_dynamic_batch_convolution
//       CHECK:   kiln.dispatch.region -> (tensor<?x56x56x64xf32>) dims(%{{.+}}) {
//       CHECK:     %[[FILL:.+]] = linalg.fill
//  CHECK-NEXT:     %[[PAD:.+]] = tensor.insert_slice %{{.+}} into %[[FILL]]
//       CHECK:     %[[CONV:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD]],
//  CHECK-NEXT:     kiln.return %[[CONV]]
//   CHECK-NOT:   kiln.dispatch.region
func.func @pad_into_dynamic_batch_convolution(%x: tensor<?x56x56x64xf32>, %f: tensor<3x3x64x64xf32>) -> tensor<?x56x56x64xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x56x56x64xf32>
  %ep = tensor.empty(%n) : tensor<?x58x58x64xf32>
  %fp = linalg.fill ins(%zero : f32) outs(%ep : tensor<?x58x58x64xf32>) -> tensor<?x58x58x64xf32>
  %p = tensor.insert_slice %x into %fp[0, 1, 1, 0] [%n, 56, 56, 64] [1, 1, 1, 1] : tensor<?x56x56x64xf32> into tensor<?x58x58x64xf32>
  %eo = tensor.empty(%n) : tensor<?x56x56x64xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x56x56x64xf32>) -> tensor<?x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<?x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%fo : tensor<?x56x56x64xf32>) -> tensor<?x56x56x64xf32>
  return %c : tensor<?x56x56x64xf32>
}

// -----

// Tests that the rows a workgroup would pad are counted per image of the
// batch, not per row of dim 0: an unbatched convolution over rows of 60002
// floats pads 3 of them (703 KiB, past 512 KiB) and keeps its pad apart,
// while one over rows of 1002 floats (12 KiB) takes its pad in.
// CHECK-LABEL: func.func @unbatched_pads
//  CHECK-SAME:   %[[W:[a-zA-Z0-9]+]]: tensor<4x60000xf32>
//  CHECK-SAME:   %[[N:[a-zA-Z0-9]+]]: tensor<4x1000xf32>
//       CHECK:   %[[WIDE:.+]] = kiln.dispatch.region -> (tensor<6x60002xf32>) {
//       CHECK:     %[[P:.+]] = tensor.insert_slice %[[W]]
//  CHECK-NEXT:     kiln.return %[[P]]
//       CHECK:   kiln.dispatch.region -> (tensor<4x60000xf32>) {
//   CHECK-NOT:     tensor.insert_slice
//       CHECK:     linalg.conv_2d ins(%[[WIDE]],
//       CHECK:   kiln.dispatch.region -> (tensor<4x1000xf32>) {
//       CHECK:     %[[Q:.+]] = tensor.insert_slice %[[N]]
//       CHECK:     linalg.conv_2d ins(%[[Q]],
func.func @unbatched_pads(%w: tensor<4x60000xf32>, %n: tensor<4x1000xf32>, %f: tensor<3x3xf32>)
    -> (tensor<4x60000xf32>, tensor<4x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<6x60002xf32>
  %fw = linalg.fill ins(%zero : f32) outs(%ew : tensor<6x60002xf32>) -> tensor<6x60002xf32>
  %pw = tensor.insert_slice %w into %fw[1, 1] [4, 60000] [1, 1] : tensor<4x60000xf32> into tensor<6x60002xf32>
  %eow = tensor.empty() : tensor<4x60000xf32>
  %fow = linalg.fill ins(%zero : f32) outs(%eow : tensor<4x60000xf32>) -> tensor<4x60000xf32>
  %cw = linalg.conv_2d ins(%pw, %f : tensor<6x60002xf32>, tensor<3x3xf32>) outs(%fow : tensor<4x60000xf32>) -> tensor<4x60000xf32>
  %en = tensor.empty() : tensor<6x1002xf32>
  %fn = linalg.fill ins(%zero : f32) outs(%en : tensor<6x1002xf32>) -> tensor<6x1002xf32>
  %pn = tensor.insert_slice %n into %fn[1, 1] [4, 1000] [1, 1] : tensor<4x1000xf32> into tensor<6x1002xf32>
  %eon = tensor.empty() : tensor<4x1000xf32>
  %fon = linalg.fill ins(%zero : f32) outs(%eon : tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %cn = linalg.conv_2d ins(%pn, %f : tensor<6x1002xf32>, tensor<3x3xf32>) outs(%fon : tensor<4x1000xf32>) -> tensor<4x1000xf32>
  return %cw, %cn : tensor<4x60000xf32>, tensor<4x1000xf32>
}

// -----

// Tests that a size the host computes (a strided pooling's output rows over
// a dynamic input) stays on the host and is used in the region as it is:
// the dispatch takes it as a constant, so its loops run to a bound the host
// launches it with.
// CHECK-LABEL: func.func @computed_size
//       CHECK:   %[[N:.+]] = tensor.dim %arg0
//       CHECK:   %[[HALF:.+]] = arith.divsi %[[N]], %c2 : index
//       CHECK:   kiln.dispatch.region -> (tensor<?xf32>) dims(%[[HALF]]) {
//   CHECK-NOT:     arith.divsi
//       CHECK:     tensor.empty(%[[HALF]]) : tensor<?xf32>
//       CHECK:     kiln.return
func.func @computed_size(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %half = arith.divsi %n, %c2 : index
  %e = tensor.empty(%half) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (2 * i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
