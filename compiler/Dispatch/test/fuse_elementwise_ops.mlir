// RUN: kiln-opt %s --split-input-file --kiln-fuse-elementwise-ops | FileCheck %s

// Tests that a chain of named elementwise ops becomes one generic.
// CHECK-LABEL: func.func @chain
//       CHECK:   %[[G:.+]] = linalg.generic
//       CHECK:     arith.addf
//       CHECK:     math.exp
//       CHECK:     linalg.yield
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[G]]
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.exp ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Tests that a producer with two users is not fused (it would be computed
// twice) and that linalg.fill stays named.
// CHECK-LABEL: func.func @shared_producer
//       CHECK:   linalg.fill
//       CHECK:   %[[P:.+]] = linalg.generic
//       CHECK:     arith.addf
//       CHECK:   linalg.generic {{.*}} ins(%[[P]]
//       CHECK:   linalg.generic {{.*}} ins(%[[P]]
func.func @shared_producer(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %0 = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.exp ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %2 = linalg.log ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %1, %2, %f : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// Tests that a chain whose ops take their producer as an init they never
// read (as converted TOSA does) fuses whole, in the order of the chain, the
// init replaced by an empty tensor.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain_through_inits
//       CHECK:   %[[E:.+]] = tensor.empty() : tensor<8xf32>
//       CHECK:   %[[G:.+]] = linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
//       CHECK:     %[[A:.+]] = arith.addf
//       CHECK:     %[[M:.+]] = arith.mulf %[[A]]
//       CHECK:     %[[S:.+]] = arith.subf %[[M]]
//       CHECK:     %[[D:.+]] = arith.divf %[[S]]
//       CHECK:     linalg.yield %[[D]]
//   CHECK-NOT:   linalg.generic
//       CHECK:   return %[[G]]
func.func @chain_through_inits(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.addf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%0, %x : tensor<8xf32>, tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.mulf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%1, %x : tensor<8xf32>, tensor<8xf32>) outs(%1 : tensor<8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.subf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%2, %x : tensor<8xf32>, tensor<8xf32>) outs(%2 : tensor<8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %r = arith.divf %in, %in_0 : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// Tests that the expand_shape giving a packed contraction's rows back their
// image shape (a 1x1 convolution's) moves past the elementwise op after
// it: the relu takes the unpacked rows as they are, and the expand follows.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @expanded_contraction_result
//       CHECK:   %[[U:.+]] = linalg.unpack
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[U]] : tensor<64x16xf32>)
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 8, 8, 16]
//       CHECK:   return %[[E]]
func.func @expanded_contraction_result(%m: tensor<8x1x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e : tensor<8x1x8x16xf32> -> tensor<64x16xf32>
  %x = tensor.expand_shape %u [[0, 1, 2], [3]] output_shape [1, 8, 8, 16] : tensor<64x16xf32> into tensor<1x8x8x16xf32>
  %e4 = tensor.empty() : tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x8x8x16xf32>) outs(%e4 : tensor<1x8x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %zero : f32
    linalg.yield %v : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// Tests that with a batch known only at run time the expand moves past the
// elementwise op too, and is gone from before it: the batch the expand back
// reads is the one the first expand was made with, not a size of the
// expanded unpack (which would keep the unpack used twice).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @expanded_dynamic_batch
//  CHECK-SAME:   %{{.+}}: tensor<?x1x8x16xf32>, %[[N:.+]]: index, %{{.+}}: index
//       CHECK:   %[[U:.+]] = linalg.unpack
//   CHECK-NOT:   tensor.expand_shape %[[U]]
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[U]] : tensor<?x16xf32>)
//       CHECK:   %[[E:.+]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2], [3]] output_shape [%[[N]], 8, 8, 16]
//       CHECK:   return %[[E]]
func.func @expanded_dynamic_batch(%m: tensor<?x1x8x16xf32>, %n: index, %rows: index) -> tensor<?x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%rows) : tensor<?x16xf32>
  %u = linalg.unpack %m inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e : tensor<?x1x8x16xf32> -> tensor<?x16xf32>
  %x = tensor.expand_shape %u [[0, 1, 2], [3]] output_shape [%n, 8, 8, 16] : tensor<?x16xf32> into tensor<?x8x8x16xf32>
  %e4 = tensor.empty(%n) : tensor<?x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x8x8x16xf32>) outs(%e4 : tensor<?x8x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %zero : f32
    linalg.yield %v : f32
  } -> tensor<?x8x8x16xf32>
  return %r : tensor<?x8x8x16xf32>
}

// -----

// Tests that an expand_shape of anything but an unpacked contraction
// result stays where it is.
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @expanded_argument
//       CHECK:   %[[X:.+]] = tensor.expand_shape
//       CHECK:   linalg.generic {{.*}} ins(%[[X]] : tensor<2x4x8xf32>)
func.func @expanded_argument(%a: tensor<8x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<2x4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x4x8xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8xf32>
  return %r : tensor<2x4x8xf32>
}

// -----

// Tests that a producer with a costly op (a sigmoid's exp and division) that
// its consumer reads through a broadcast stays apart: fused, it would be
// computed once per pixel instead of once per channel. A cheap broadcast
// producer (the add, with a one-instruction math.absf) still fuses.
#map = affine_map<(d0, d1) -> (d0, d1)>
#channel = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @costly_broadcast_producer
//       CHECK:   %[[S:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<32xf32>)
//       CHECK:     math.exp
//       CHECK:     arith.divf
//       CHECK:   linalg.generic {{.*}} ins(%{{.+}}, %[[S]], %{{.+}}, %{{.+}} : tensor<196x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
//       CHECK:     math.absf
//       CHECK:     arith.addf
//       CHECK:     arith.mulf
//   CHECK-NOT:   linalg.generic
func.func @costly_broadcast_producer(%x: tensor<196x32xf32>, %s: tensor<32xf32>, %b: tensor<32xf32>, %c: tensor<32xf32>) -> tensor<196x32xf32> {
  %one = arith.constant 1.0 : f32
  %ec = tensor.empty() : tensor<32xf32>
  %sig = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<32xf32>) outs(%ec : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b, %c : tensor<32xf32>, tensor<32xf32>) outs(%ec : tensor<32xf32>) {
  ^bb0(%bi: f32, %ci: f32, %out: f32):
    %ab = math.absf %bi : f32
    %sum = arith.addf %ab, %ci : f32
    linalg.yield %sum : f32
  } -> tensor<32xf32>
  %e = tensor.empty() : tensor<196x32xf32>
  %y = linalg.generic {indexing_maps = [#map, #channel, #channel, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sig, %bias : tensor<196x32xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e : tensor<196x32xf32>) {
  ^bb0(%in: f32, %g: f32, %a: f32, %out: f32):
    %t = arith.addf %in, %a : f32
    %m = arith.mulf %t, %g : f32
    linalg.yield %m : f32
  } -> tensor<196x32xf32>
  return %y : tensor<196x32xf32>
}
