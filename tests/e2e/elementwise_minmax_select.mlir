// RUN: %e2e %s -o %t
// maximumf / minimumf / cmpf + select, and a clamp, in one elementwise op.
// INPUT: 5x23xf32=random
// INPUT: 5x23xf32=random

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<5x23xf32>, %y: tensor<5x23xf32>) -> (tensor<5x23xf32>, tensor<5x23xf32>) {
  %e = tensor.empty() : tensor<5x23xf32>
  %lo = arith.constant -0.25 : f32
  %hi = arith.constant 0.5 : f32
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<5x23xf32>, tensor<5x23xf32>) outs(%e, %e : tensor<5x23xf32>, tensor<5x23xf32>) {
  ^bb0(%a: f32, %b: f32, %o0: f32, %o1: f32):
    %mx = arith.maximumf %a, %b : f32
    %mn = arith.minimumf %a, %b : f32
    %gt = arith.cmpf ogt, %a, %b : f32
    %sel = arith.select %gt, %mx, %mn : f32
    %diff = arith.subf %sel, %mn : f32
    %c0 = arith.maximumf %a, %lo : f32
    %clamp = arith.minimumf %c0, %hi : f32
    linalg.yield %diff, %clamp : f32, f32
  } -> (tensor<5x23xf32>, tensor<5x23xf32>)
  return %r#0, %r#1 : tensor<5x23xf32>, tensor<5x23xf32>
}
