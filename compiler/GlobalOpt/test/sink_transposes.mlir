// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-sink-transposes,canonicalize,cse))" | FileCheck %s

// Tests that the transpose after a channels-last result and the one before
// the next channels-last op meet and fold: the bias add (read along the
// last dim now) and the relu between them run channels-last, and no
// transpose is left.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[LAST:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @bias_relu
//  CHECK-SAME:   %[[X:.+]]: tensor<1x8x8x16xf32>, %[[B:.+]]: tensor<16xf32>
//       CHECK:   %[[ADD:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]]{{.*}} ins(%[[X]], %[[B]] : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%{{.+}} : tensor<1x8x8x16xf32>)
//       CHECK:   %[[RELU:.+]] = linalg.generic {{.*}} ins(%[[ADD]] : tensor<1x8x8x16xf32>) outs(%{{.+}} : tensor<1x8x8x16xf32>)
//       CHECK:   return %[[RELU]]
//   CHECK-NOT:   linalg.transpose
func.func @bias_relu(%x: tensor<1x8x8x16xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x16xf32>) outs(%e : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
  %add = linalg.generic {indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t, %b : tensor<1x16x8x8xf32>, tensor<16xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%add : tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x8x8x16xf32>
  %back = linalg.transpose ins(%relu : tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x8x8x16xf32>) permutation = [0, 2, 3, 1]
  return %back : tensor<1x8x8x16xf32>
}

// -----

// Tests that a residual add of two transposed tensors runs on their
// sources, and that the transpose moves to its result when nothing undoes
// it there.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @residual
//  CHECK-SAME:   %[[X:.+]]: tensor<1x4x4x8xf32>, %[[Y:.+]]: tensor<1x4x4x8xf32>
//       CHECK:   %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) outs(%{{.+}} : tensor<1x4x4x8xf32>)
//       CHECK:   %[[T:.+]] = linalg.transpose ins(%[[ADD]] : tensor<1x4x4x8xf32>) outs(%{{.+}} : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
//       CHECK:   return %[[T]]
func.func @residual(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x8xf32>) -> tensor<1x8x4x4xf32> {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %tx = linalg.transpose ins(%x : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %ty = linalg.transpose ins(%y : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%tx, %ty : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x4x4xf32>
  return %add : tensor<1x8x4x4xf32>
}

// -----

// Tests that an op is left as it is when it also reads a tensor of its full
// size that is not transposed (the transpose would only move), when its
// transposed inputs disagree, and when its body reads its loop indices.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @left_alone
//       CHECK:   %[[TX:.+]] = linalg.transpose ins(%{{.+}} : tensor<4x8xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[TX]], %{{.+}} : tensor<8x4xf32>, tensor<8x4xf32>)
//       CHECK:   %[[TA:.+]] = linalg.transpose {{.*}} permutation = [1, 0, 2]
//       CHECK:   %[[TB:.+]] = linalg.transpose {{.*}} permutation = [2, 1, 0]
//       CHECK:   linalg.generic {{.*}} ins(%[[TA]], %[[TB]] : tensor<2x2x2xf32>, tensor<2x2x2xf32>)
//       CHECK:   %[[TZ:.+]] = linalg.transpose ins(%{{.+}} : tensor<4x8xf32>)
//       CHECK:   linalg.generic {{.*}} ins(%[[TZ]] : tensor<8x4xf32>)
//       CHECK:     linalg.index 0
func.func @left_alone(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>, %z: tensor<4x8xf32>,
                      %u: tensor<2x2x2xf32>) -> (tensor<8x4xf32>, tensor<2x2x2xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %tx = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %a = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%tx, %y : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %e3 = tensor.empty() : tensor<2x2x2xf32>
  %ta = linalg.transpose ins(%u : tensor<2x2x2xf32>) outs(%e3 : tensor<2x2x2xf32>) permutation = [1, 0, 2]
  %tb = linalg.transpose ins(%u : tensor<2x2x2xf32>) outs(%e3 : tensor<2x2x2xf32>) permutation = [2, 1, 0]
  %b = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ta, %tb : tensor<2x2x2xf32>, tensor<2x2x2xf32>) outs(%e3 : tensor<2x2x2xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x2x2xf32>
  %tz = linalg.transpose ins(%z : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %c = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%tz : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %i = linalg.index 0 : index
    %f = arith.index_cast %i : index to i32
    %g = arith.sitofp %f : i32 to f32
    %s = arith.addf %p, %g : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %a, %b, %c : tensor<8x4xf32>, tensor<2x2x2xf32>, tensor<8x4xf32>
}

// -----

// Tests that a reduction reading a transposed tensor (a global average pool
// of a channels-last image seen channels-first) reads the transpose's
// source, its loops in the source's order (the channels, a parallel loop,
// innermost), and writes its result as before.
#in = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[SRC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[RES:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-LABEL: func.func @pool
//  CHECK-SAME:   %[[X:.+]]: tensor<1x8x8x32xf32>
//       CHECK:   %[[R:.+]] = linalg.generic {indexing_maps = [#[[SRC]], #[[RES]]], iterator_types = ["parallel", "reduction", "reduction", "parallel"]} ins(%[[X]] : tensor<1x8x8x32xf32>) outs(%{{.+}} : tensor<1x32xf32>)
//       CHECK:   return %[[R]]
//   CHECK-NOT:   linalg.transpose
func.func @pool(%x: tensor<1x8x8x32xf32>) -> tensor<1x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x32xf32>) outs(%e : tensor<1x32x8x8xf32>) permutation = [0, 3, 1, 2]
  %eo = tensor.empty() : tensor<1x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x32xf32>) -> tensor<1x32xf32>
  %sum = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%t : tensor<1x32x8x8xf32>) outs(%f : tensor<1x32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x32xf32>
  return %sum : tensor<1x32xf32>
}

// -----

// Tests that a max pool of a channels-last image seen channels-first (a
// transpose, its zero padding, a window reduction, the inverse transpose)
// pads the image channels-last and becomes the named channels-last pool:
// no transpose is left, the padding offsets and shape are permuted, and the
// pool's loops follow its result's dims.
#window_in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#window_out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @max_pool
//  CHECK-SAME:   %[[X:.+]]: tensor<1x8x8x16xf32>
//       CHECK:   %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x10x10x16xf32>)
//       CHECK:   %[[PAD:.+]] = tensor.insert_slice %[[X]] into %[[FILL]][0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1]
//       CHECK:   %[[POOL:.+]] = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.+}} : tensor<1x10x10x16xf32>, tensor<3x3xf32>) outs(%{{.+}} : tensor<1x4x4x16xf32>)
//       CHECK:   return %[[POOL]]
//   CHECK-NOT:   linalg.transpose
func.func @max_pool(%x: tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %lowest = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x16xf32>) outs(%e : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
  %ep = tensor.empty() : tensor<1x16x10x10xf32>
  %fp = linalg.fill ins(%lowest : f32) outs(%ep : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %p = tensor.insert_slice %t into %fp[0, 0, 1, 1] [1, 16, 8, 8] [1, 1, 1, 1] : tensor<1x16x8x8xf32> into tensor<1x16x10x10xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %eo = tensor.empty() : tensor<1x16x4x4xf32>
  %fo = linalg.fill ins(%lowest : f32) outs(%eo : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %pool = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : tensor<1x16x10x10xf32>, tensor<3x3xf32>) outs(%fo : tensor<1x16x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x16x4x4xf32>
  %er = tensor.empty() : tensor<1x4x4x16xf32>
  %r = linalg.transpose ins(%pool : tensor<1x16x4x4xf32>) outs(%er : tensor<1x4x4x16xf32>) permutation = [0, 2, 3, 1]
  return %r : tensor<1x4x4x16xf32>
}

// -----

// Tests that a channels-last sum over windows in generic form becomes the
// named pool, and that a pool the model keeps channels-first (no inverse
// transpose after it) stays as it is.
#nhwc_in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2 + d5, d3)>
#nhwc_window = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#nhwc_out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @sum_pool
//       CHECK:   linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-LABEL: func.func @channels_first_pool
//       CHECK:   linalg.generic
//   CHECK-NOT:   linalg.pooling
func.func @sum_pool(%x: tensor<1x8x8x16xf32>) -> tensor<1x6x6x16xf32> {
  %zero = arith.constant 0.0 : f32
  %w = tensor.empty() : tensor<3x3xf32>
  %eo = tensor.empty() : tensor<1x6x6x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %pool = linalg.generic {indexing_maps = [#nhwc_in, #nhwc_window, #nhwc_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x8x8x16xf32>, tensor<3x3xf32>) outs(%fo : tensor<1x6x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x6x6x16xf32>
  return %pool : tensor<1x6x6x16xf32>
}

#nchw_in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
func.func @channels_first_pool(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = tensor.empty() : tensor<3x3xf32>
  %eo = tensor.empty() : tensor<1x16x6x6xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %pool = linalg.generic {indexing_maps = [#nchw_in, #nhwc_window, #nhwc_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<1x16x8x8xf32>, tensor<3x3xf32>) outs(%fo : tensor<1x16x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x16x6x6xf32>
  return %pool : tensor<1x16x6x6xf32>
}
