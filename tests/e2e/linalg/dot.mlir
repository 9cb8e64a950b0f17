// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// linalg.dot: a contraction into a 0-d tensor as a named op.

// CHECK: {{^}}dot_f32: PASS
// CHECK: {{^}}dot_32_f32: PASS
// CHECK: {{^}}2 passed, 0 failed

func.func @dot_f32() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[-1.0, 0.5, 2.0, 0.25]> : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %0 = linalg.dot ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const(%0, dense<7.0> : tensor<f32>) : tensor<f32>
  return
}

// A longer dot product: sum_i i * (i - 10) for i = 0..31.
func.func @dot_32_f32() {
  %empty = tensor.empty() : tensor<32xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%empty : tensor<32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<32xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%empty : tensor<32xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %c10 = arith.constant 10 : i32
    %d = arith.subi %ii, %c10 : i32
    %f = arith.sitofp %d : i32 to f32
    linalg.yield %f : f32
  } -> tensor<32xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %0 = linalg.dot ins(%a, %b : tensor<32xf32>, tensor<32xf32>) outs(%init : tensor<f32>) -> tensor<f32>
  check.expect_almost_eq_const(%0, dense<5456.0> : tensor<f32>) : tensor<f32>
  return
}
