// RUN: %e2e %s -o %t
// Unary math ops beyond exp/tanh/log/sqrt, one result each so a mismatch
// names the op (result k is the k-th op in the yield):
//   erf, erfc, atan, sinh, cosh, tan, sin, cos, exp2, expm1
//   ceil, floor, round, roundeven, trunc, cbrt, asin, acos, asinh, atanh
//   log2, log10, log1p, acosh, rsqrt (on %p in [1.1, 3]).
// %u is in [-0.9, 0.9] (inside the domain of asin/acos/atanh).
// INPUT: 3x11xf32=random(-0.9, 0.9)
// INPUT: 3x11xf32=random(1.1, 3.0)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%u: tensor<3x11xf32>, %p: tensor<3x11xf32>)
    -> (tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>) {
  %e = tensor.empty() : tensor<3x11xf32>
  %r:25 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
      iterator_types = ["parallel", "parallel"]}
      ins(%u, %p : tensor<3x11xf32>, tensor<3x11xf32>)
      outs(%e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e, %e : tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32, %o4: f32, %o5: f32, %o6: f32, %o7: f32, %o8: f32, %o9: f32, %o10: f32, %o11: f32, %o12: f32, %o13: f32, %o14: f32, %o15: f32, %o16: f32, %o17: f32, %o18: f32, %o19: f32, %o20: f32, %o21: f32, %o22: f32, %o23: f32, %o24: f32):
    %erf = math.erf %x : f32
    %erfc = math.erfc %x : f32
    %atan = math.atan %x : f32
    %sinh = math.sinh %x : f32
    %cosh = math.cosh %x : f32
    %tan = math.tan %x : f32
    %sin = math.sin %x : f32
    %cos = math.cos %x : f32
    %exp2 = math.exp2 %x : f32
    %expm1 = math.expm1 %x : f32
    %ceil = math.ceil %x : f32
    %floor = math.floor %x : f32
    %round = math.round %x : f32
    %roundeven = math.roundeven %x : f32
    %trunc = math.trunc %x : f32
    %cbrt = math.cbrt %x : f32
    %asin = math.asin %x : f32
    %acos = math.acos %x : f32
    %asinh = math.asinh %x : f32
    %atanh = math.atanh %x : f32
    %log2 = math.log2 %y : f32
    %log10 = math.log10 %y : f32
    %log1p = math.log1p %y : f32
    %acosh = math.acosh %y : f32
    %rsqrt = math.rsqrt %y : f32
    linalg.yield %erf, %erfc, %atan, %sinh, %cosh, %tan, %sin, %cos, %exp2, %expm1, %ceil, %floor, %round, %roundeven, %trunc, %cbrt, %asin, %acos, %asinh, %atanh, %log2, %log10, %log1p, %acosh, %rsqrt
        : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
  } -> (tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19, %r#20, %r#21, %r#22, %r#23, %r#24
      : tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>, tensor<3x11xf32>
}
