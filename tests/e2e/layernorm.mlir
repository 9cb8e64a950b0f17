// RUN: %e2e %s -o %t
// Layer normalization over the last dimension with scale and bias:
// y = (x - mean) / sqrt(var + eps) * gamma + beta, for a 6x48 input.
// INPUT: 6x48xf32=random(-2, 2)
// INPUT: 48xf32=random(0.5, 1.5)
// INPUT: 48xf32=random

func.func @main(%x: tensor<6x48xf32>, %gamma: tensor<48xf32>, %beta: tensor<48xf32>) -> tensor<6x48xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 48.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e6 = tensor.empty() : tensor<6xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.reduce ins(%x : tensor<6x48xf32>) outs(%z6 : tensor<6xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    }
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<6xf32>) outs(%e6 : tensor<6xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  %sq = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<6x48xf32>, tensor<6xf32>) outs(%z6 : tensor<6xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %o : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %e = tensor.empty() : tensor<6x48xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>,
                       affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<6x48xf32>, tensor<6xf32>, tensor<6xf32>, tensor<48xf32>, tensor<48xf32>)
      outs(%e : tensor<6x48xf32>) {
  ^bb0(%a: f32, %m: f32, %v: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %nrm = arith.mulf %d, %rs : f32
    %sc = arith.mulf %nrm, %g : f32
    %r = arith.addf %sc, %b : f32
    linalg.yield %r : f32
  } -> tensor<6x48xf32>
  return %y : tensor<6x48xf32>
}
