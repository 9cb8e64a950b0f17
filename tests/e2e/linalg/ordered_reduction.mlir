// RUN: kiln-compile %s --reassociate-fp-reductions=false -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// With reassociation off, a float sum adds in the program's order: each 1
// after 1e8 rounds away until -1e8 cancels it, so the sum is 7 exactly (a
// sum by vector lanes keeps more of the ones).

// CHECK: {{^}}ordered_sum: PASS
// CHECK: 1 passed, 0 failed

func.func @ordered_sum() {
  %x = util.unfoldable_constant dense<[1.0e8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0e8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]> : tensor<16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%x : tensor<16xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  check.expect_almost_eq_const(%s, dense<7.0> : tensor<f32>, atol 0.0) : tensor<f32>
  return
}
