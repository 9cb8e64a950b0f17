// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-promote-half-reductions,canonicalize,cse))" | FileCheck %s

// Tests that a sum of f16 values accumulates in f32: the accumulator is
// extended before, each input as it is read, and the result is truncated
// once after.
// CHECK-LABEL: func.func @sum_f16
//       CHECK:   %[[WIDE:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<f16>) outs(%{{.+}} : tensor<f32>)
//       CHECK:     arith.extf %{{.+}} : f16 to f32
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%{{.+}} : tensor<4096xf16>) outs(%[[WIDE]] : tensor<f32>)
//       CHECK:     %[[IN:.+]] = arith.extf %{{.+}} : f16 to f32
//       CHECK:     %[[ADD:.+]] = arith.addf %[[IN]], %{{.+}} : f32
//       CHECK:     linalg.yield %[[ADD]] : f32
//       CHECK:   %[[NARROW:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<f32>) outs(%{{.+}} : tensor<f16>)
//       CHECK:     arith.truncf %{{.+}} : f32 to f16
//       CHECK:   return %[[NARROW]]
func.func @sum_f16(%x: tensor<4096xf16>) -> tensor<f16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<f16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<f16>) -> tensor<f16>
  %r = linalg.reduce ins(%x : tensor<4096xf16>) outs(%f : tensor<f16>) dimensions = [0]
    (%a: f16, %b: f16) { %s = arith.addf %a, %b : f16
      linalg.yield %s : f16 }
  return %r : tensor<f16>
}

// -----

// Tests that a bf16 body with a constant and a math op is rebuilt on f32
// (the constant at f32), and that a conversion to f32 inside it vanishes.
// CHECK-LABEL: func.func @sum_of_squares_bf16
//   CHECK-DAG:   %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
//       CHECK:   linalg.generic {{.*}} outs(%{{.+}} : tensor<8xf32>)
//       CHECK:     %[[IN:.+]] = arith.extf %{{.+}} : bf16 to f32
//       CHECK:     %[[SQ:.+]] = math.powf %[[IN]], %[[TWO]] : f32
//       CHECK:     %[[ADD:.+]] = arith.addf %[[SQ]], %{{.+}} : f32
//       CHECK:     linalg.yield %[[ADD]] : f32
//       CHECK:   arith.truncf %{{.+}} : f32 to bf16
func.func @sum_of_squares_bf16(%x: tensor<8x64xbf16>, %init: tensor<8xbf16>) -> tensor<8xbf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xbf16>) outs(%init : tensor<8xbf16>) {
  ^bb0(%a: bf16, %acc: bf16):
    %two = arith.constant 2.0 : bf16
    %sq = math.powf %a, %two : bf16
    %w = arith.extf %sq : bf16 to f32
    %n = arith.truncf %w : f32 to bf16
    %s = arith.addf %n, %acc : bf16
    linalg.yield %s : bf16
  } -> tensor<8xbf16>
  return %r : tensor<8xbf16>
}

// -----

// Tests that contractions (data tiling's business), f32 reductions and
// elementwise f16 generics are left alone.
// CHECK-LABEL: func.func @left_alone
//   CHECK-NOT:   arith.extf
//   CHECK-NOT:   arith.truncf
//       CHECK:   linalg.matmul
//   CHECK-NOT:   arith.extf
//   CHECK-NOT:   arith.truncf
//       CHECK:   return
func.func @left_alone(%a: tensor<4x8xf16>, %b: tensor<8x4xf16>, %c: tensor<4x4xf16>, %x: tensor<64xf32>, %y: tensor<f32>) -> (tensor<4x4xf16>, tensor<f32>, tensor<4x4xf16>) {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x4xf16>) outs(%c : tensor<4x4xf16>) -> tensor<4x4xf16>
  %r = linalg.reduce ins(%x : tensor<64xf32>) outs(%y : tensor<f32>) dimensions = [0]
    (%p: f32, %q: f32) { %s = arith.addf %p, %q : f32
      linalg.yield %s : f32 }
  %e = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf16>) outs(%c : tensor<4x4xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    linalg.yield %n : f16
  } -> tensor<4x4xf16>
  return %m, %r, %e : tensor<4x4xf16>, tensor<f32>, tensor<4x4xf16>
}
