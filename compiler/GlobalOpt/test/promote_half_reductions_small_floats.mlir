// RUN: kiln-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(kiln-promote-half-reductions{half=false},canonicalize,cse))" | FileCheck %s

// Tests that a contraction of fp8 values accumulates in f32 (products and
// sums at f32) and rounds once, even where f16 and bf16 keep their own
// type (half=false, --accumulate-half-in-f32=false).
// CHECK-LABEL: func.func @matmul_f8
//       CHECK:   %[[WIDE:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<4x16xf8E4M3FN>) outs(%{{.+}} : tensor<4x16xf32>)
//       CHECK:     arith.extf %{{.+}} : f8E4M3FN to f32
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs(%[[WIDE]] : tensor<4x16xf32>)
//       CHECK:     %[[A:.+]] = arith.extf %{{.+}} : f8E4M3FN to f32
//       CHECK:     %[[B:.+]] = arith.extf %{{.+}} : f8E4M3FN to f32
//       CHECK:     %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
//       CHECK:     arith.addf %{{.+}}, %[[P]] : f32
//       CHECK:   %[[R:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<4x16xf32>) outs(%{{.+}} : tensor<4x16xf8E4M3FN>)
//       CHECK:     arith.truncf %{{.+}} : f32 to f8E4M3FN
//       CHECK:   return %[[R]]
func.func @matmul_f8(%a: tensor<4x8xf8E4M3FN>, %b: tensor<8x16xf8E4M3FN>, %c: tensor<4x16xf8E4M3FN>) -> tensor<4x16xf8E4M3FN> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf8E4M3FN>, tensor<8x16xf8E4M3FN>) outs(%c : tensor<4x16xf8E4M3FN>) -> tensor<4x16xf8E4M3FN>
  return %r : tensor<4x16xf8E4M3FN>
}

// -----

// Tests that a sum of f4E2M1FN values accumulates in f32, and that an f16
// sum is left alone when half=false.
// CHECK-LABEL: func.func @sums
//       CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["reduction"]{{.*}} ins(%{{.+}} : tensor<64xf4E2M1FN>) outs(%{{.+}} : tensor<f32>)
//       CHECK:     %[[IN:.+]] = arith.extf %{{.+}} : f4E2M1FN to f32
//       CHECK:     arith.addf %[[IN]], %{{.+}} : f32
//       CHECK:   linalg.generic {{.*}} ins(%[[SUM]] : tensor<f32>) outs(%{{.+}} : tensor<f4E2M1FN>)
//       CHECK:     arith.truncf %{{.+}} : f32 to f4E2M1FN
//       CHECK:   linalg.reduce ins(%{{.+}} : tensor<64xf16>)
//       CHECK:     arith.addf %{{.+}}, %{{.+}} : f16
func.func @sums(%x: tensor<64xf4E2M1FN>, %y: tensor<64xf16>) -> (tensor<f4E2M1FN>, tensor<f16>) {
  %z = arith.constant 0.0 : f4E2M1FN
  %e = tensor.empty() : tensor<f4E2M1FN>
  %f = linalg.fill ins(%z : f4E2M1FN) outs(%e : tensor<f4E2M1FN>) -> tensor<f4E2M1FN>
  %r = linalg.reduce ins(%x : tensor<64xf4E2M1FN>) outs(%f : tensor<f4E2M1FN>) dimensions = [0]
    (%a: f4E2M1FN, %b: f4E2M1FN) { %s = arith.addf %a, %b : f4E2M1FN
      linalg.yield %s : f4E2M1FN }
  %zh = arith.constant 0.0 : f16
  %eh = tensor.empty() : tensor<f16>
  %fh = linalg.fill ins(%zh : f16) outs(%eh : tensor<f16>) -> tensor<f16>
  %rh = linalg.reduce ins(%y : tensor<64xf16>) outs(%fh : tensor<f16>) dimensions = [0]
    (%a: f16, %b: f16) { %s = arith.addf %a, %b : f16
      linalg.yield %s : f16 }
  return %r, %rh : tensor<f4E2M1FN>, tensor<f16>
}
