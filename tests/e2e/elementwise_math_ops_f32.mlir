// RUN: %e2e %s -o %t
// Each math op in its own result so a mismatch names the op: exp, tanh, log,
// sqrt, rsqrt, erf, sin/cos-free set that MLIR lowers on CPU.
// INPUT: 4x33xf32=random(-3.0, 3.0)
// INPUT: 4x33xf32=random(0.05, 4.0)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<4x33xf32>, %p: tensor<4x33xf32>)
    -> (tensor<4x33xf32>, tensor<4x33xf32>, tensor<4x33xf32>, tensor<4x33xf32>, tensor<4x33xf32>) {
  %e = tensor.empty() : tensor<4x33xf32>
  %exp = linalg.exp ins(%x : tensor<4x33xf32>) outs(%e : tensor<4x33xf32>) -> tensor<4x33xf32>
  %tanh = linalg.tanh ins(%x : tensor<4x33xf32>) outs(%e : tensor<4x33xf32>) -> tensor<4x33xf32>
  %log = linalg.log ins(%p : tensor<4x33xf32>) outs(%e : tensor<4x33xf32>) -> tensor<4x33xf32>
  %sqrt = linalg.sqrt ins(%p : tensor<4x33xf32>) outs(%e : tensor<4x33xf32>) -> tensor<4x33xf32>
  %rsqrt = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x33xf32>) outs(%e : tensor<4x33xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<4x33xf32>
  return %exp, %tanh, %log, %sqrt, %rsqrt
      : tensor<4x33xf32>, tensor<4x33xf32>, tensor<4x33xf32>, tensor<4x33xf32>, tensor<4x33xf32>
}
