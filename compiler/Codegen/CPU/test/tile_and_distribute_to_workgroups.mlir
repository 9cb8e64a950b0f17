// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-tile-and-distribute-to-workgroups,canonicalize,cse))" | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-tile-and-distribute-to-workgroups,canonicalize,cse)))))" | FileCheck %s --check-prefix=EXPORT

// Tests that the stored op is tiled by its workgroup tiles into one
// scf.forall iteration per workgroup, with matmul and fill fused inside.
// CHECK-LABEL: func.func @mm
//       CHECK:   %[[LOOP:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (128, 64) step (32, 32) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<128x64xf32>)
//       CHECK:     %[[F:.+]] = linalg.fill {{.*}} -> tensor<32x32xf32>
//       CHECK:     %[[M:.+]] = linalg.matmul {{.*}} outs(%[[F]] : tensor<32x32xf32>)
//       CHECK:     %[[G:.+]] = linalg.generic {{.*}} ins(%[[M]]
//       CHECK:     scf.forall.in_parallel
//       CHECK:       tensor.parallel_insert_slice %[[G]] into %[[OUT]]
//       CHECK:   bufferization.materialize_in_destination %[[LOOP]]
func.func @mm() {
  %cst = arith.constant 0.0 : f32
  %0 = kiln.binding 0 : memref<128x256xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<128x256xf32> to tensor<128x256xf32>
  %2 = kiln.binding 1 : memref<256x64xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<256x64xf32> to tensor<256x64xf32>
  %e = tensor.empty() : tensor<128x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %m = linalg.matmul {lowering_config = #kiln.lowering_config<vector = [8, 32, 1]>}
      ins(%1, %3 : tensor<128x256xf32>, tensor<256x64xf32>) outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<128x64xf32>) outs(%e : tensor<128x64xf32>)
      attrs = {lowering_config = #kiln.lowering_config<workgroup = [32, 32], vector = [8, 32]>} {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<128x64xf32>
  %4 = kiln.binding 2 : memref<128x64xf32>
  bufferization.materialize_in_destination %g in restrict writable %4 : (tensor<128x64xf32>, memref<128x64xf32>) -> ()
  return
}

// -----

// Tests that a pad (a fill and an insert_slice) is split by rows over
// workgroups: each copies in the source rows that land in its 20 rows of the
// destination, found by clamping to the source (none for a workgroup of
// padding only), and fills only the rest: the rows above and below them and
// the two padding columns beside them.
// CHECK-LABEL: func.func @pad
//       CHECK:   scf.forall (%[[IV:.+]]) = (0) to (58) step (20) shared_outs(%[[OUT:.+]] = %{{.+}})
//       CHECK:     %[[ROWS:.+]] = affine.min {{.*}}(%[[IV]])
//       CHECK:     %[[TILE:.+]] = tensor.extract_slice %[[OUT]][0, %[[IV]], 0, 0] [1, %[[ROWS]], 58, 64]
//       CHECK:     %[[LO:.+]] = affine.max
//       CHECK:     %[[HI:.+]] = affine.min
//       CHECK:     %[[COUNT:.+]] = affine.max
//       CHECK:     %[[AT:.+]] = affine.apply
//       CHECK:     %[[BEGIN:.+]] = affine.min
//       CHECK:     %[[END:.+]] = affine.min
//       CHECK:     %[[BELOW:.+]] = affine.apply
//       CHECK:     %[[S0:.+]] = tensor.extract_slice %[[TILE]][0, 0, 0, 0] [1, %[[BEGIN]], 58, 64]
//       CHECK:     %[[F0:.+]] = linalg.fill {{.*}} outs(%[[S0]] : tensor<1x?x58x64xf32>)
//       CHECK:     %[[T0:.+]] = tensor.insert_slice %[[F0]] into %[[TILE]][0, 0, 0, 0] [1, %[[BEGIN]], 58, 64]
//       CHECK:     %[[S1:.+]] = tensor.extract_slice %[[T0]][0, %[[END]], 0, 0] [1, %[[BELOW]], 58, 64]
//       CHECK:     %[[F1:.+]] = linalg.fill {{.*}} outs(%[[S1]] : tensor<1x?x58x64xf32>)
//       CHECK:     %[[T1:.+]] = tensor.insert_slice %[[F1]] into %[[T0]]
//       CHECK:     %[[INSIDE:.+]] = affine.apply
//       CHECK:     %[[S2:.+]] = tensor.extract_slice %[[T1]][0, %[[BEGIN]], 0, 0] [1, %[[INSIDE]], 1, 64]
//       CHECK:     %[[F2:.+]] = linalg.fill {{.*}} outs(%[[S2]] : tensor<1x?x1x64xf32>)
//       CHECK:     %[[T2:.+]] = tensor.insert_slice %[[F2]] into %[[T1]]
//       CHECK:     %[[S3:.+]] = tensor.extract_slice %[[T2]][0, %[[BEGIN]], 57, 0] [1, %[[INSIDE]], 1, 64]
//       CHECK:     %[[F3:.+]] = linalg.fill {{.*}} outs(%[[S3]] : tensor<1x?x1x64xf32>)
//       CHECK:     %[[T3:.+]] = tensor.insert_slice %[[F3]] into %[[T2]]
//   CHECK-NOT:     linalg.fill
//       CHECK:     %[[SRC:.+]] = tensor.extract_slice %{{.+}}[0, %[[LO]], 0, 0] [1, %[[COUNT]], 56, 64]
//       CHECK:     %[[INS:.+]] = tensor.insert_slice %[[SRC]] into %[[T3]][0, %[[AT]], 1, 0] [1, %[[COUNT]], 56, 64]
//       CHECK:     tensor.parallel_insert_slice %[[INS]] into %[[OUT]][0, %[[IV]], 0, 0] [1, %[[ROWS]], 58, 64]
func.func @pad(%x: tensor<1x56x56x64xf32>) -> tensor<1x58x58x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x58x58x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x58x58x64xf32>) -> tensor<1x58x58x64xf32>
  %p = tensor.insert_slice %x into %f[0, 1, 1, 0] [1, 56, 56, 64] [1, 1, 1, 1]
      {lowering_config = #kiln.lowering_config<workgroup = [0, 20, 0, 0], vector = [0, 0, 0, 0]>}
      : tensor<1x56x56x64xf32> into tensor<1x58x58x64xf32>
  return %p : tensor<1x58x58x64xf32>
}

// -----

// Tests that a convolution's padded image (a fill and an insert_slice in
// its dispatch) is built per workgroup: each pads the 4 image rows its 2
// output rows read, in a tensor of its own, copying in the source rows that
// land there (clamped to the source, so the first and last workgroups copy
// 3) and filling only around them, and the whole padded image is gone.
// CHECK-LABEL: func.func @conv_padded_image
//       CHECK:   scf.forall (%[[IV:.+]]) = (0) to (56) step (2)
//       CHECK:     %[[TILE:.+]] = tensor.empty() : tensor<1x4x58x64xf32>
//       CHECK:     %[[LO:.+]] = affine.max {{.*}}(%[[IV]])
//       CHECK:     %[[HI:.+]] = affine.min {{.*}}(%[[IV]])
//       CHECK:     %[[COUNT:.+]] = affine.max {{.*}}(%[[LO]], %[[HI]])
//       CHECK:     %[[AT:.+]] = affine.apply {{.*}}(%[[LO]], %[[IV]])
//       CHECK:     %[[BEGIN:.+]] = affine.min
//       CHECK:     %[[S0:.+]] = tensor.extract_slice %[[TILE]][0, 0, 0, 0] [1, %[[BEGIN]], 58, 64]
//       CHECK:     linalg.fill {{.*}} outs(%[[S0]] : tensor<1x?x58x64xf32>)
//       CHECK:     linalg.fill {{.*}} tensor<1x?x58x64xf32>
//       CHECK:     linalg.fill {{.*}} tensor<1x?x1x64xf32>
//       CHECK:     %[[FILLED:.+]] = tensor.insert_slice {{.*}}[0, %[[BEGIN]], 57, 0] [1, %{{.+}}, 1, 64]
//       CHECK:     %[[SRC:.+]] = tensor.extract_slice %{{.+}}[0, %[[LO]], 0, 0] [1, %[[COUNT]], 56, 64]
//       CHECK:     %[[PAD:.+]] = tensor.insert_slice %[[SRC]] into %[[FILLED]][0, %[[AT]], 1, 0] [1, %[[COUNT]], 56, 64]
//       CHECK:     linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD]], %{{.+}} : tensor<1x4x58x64xf32>, tensor<3x3x64x64xf32>)
//   CHECK-NOT:   tensor<1x58x58x64xf32>
func.func @conv_padded_image() {
  %cst = arith.constant 0.0 : f32
  %0 = kiln.binding 0 : memref<1x56x56x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<1x56x56x64xf32> to tensor<1x56x56x64xf32>
  %2 = kiln.binding 1 : memref<3x3x64x64xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
  %ep = tensor.empty() : tensor<1x58x58x64xf32>
  %fp = linalg.fill ins(%cst : f32) outs(%ep : tensor<1x58x58x64xf32>) -> tensor<1x58x58x64xf32>
  %p = tensor.insert_slice %1 into %fp[0, 1, 1, 0] [1, 56, 56, 64] [1, 1, 1, 1] : tensor<1x56x56x64xf32> into tensor<1x58x58x64xf32>
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
                                 lowering_config = #kiln.lowering_config<workgroup = [0, 2, 0, 0], vector = [1, 1, 14, 16, 1, 0, 1]>}
      ins(%p, %3 : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %4 = kiln.binding 2 : memref<1x56x56x64xf32>
  bufferization.materialize_in_destination %c in restrict writable %4 : (tensor<1x56x56x64xf32>, memref<1x56x56x64xf32>) -> ()
  return
}

// -----

// Tests that an unpack whose tiles overhang its result in both dims (1000
// rows in 6-row tiles; 1000 columns in workgroups of 16, the last one 8
// wide) unpacks straight into each workgroup's tile of the result, not into
// a tensor of whole tiles (1002 x 16) sliced afterwards, which would become
// a temporary every workgroup copies out.
// CHECK-LABEL: func.func @unpack_overhanging
//       CHECK:   scf.forall (%[[J:.+]]) = (0) to (1000) step (16)
//       CHECK:     %[[N:.+]] = affine.min
//       CHECK:     %[[E:.+]] = tensor.empty(%[[N]]) : tensor<1000x?xf32>
//       CHECK:     %[[U:.+]] = linalg.unpack {{.*}} into %[[E]] {lowering_config = {{.*}}} : tensor<167x1x6x16xf32> -> tensor<1000x?xf32>
//   CHECK-NOT:     tensor.extract_slice
//       CHECK:     tensor.parallel_insert_slice %[[U]]
func.func @unpack_overhanging() {
  %0 = kiln.binding 0 : memref<167x63x6x16xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<167x63x6x16xf32> to tensor<167x63x6x16xf32>
  %e = tensor.empty() : tensor<1000x1000xf32>
  %u = linalg.unpack %1 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %e
      {lowering_config = #kiln.lowering_config<workgroup = [0, 16], vector = [6, 16]>}
      : tensor<167x63x6x16xf32> -> tensor<1000x1000xf32>
  %2 = kiln.binding 1 : memref<1000x1000xf32>
  bufferization.materialize_in_destination %u in restrict writable %2 : (tensor<1000x1000xf32>, memref<1000x1000xf32>) -> ()
  return
}

// -----

// Tests the same with workgroups of several column tiles (64 columns, the
// last one 40 wide: a tile count known only per workgroup): each workgroup's
// columns are whole, so it unpacks into its tile of the result all the same.
// CHECK-LABEL: func.func @unpack_overhanging_wide_workgroups
//       CHECK:   scf.forall (%[[J:.+]]) = (0) to (1000) step (64)
//       CHECK:     %[[N:.+]] = affine.min
//       CHECK:     %[[E:.+]] = tensor.empty(%[[N]]) : tensor<1000x?xf32>
//       CHECK:     %[[U:.+]] = linalg.unpack {{.*}} into %[[E]] {lowering_config = {{.*}}} : tensor<167x?x6x16xf32> -> tensor<1000x?xf32>
//   CHECK-NOT:     tensor.extract_slice
//       CHECK:     tensor.parallel_insert_slice %[[U]]
func.func @unpack_overhanging_wide_workgroups() {
  %0 = kiln.binding 0 : memref<167x63x6x16xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<167x63x6x16xf32> to tensor<167x63x6x16xf32>
  %e = tensor.empty() : tensor<1000x1000xf32>
  %u = linalg.unpack %1 inner_dims_pos = [0, 1] inner_tiles = [6, 16] into %e
      {lowering_config = #kiln.lowering_config<workgroup = [0, 64], vector = [6, 16]>}
      : tensor<167x63x6x16xf32> -> tensor<1000x1000xf32>
  %2 = kiln.binding 1 : memref<1000x1000xf32>
  bufferization.materialize_in_destination %u in restrict writable %2 : (tensor<1000x1000xf32>, memref<1000x1000xf32>) -> ()
  return
}

// -----

// Tests that a workgroup loop whose extent tiling takes from a size the
// dispatch computes (here the first operand's rows, 4 x constant 1) runs to
// the dispatch constant its export declares the workgroups by (constant 0,
// the result's rows), which a workgroup count can take.
// EXPORT-LABEL: func.func @declared_rows
//       EXPORT:   %[[ROWS:.+]] = kiln.dispatch.constant 0 : index
//       EXPORT:   scf.forall (%{{.+}}) = (0) to (%[[ROWS]]) step (32)
kiln.executable @declared_rows {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v4", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @declared_rows ordinal(0) bindings(2) workgroups([1, 1, 1]) {index_constants = 2 : index, workgroup_tiles = array<i64: 0, 0, 32>}
    builtin.module {
      func.func @declared_rows() {
        %rows = kiln.dispatch.constant 0 : index
        %images = kiln.dispatch.constant 1 : index
        %computed = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%images]
        %0 = kiln.binding 0(%rows) : memref<?x16xf32>
        %1 = bufferization.to_tensor %0 restrict : memref<?x16xf32> to tensor<?x16xf32>
        %a = tensor.empty(%computed) : tensor<?x16xf32>
        %cst = arith.constant 1.0 : f32
        %filled = linalg.fill ins(%cst : f32) outs(%a : tensor<?x16xf32>) -> tensor<?x16xf32>
        %e = tensor.empty(%rows) : tensor<?x16xf32>
        %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
            ins(%filled, %1 : tensor<?x16xf32>, tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) attrs = {lowering_config = #kiln.lowering_config<workgroup = [32, 0], vector = [8, 16]>} {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        } -> tensor<?x16xf32>
        %2 = kiln.binding 1(%rows) : memref<?x16xf32>
        bufferization.materialize_in_destination %g in restrict writable %2 : (tensor<?x16xf32>, memref<?x16xf32>) -> ()
        return
      }
    }
  }
}
