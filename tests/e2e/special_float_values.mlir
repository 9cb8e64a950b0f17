// RUN: %e2e %s -o %t
// IEEE special values through elementwise ops: inf/nan inputs, exp overflow,
// log(0) = -inf, sqrt(-1) = nan, division by zero, and NaN propagation by
// maximumf (propagates NaN) versus maxnumf (ignores NaN).
// INPUT: 8xf32=[0, -1, 1, inf, -inf, nan, 100, -0.0]
// INPUT: 8xf32=[0, 2, nan, 1, 0, 3, -100, 5]

#id = affine_map<(i) -> (i)>
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %r:6 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>)
      outs(%e, %e, %e, %e, %e, %e : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32, %o4: f32, %o5: f32):
    %exp = math.exp %a : f32
    %log = math.log %a : f32
    %sqrt = math.sqrt %a : f32
    %div = arith.divf %b, %a : f32
    %mx = arith.maximumf %a, %b : f32
    %mn = arith.maxnumf %a, %b : f32
    linalg.yield %exp, %log, %sqrt, %div, %mx, %mn : f32, f32, f32, f32, f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5
      : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
