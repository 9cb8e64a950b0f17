// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-convert-convs-to-matmuls,canonicalize))" | FileCheck %s

// Tests that a 1x1 convolution becomes a matmul of its pixels by its
// filter, expanded back to the image's shape.
// CHECK-LABEL: func.func @pointwise
//  CHECK-SAME:   %[[X:.+]]: tensor<1x14x14x64xf32>, %[[W:.+]]: tensor<1x1x64x32xf32>
//       CHECK:   %[[ROWS:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2], [3]] : tensor<1x14x14x64xf32> into tensor<196x64xf32>
//       CHECK:   %[[W2:.+]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1, 2], [3]] : tensor<1x1x64x32xf32> into tensor<64x32xf32>
//       CHECK:   %[[M:.+]] = linalg.matmul ins(%[[ROWS]], %[[W2]] : tensor<196x64xf32>, tensor<64x32xf32>) outs(%{{.+}} : tensor<196x32xf32>)
//       CHECK:   %[[R:.+]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 14, 14, 32]
//       CHECK:   return %[[R]]
//   CHECK-NOT:   linalg.conv_2d
func.func @pointwise(%x: tensor<1x14x14x64xf32>, %w: tensor<1x1x64x32xf32>) -> tensor<1x14x14x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x14x14x64xf32>, tensor<1x1x64x32xf32>) outs(%f : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %c : tensor<1x14x14x32xf32>
}

// -----

// Tests that a strided 1x1 convolution reads every second pixel first (a
// strided slice), then multiplies them.
// CHECK-LABEL: func.func @strided
//       CHECK:   %[[S:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [2, 7, 7, 64] [1, 2, 2, 1] : tensor<2x14x14x64xf32> to tensor<2x7x7x64xf32>
//       CHECK:   %[[ROWS:.+]] = tensor.collapse_shape %[[S]] {{\[\[}}0, 1, 2], [3]] : tensor<2x7x7x64xf32> into tensor<98x64xf32>
//       CHECK:   linalg.matmul ins(%[[ROWS]], %{{.+}} : tensor<98x64xf32>, tensor<64x32xf32>)
func.func @strided(%x: tensor<2x14x14x64xf32>, %w: tensor<1x1x64x32xf32>) -> tensor<2x7x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x7x7x32xf32>) -> tensor<2x7x7x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<2x14x14x64xf32>, tensor<1x1x64x32xf32>) outs(%f : tensor<2x7x7x32xf32>) -> tensor<2x7x7x32xf32>
  return %c : tensor<2x7x7x32xf32>
}

// -----

// Tests that a batch known only at run time gives rows known only at run
// time, and that the filter of an fhwc convolution (TOSA's) is read
// transposed: [F, C] indexed (n, k).
// CHECK-DAG: #[[LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @dynamic_fhwc
//       CHECK:   tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] : tensor<?x8x8x16xf32> into tensor<?x16xf32>
//       CHECK:   tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] : tensor<4x1x1x16xf32> into tensor<4x16xf32>
//       CHECK:   linalg.matmul indexing_maps = [#[[LHS]], #[[RHS]], #{{.+}}] ins(%{{.+}}, %{{.+}} : tensor<?x16xf32>, tensor<4x16xf32>) outs(%{{.+}} : tensor<?x4xf32>)
//       CHECK:   tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] output_shape [%{{.+}}, 8, 8, 4] : tensor<?x4xf32> into tensor<?x8x8x4xf32>
func.func @dynamic_fhwc(%x: tensor<?x8x8x16xf32>, %w: tensor<4x1x1x16xf32>, %init: tensor<?x8x8x4xf32>) -> tensor<?x8x8x4xf32> {
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<?x8x8x16xf32>, tensor<4x1x1x16xf32>) outs(%init : tensor<?x8x8x4xf32>) -> tensor<?x8x8x4xf32>
  return %c : tensor<?x8x8x4xf32>
}

// -----

// Tests that a 3x3 convolution with a small filter (a direct convolution
// keeps it in L2), and a 1x1 one with mixed element types, are left alone.
// CHECK-LABEL: func.func @not_pointwise
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   linalg.conv_2d_nhwc_hwcf
//   CHECK-NOT:   linalg.matmul
func.func @not_pointwise(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x4xf32>, %i: tensor<1x6x6x4xf32>,
                         %xi: tensor<1x8x8x4xi8>, %wi: tensor<1x1x4x4xi8>, %ii: tensor<1x8x8x4xi32>) -> (tensor<1x6x6x4xf32>, tensor<1x8x8x4xi32>) {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) outs(%i : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %d = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%xi, %wi : tensor<1x8x8x4xi8>, tensor<1x1x4x4xi8>) outs(%ii : tensor<1x8x8x4xi32>) -> tensor<1x8x8x4xi32>
  return %c, %d : tensor<1x6x6x4xf32>, tensor<1x8x8x4xi32>
}

// -----

// Tests that a 3x3 convolution whose filter L2 would not hold (3x3x256x128
// f32, 1.1 MiB) becomes a matmul of its patches: a copy reading the input
// through the window's map into [N, OH, OW, KH, KW, C], collapsed to
// [N*OH*OW, KH*KW*C], times the filter collapsed to [KH*KW*C, F].
// CHECK-DAG: #[[WINDOW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 * 2 + d4, d5)>
// CHECK-LABEL: func.func @large_filter
//       CHECK:   %[[P:.+]] = linalg.generic {indexing_maps = [#[[WINDOW]], #{{.+}}]{{.*}} ins(%{{.+}} : tensor<1x15x15x256xf32>) outs(%{{.+}} : tensor<1x7x7x3x3x256xf32>)
//       CHECK:   %[[LHS:.+]] = tensor.collapse_shape %[[P]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<1x7x7x3x3x256xf32> into tensor<49x2304xf32>
//       CHECK:   %[[RHS:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] : tensor<3x3x256x128xf32> into tensor<2304x128xf32>
//       CHECK:   %[[M:.+]] = linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<49x2304xf32>, tensor<2304x128xf32>)
//       CHECK:   tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 7, 7, 128]
func.func @large_filter(%x: tensor<1x15x15x256xf32>, %w: tensor<3x3x256x128xf32>) -> tensor<1x7x7x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x15x15x256xf32>, tensor<3x3x256x128xf32>) outs(%f : tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  return %c : tensor<1x7x7x128xf32>
}

// -----

// Tests that a convolution over 4 groups of 2 channels (8 outputs each)
// with a small filter runs direct: a generic over [G, M/G] outputs whose
// filter is transposed to [KH, KW, C/G, G, M/G], reading the input through
// the strided window, its taps and a group's inputs the reductions.
// CHECK-DAG:   #[[INPUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + d5, d2 * 2 + d6, d3, d7)>
// CHECK-DAG:   #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d3, d4)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped
//   CHECK-NOT:   linalg.contract
//       CHECK:   %[[W:.+]] = linalg.transpose ins(%{{.+}} : tensor<4x8x3x3x2xf32>) outs(%{{.+}} : tensor<3x3x2x4x8xf32>) permutation = [2, 3, 4, 0, 1]
//       CHECK:   linalg.generic {indexing_maps = [#[[INPUT]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
//  CHECK-SAME:     ins(%{{.+}}, %[[W]] : tensor<1x9x9x4x2xf32>, tensor<3x3x2x4x8xf32>) outs(%{{.+}} : tensor<1x4x4x4x8xf32>)
//       CHECK:     arith.mulf
//       CHECK:     arith.addf
func.func @grouped(%x: tensor<1x9x9x4x2xf32>, %w: tensor<4x8x3x3x2xf32>) -> tensor<1x4x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x9x9x4x2xf32>, tensor<4x8x3x3x2xf32>) outs(%f : tensor<1x4x4x4x8xf32>) -> tensor<1x4x4x4x8xf32>
  return %c : tensor<1x4x4x4x8xf32>
}

// -----

// Tests that a grouped convolution of integers runs direct with integer
// arithmetic.
// CHECK-LABEL: func.func @grouped_integers
//       CHECK:   linalg.generic
//       CHECK:     arith.muli
//       CHECK:     arith.addi
func.func @grouped_integers(%x: tensor<1x6x6x4x2xi32>, %w: tensor<4x8x3x3x2xi32>) -> tensor<1x4x4x4x8xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x4x8xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x4x4x4x8xi32>) -> tensor<1x4x4x4x8xi32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x6x6x4x2xi32>, tensor<4x8x3x3x2xi32>) outs(%f : tensor<1x4x4x4x8xi32>) -> tensor<1x4x4x4x8xi32>
  return %c : tensor<1x4x4x4x8xi32>
}

// -----

// Tests that a grouped convolution whose filter L2 would not hold
// (32x32x3x3x32 f32, 1.1 MiB) is a contraction per group of its patches
// ([N*OH*OW, G, KH*KW*C/G]) by each group's filter ([G, M/G, KH*KW*C/G]),
// the groups a batch loop of both.
// CHECK-DAG:   #[[PATCH:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d3, d6)>
// CHECK-DAG:   #[[LHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[RHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @grouped_large_filter
//       CHECK:   %[[P:.+]] = linalg.generic {indexing_maps = [#[[PATCH]], #{{.+}}]{{.*}} ins(%{{.+}} : tensor<1x9x9x32x32xf32>) outs(%{{.+}} : tensor<1x7x7x32x3x3x32xf32>)
//       CHECK:   %[[LHS_V:.+]] = tensor.collapse_shape %[[P]] {{\[\[}}0, 1, 2], [3], [4, 5, 6]] : tensor<1x7x7x32x3x3x32xf32> into tensor<49x32x288xf32>
//       CHECK:   %[[RHS_V:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0], [1], [2, 3, 4]] : tensor<32x32x3x3x32xf32> into tensor<32x32x288xf32>
//       CHECK:   %[[C:.+]] = linalg.contract indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]] ins(%[[LHS_V]], %[[RHS_V]] : tensor<49x32x288xf32>, tensor<32x32x288xf32>) outs(%{{.+}} : tensor<49x32x32xf32>)
//       CHECK:   tensor.expand_shape %[[C]] {{\[\[}}0, 1, 2], [3], [4]] output_shape [1, 7, 7, 32, 32]
func.func @grouped_large_filter(%x: tensor<1x9x9x32x32xf32>, %w: tensor<32x32x3x3x32xf32>) -> tensor<1x7x7x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x32x32xf32>) -> tensor<1x7x7x32x32xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x9x9x32x32xf32>, tensor<32x32x3x3x32xf32>) outs(%f : tensor<1x7x7x32x32xf32>) -> tensor<1x7x7x32x32xf32>
  return %c : tensor<1x7x7x32x32xf32>
}

// -----

// Tests that a grouped convolution with a one-pixel window reads its input
// as the patches, without a copy (the RHS: 4 outputs per group).
// CHECK-LABEL: func.func @grouped_pointwise
//   CHECK-NOT:   tensor<1x5x5x2x1x1x8xf32>
//       CHECK:   %[[LHS:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3], [4]] : tensor<1x5x5x2x8xf32> into tensor<25x2x8xf32>
//       CHECK:   linalg.contract {{.*}} ins(%{{.+}}, %[[LHS]] : tensor<2x4x8xf32>, tensor<25x2x8xf32>)
func.func @grouped_pointwise(%x: tensor<1x5x5x2x8xf32>, %w: tensor<2x4x1x1x8xf32>) -> tensor<1x5x5x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x2x4xf32>) -> tensor<1x5x5x2x4xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x5x5x2x8xf32>, tensor<2x4x1x1x8xf32>) outs(%f : tensor<1x5x5x2x4xf32>) -> tensor<1x5x5x2x4xf32>
  return %c : tensor<1x5x5x2x4xf32>
}

// -----

// Tests that a convolution with a large filter on a batch known only at run
// time is a matmul of its patches too: the patches take the batch of the
// result, the rows N*OH*OW are expanded back with it.
// CHECK-LABEL: func.func @large_filter_dynamic_batch
//       CHECK:   %[[N:.+]] = tensor.dim
//       CHECK:   %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x7x7x3x3x256xf32>
//       CHECK:   %[[P:.+]] = linalg.generic {{.*}} outs(%[[E]] : tensor<?x7x7x3x3x256xf32>)
//       CHECK:   %[[LHS:.+]] = tensor.collapse_shape %[[P]] {{\[\[}}0, 1, 2], [3, 4, 5]] : tensor<?x7x7x3x3x256xf32> into tensor<?x2304xf32>
//       CHECK:   %[[M:.+]] = linalg.matmul ins(%[[LHS]], %{{.+}} : tensor<?x2304xf32>, tensor<2304x128xf32>)
//       CHECK:   tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [%{{.+}}, 7, 7, 128]
func.func @large_filter_dynamic_batch(%x: tensor<?x15x15x256xf32>, %w: tensor<3x3x256x128xf32>) -> tensor<?x7x7x128xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x15x15x256xf32>
  %e = tensor.empty(%n) : tensor<?x7x7x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x7x7x128xf32>) -> tensor<?x7x7x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<?x15x15x256xf32>, tensor<3x3x256x128xf32>) outs(%f : tensor<?x7x7x128xf32>) -> tensor<?x7x7x128xf32>
  return %c : tensor<?x7x7x128xf32>
}

// -----

// Tests that a grouped convolution on a batch known only at run time runs
// direct, on the dynamic batch.
// CHECK-LABEL: func.func @grouped_dynamic_batch
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x8x8x8x4xf32>, tensor<3x3x4x8x4xf32>) outs(%{{.+}} : tensor<?x6x6x8x4xf32>)
func.func @grouped_dynamic_batch(%x: tensor<?x8x8x8x4xf32>, %w: tensor<8x4x3x3x4xf32>) -> tensor<?x6x6x8x4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x8x8x8x4xf32>
  %e = tensor.empty(%n) : tensor<?x6x6x8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x6x6x8x4xf32>) -> tensor<?x6x6x8x4xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<?x8x8x8x4xf32>, tensor<8x4x3x3x4xf32>) outs(%f : tensor<?x6x6x8x4xf32>) -> tensor<?x6x6x8x4xf32>
  return %c : tensor<?x6x6x8x4xf32>
}
