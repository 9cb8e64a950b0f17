// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-lower-vectors))" | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-cpu-lower-vectors{reassociate-fp-reductions=false}))" | FileCheck %s --check-prefix=ORDERED

// Tests that the accumulator of a K loop is hoisted into registers (loop
// iter_args, no load/store of it inside) and that the contraction becomes
// rank-1 FMAs on 1-D vectors.
// CHECK-LABEL: func.func @acc
//       CHECK:   scf.for {{.*}} iter_args({{.*}}) -> (vector<2x32xf32>)
//   CHECK-NOT:     vector.contract
//       CHECK:     vector.fma {{.*}} : vector<32xf32>
//       CHECK:     vector.fma {{.*}} : vector<32xf32>
//       CHECK:     scf.yield
func.func @acc(%a: memref<2x64xf32>, %b: memref<64x32xf32>, %c: memref<2x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<2x64xf32>, vector<2x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<64x32xf32>, vector<1x32xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<2x32xf32>
  }
  return
}

// -----

// Tests that a packed mmt4d tile (unit outer dims, K0 = 1) becomes one outer
// product per step of K whose 6 LHS elements are scalar loads (broadcast
// from memory), not a vector load shuffled apart, and whose 16-wide RHS is
// one vector load (no element-wise loads of the trailing unit dim).
// CHECK-LABEL: func.func @mmt4d_tile
//       CHECK:   scf.for {{.*}} -> (vector<1x1x6x16xf32>)
//       CHECK:     vector.load %{{.+}} : memref<1x8x16xf32, {{.*}}>, vector<16xf32>
//   CHECK-NOT:     vector.load %{{.+}} : memref<1x8x6xf32
// CHECK-COUNT-6:   memref.load %{{.+}} : memref<1x8x6xf32
//       CHECK:     vector.fma {{.*}} : vector<16xf32>
func.func @mmt4d_tile(%lhs: memref<1x8x6x1xf32>, %rhs: memref<1x8x16x1xf32>, %out: memref<1x1x6x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %init = vector.transfer_read %out[%c0, %c0, %c0, %c0], %pad {in_bounds = [true, true, true, true]} : memref<1x1x6x16xf32>, vector<1x1x6x16xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (vector<1x1x6x16xf32>) {
    %va = vector.transfer_read %lhs[%c0, %k, %c0, %c0], %pad {in_bounds = [true, true, true, true]} : memref<1x8x6x1xf32>, vector<1x1x6x1xf32>
    %vb = vector.transfer_read %rhs[%c0, %k, %c0, %c0], %pad {in_bounds = [true, true, true, true]} : memref<1x8x16x1xf32>, vector<1x1x16x1xf32>
    %c = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d4)>],
                          iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %acc : vector<1x1x6x1xf32>, vector<1x1x16x1xf32> into vector<1x1x6x16xf32>
    scf.yield %c : vector<1x1x6x16xf32>
  }
  vector.transfer_write %r, %out[%c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true]} : vector<1x1x6x16xf32>, memref<1x1x6x16xf32>
  return
}

// -----

// Tests that vectors of sub-byte integers (one byte per element in memory,
// packed bits in a vector register) are loaded and stored one element at a
// time, and that wider types keep their vector accesses.
// CHECK-LABEL: func.func @sub_byte_access
//   CHECK-NOT:   vector.load {{.*}} vector<4xi4>
//       CHECK:   memref.load {{.*}} : memref<4xi4>
//       CHECK:   memref.load {{.*}} : memref<4xi4>
//       CHECK:   memref.load {{.*}} : memref<4xi4>
//       CHECK:   memref.load {{.*}} : memref<4xi4>
//       CHECK:   memref.store {{.*}} : memref<4xi2>
//       CHECK:   memref.store {{.*}} : memref<4xi2>
//       CHECK:   memref.store {{.*}} : memref<4xi2>
//       CHECK:   memref.store {{.*}} : memref<4xi2>
//       CHECK:   vector.store {{.*}} : memref<4xi8>, vector<4xi8>
func.func @sub_byte_access(%a: memref<4xi4>, %b: memref<4xi2>, %c: memref<4xi8>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<4xi4>, vector<4xi4>
  %t = arith.trunci %v : vector<4xi4> to vector<4xi2>
  vector.store %t, %b[%c0] : memref<4xi2>, vector<4xi2>
  %w = arith.extsi %v : vector<4xi4> to vector<4xi8>
  vector.store %w, %c[%c0] : memref<4xi8>, vector<4xi8>
  return
}

// -----

// Tests that f4E2M1FN vectors (a byte per element in memory) are loaded one
// element at a time, and fp8 vectors as whole vectors.
// CHECK-LABEL: func.func @f4_access
//   CHECK-NOT:   vector.load {{.*}} vector<2xf4E2M1FN>
//       CHECK:   memref.load {{.*}} : memref<2xf4E2M1FN>
//       CHECK:   memref.load {{.*}} : memref<2xf4E2M1FN>
//       CHECK:   vector.store {{.*}} : memref<2xf8E4M3FN>, vector<2xf8E4M3FN>
func.func @f4_access(%a: memref<2xf4E2M1FN>, %b: memref<2xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<2xf4E2M1FN>, vector<2xf4E2M1FN>
  %w = arith.extf %v : vector<2xf4E2M1FN> to vector<2xf8E4M3FN>
  vector.store %w, %b[%c0] : memref<2xf8E4M3FN>, vector<2xf8E4M3FN>
  return
}

// -----

// Tests that each row of a 2-D mask is a 1-D create_mask whose bound is
// selected as an integer (the column bound in rows below the row bound,
// else 0), never a select between a row mask and zeros (which upstream's
// patterns may also make, depending on the order they apply in): LLVM 22's
// X86 backend turns a masked load wider than a register into an unmasked
// load where it finds half of such a mask false in both arms.
// CHECK-LABEL: func.func @masked_rows
//  CHECK-SAME:   %[[ROWS:[a-zA-Z0-9]+]]: index, %[[COLS:[a-zA-Z0-9]+]]: index)
//   CHECK-NOT:   arith.select {{.*}} vector
//       CHECK:   %[[IN1:.+]] = arith.cmpi sgt, %[[ROWS]], %c1
//       CHECK:   %[[BOUND1:.+]] = arith.select %[[IN1]], %[[COLS]], %c0 : index
//       CHECK:   %[[MASK1:.+]] = vector.create_mask %[[BOUND1]] : vector<16xi1>
//       CHECK:   vector.maskedload {{.*}}, %[[MASK1]]
//   CHECK-NOT:   arith.select {{.*}} vector
func.func @masked_rows(%m: memref<300x200xf32>, %row: index, %col: index, %rows: index, %cols: index) -> vector<3x16xf32> {
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %rows, %cols : vector<3x16xi1>
  %v = vector.transfer_read %m[%row, %col], %pad, %mask {in_bounds = [true, true]} : memref<300x200xf32>, vector<3x16xf32>
  return %v : vector<3x16xf32>
}

// -----

// Tests that an accumulator loop is unrolled by the largest of 4 and 2 that
// divides its step count, so that no remainder loop repeats its body: 12
// steps of K run as 3 iterations of 4 steps (each updating the two rows 4
// times, in order), 10 steps as 5 of 2, and 7 steps stay as they are.
// CHECK-LABEL: func.func @acc_unrolled
//       CHECK:   scf.for %{{.+}} = %c0 to %c12 step %c4 iter_args({{.*}}) -> (vector<2x32xf32>)
// CHECK-COUNT-8:   vector.fma {{.*}} : vector<32xf32>
//   CHECK-NOT:     vector.fma
//       CHECK:     scf.yield
//   CHECK-NOT:   scf.for
//       CHECK:   scf.for %{{.+}} = %c0 to %c10 step %c2 iter_args({{.*}}) -> (vector<2x32xf32>)
// CHECK-COUNT-4:   vector.fma {{.*}} : vector<32xf32>
//   CHECK-NOT:     vector.fma
//       CHECK:     scf.yield
//   CHECK-NOT:   scf.for
//       CHECK:   scf.for %{{.+}} = %c0 to %c7 step %c1 iter_args({{.*}}) -> (vector<2x32xf32>)
// CHECK-COUNT-2:   vector.fma {{.*}} : vector<32xf32>
//   CHECK-NOT:     vector.fma
//       CHECK:     scf.yield
func.func @acc_unrolled(%a: memref<2x12xf32>, %b: memref<12x32xf32>, %c: memref<2x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c12 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<2x12xf32>, vector<2x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<12x32xf32>, vector<1x32xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<2x32xf32>
  }
  scf.for %k = %c0 to %c10 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<2x12xf32>, vector<2x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<12x32xf32>, vector<1x32xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<2x32xf32>
  }
  scf.for %k = %c0 to %c7 step %c1 {
    %va = vector.transfer_read %a[%c0, %k], %pad {in_bounds = [true, true]} : memref<2x12xf32>, vector<2x1xf32>
    %vb = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true]} : memref<12x32xf32>, vector<1x32xf32>
    %vc = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x32xf32>, vector<2x32xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                          iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
        %va, %vb, %vc : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
    vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<2x32xf32>
  }
  return
}

// -----

// Tests that a contraction whose reduction dims have one step and whose
// operands share parallel dims (a grouped convolution's step: the input
// broadcast over a group's outputs, times the filter) becomes FMAs on the
// accumulator's rows, not one-element products and adds.
// CHECK-LABEL: func.func @unit_reduction_contract
//   CHECK-NOT:   vector.contract
//   CHECK-NOT:   arith.mulf
// CHECK-COUNT-2:   vector.fma {{.*}} : vector<4xf32>
//   CHECK-NOT:   vector.fma
func.func @unit_reduction_contract(%in: vector<1x1x2x1x4x1x1x1xf32>, %w: vector<1x1x2x1x4x1x1x1xf32>, %acc: vector<1x1x2x1x4xf32>) -> vector<1x1x2x1x4xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6, d7)>,
                                         affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6, d7)>,
                                         affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"], kind = #vector.kind<add>}
      %in, %w, %acc : vector<1x1x2x1x4x1x1x1xf32>, vector<1x1x2x1x4x1x1x1xf32> into vector<1x1x2x1x4xf32>
  return %r : vector<1x1x2x1x4xf32>
}

// -----

// Tests that an operand missing an accumulator dim is broadcast over it and
// transposed into the accumulator's order: the [4] row times a [4, 2]
// matrix read column by column ([n, m] -> [m, n]).
// CHECK-LABEL: func.func @unit_reduction_contract_broadcast
//   CHECK-NOT:   vector.contract
// CHECK-COUNT-4:   vector.fma {{.*}} : vector<2xf32>
func.func @unit_reduction_contract_broadcast(%a: vector<4x1xf32>, %b: vector<2x4x1xf32>, %acc: vector<4x2xf32>) -> vector<4x2xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                         affine_map<(m, n, k) -> (n, m, k)>,
                                         affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %a, %b, %acc : vector<4x1xf32>, vector<2x4x1xf32> into vector<4x2xf32>
  return %r : vector<4x2xf32>
}

// -----

// Tests that a loop reducing one vector per step into a carried scalar (a
// softmax row's max and sum, in chunks of 16) carries a vector of partial
// results instead, combined lane by lane, and reduces it once after the
// loop, with the carried value: the max starting from it, the sum from 0.
// CHECK-LABEL: func.func @chunked_row_reductions
//       CHECK:   %[[MAXES:.+]]:2 = scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[M:.+]] = %{{.+}}) -> (vector<1xf32>, vector<16xf32>)
//   CHECK-NOT:     vector.reduction
//       CHECK:     arith.maxnumf %{{.+}}, %[[M]] : vector<16xf32>
//       CHECK:   vector.reduction <maxnumf>, %[[MAXES]]#1, %{{.+}} : vector<16xf32> into f32
//       CHECK:   %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16xf32>
//       CHECK:   %[[SUMS:.+]]:2 = scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[S:.+]] = %[[ZERO]]) -> (vector<1xf32>, vector<16xf32>)
//   CHECK-NOT:     vector.reduction
//       CHECK:     arith.addf %{{.+}}, %[[S]] : vector<16xf32>
//       CHECK:   vector.reduction <add>, %[[SUMS]]#1, %{{.+}} : vector<16xf32> into f32
// With reductions of floats in order, the max (exact in any order) still
// carries a vector; the sum reduces each step's vector into the scalar.
// ORDERED-LABEL: func.func @chunked_row_reductions
//       ORDERED:   scf.for {{.*}} -> (vector<1xf32>, vector<16xf32>)
//       ORDERED:   scf.for {{.*}} -> (vector<1xf32>) {
//       ORDERED:     vector.reduction <add>, %{{.+}}, %{{.+}} : vector<16xf32> into f32
func.func @chunked_row_reductions(%row: memref<64xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %lowest = arith.constant dense<0xFF800000> : vector<1xf32>
  %zero = arith.constant dense<0.0> : vector<1xf32>
  %max = scf.for %i = %c0 to %c64 step %c16 iter_args(%acc = %lowest) -> (vector<1xf32>) {
    %v = vector.load %row[%i] : memref<64xf32>, vector<16xf32>
    %a = vector.extract %acc[0] : f32 from vector<1xf32>
    %r = vector.reduction <maxnumf>, %v, %a : vector<16xf32> into f32
    %b = vector.broadcast %r : f32 to vector<1xf32>
    scf.yield %b : vector<1xf32>
  }
  %sum = scf.for %i = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (vector<1xf32>) {
    %v = vector.load %row[%i] : memref<64xf32>, vector<16xf32>
    %a = vector.extract %acc[0] : f32 from vector<1xf32>
    %r = vector.reduction <add>, %v, %a : vector<16xf32> into f32
    %b = vector.insert %r, %zero [0] : f32 into vector<1xf32>
    scf.yield %b : vector<1xf32>
  }
  vector.store %max, %out[%c0] : memref<2xf32>, vector<1xf32>
  vector.store %sum, %out[%c1] : memref<2xf32>, vector<1xf32>
  return
}

// -----

// Tests that an xor reduction (not idempotent) starts its partial results
// at 0, not at the carried value, which it combines once after the loop.
// CHECK-LABEL: func.func @chunked_xor
//       CHECK:   %[[INIT:.+]] = vector.extract %{{.+}}[0] : i32 from vector<1xi32>
//       CHECK:   %[[ZERO:.+]] = arith.constant dense<0> : vector<8xi32>
//       CHECK:   %[[PARTS:.+]]:2 = scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[X:.+]] = %[[ZERO]])
//       CHECK:     arith.xori %{{.+}}, %[[X]] : vector<8xi32>
//       CHECK:   vector.reduction <xor>, %[[PARTS]]#1, %[[INIT]] : vector<8xi32> into i32
func.func @chunked_xor(%row: memref<32xi32>, %seed: vector<1xi32>) -> vector<1xi32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %r = scf.for %i = %c0 to %c32 step %c8 iter_args(%acc = %seed) -> (vector<1xi32>) {
    %v = vector.load %row[%i] : memref<32xi32>, vector<8xi32>
    %a = vector.extract %acc[0] : i32 from vector<1xi32>
    %x = vector.reduction <xor>, %v, %a : vector<8xi32> into i32
    %b = vector.broadcast %x : i32 to vector<1xi32>
    scf.yield %b : vector<1xi32>
  }
  return %r : vector<1xi32>
}

// -----

// Tests that a masked contraction with one-step reductions keeps its mask:
// upstream lowers it, lane by lane under the mask, not to unmasked FMAs.
// CHECK-LABEL: func.func @unit_reduction_contract_masked
//   CHECK-NOT:   vector.fma {{.*}} : vector<4xf32>
func.func @unit_reduction_contract_masked(%in: vector<4x1xf32>, %w: vector<4x1xf32>, %acc: vector<4xf32>, %n: index) -> vector<4xf32> {
  %c1 = arith.constant 1 : index
  %m = vector.create_mask %n, %c1 : vector<4x1xi1>
  %r = vector.mask %m {
    vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                     iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>}
      %in, %w, %acc : vector<4x1xf32>, vector<4x1xf32> into vector<4xf32>
  } : vector<4x1xi1> -> vector<4xf32>
  return %r : vector<4xf32>
}
