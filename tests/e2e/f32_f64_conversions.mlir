// RUN: %e2e %s -o %t
// Float conversions: f32 -> f64 (extf), f64 -> f32 (truncf), f32 -> i32
// (fptosi), i32 -> f32 (sitofp).
// INPUT: 3x7xf32=random(-50.0, 50.0)
// INPUT: 3x7xi32=random(-1000, 1000)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<3x7xf32>, %n: tensor<3x7xi32>)
    -> (tensor<3x7xf64>, tensor<3x7xi32>, tensor<3x7xf32>) {
  %e64 = tensor.empty() : tensor<3x7xf64>
  %ei = tensor.empty() : tensor<3x7xi32>
  %ef = tensor.empty() : tensor<3x7xf32>
  %third = arith.constant 0.333333333333333314829616256247 : f64
  %r:3 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %n : tensor<3x7xf32>, tensor<3x7xi32>)
      outs(%e64, %ei, %ef : tensor<3x7xf64>, tensor<3x7xi32>, tensor<3x7xf32>) {
  ^bb0(%a: f32, %b: i32, %o0: f64, %o1: i32, %o2: f32):
    %d = arith.extf %a : f32 to f64
    %d3 = arith.mulf %d, %third : f64
    %i = arith.fptosi %a : f32 to i32
    %f = arith.sitofp %b : i32 to f32
    %t = arith.truncf %d3 : f64 to f32
    %s = arith.addf %f, %t : f32
    linalg.yield %d3, %i, %s : f64, i32, f32
  } -> (tensor<3x7xf64>, tensor<3x7xi32>, tensor<3x7xf32>)
  return %r#0, %r#1, %r#2 : tensor<3x7xf64>, tensor<3x7xi32>, tensor<3x7xf32>
}
