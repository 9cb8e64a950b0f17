// RUN: %e2e %s -o %t
// bf16 inputs and results (passed to kiln-run as text, since NumPy has no
// bf16): a multiply-add in bf16 and a widening to f32.
// INPUT: 4x10xbf16=random
// INPUT: 4x10xbf16=random

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<4x10xbf16>, %y: tensor<4x10xbf16>) -> (tensor<4x10xbf16>, tensor<4x10xf32>) {
  %eb = tensor.empty() : tensor<4x10xbf16>
  %ef = tensor.empty() : tensor<4x10xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x10xbf16>, tensor<4x10xbf16>) outs(%eb, %ef : tensor<4x10xbf16>, tensor<4x10xf32>) {
  ^bb0(%a: bf16, %b: bf16, %o0: bf16, %o1: f32):
    %m = arith.mulf %a, %b : bf16
    %s = arith.addf %m, %a : bf16
    %w = arith.extf %a : bf16 to f32
    linalg.yield %s, %w : bf16, f32
  } -> (tensor<4x10xbf16>, tensor<4x10xf32>)
  return %r#0, %r#1 : tensor<4x10xbf16>, tensor<4x10xf32>
}
