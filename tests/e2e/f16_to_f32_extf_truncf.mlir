// RUN: %e2e %s -o %t
// f16 <-> f32 conversions: extf f16 -> f32, exp in f32, truncf back to f16.
// INPUT: 3x9xf16=random(-2.0, 2.0)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<3x9xf16>) -> (tensor<3x9xf32>, tensor<3x9xf16>) {
  %e32 = tensor.empty() : tensor<3x9xf32>
  %e16 = tensor.empty() : tensor<3x9xf16>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x9xf16>) outs(%e32, %e16 : tensor<3x9xf32>, tensor<3x9xf16>) {
  ^bb0(%a: f16, %o0: f32, %o1: f16):
    %w = arith.extf %a : f16 to f32
    %ex = math.exp %w : f32
    %t = arith.truncf %ex : f32 to f16
    linalg.yield %ex, %t : f32, f16
  } -> (tensor<3x9xf32>, tensor<3x9xf16>)
  return %r#0, %r#1 : tensor<3x9xf32>, tensor<3x9xf16>
}
