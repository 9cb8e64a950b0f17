// RUN: %e2e %s -o %t
// One elementwise generic chaining math ops: exp, tanh, log, sqrt, abs, plus
// arith mul/sub/div. The input is in [0.1, 2] so log/sqrt are defined.
// Tolerance: libm/polynomial approximations of exp/tanh/log differ by a few
// ulps between kiln's codegen and the reference's libm calls.
// TOLERANCE: rtol=1e-5 atol=1e-6
// INPUT: 6x37xf32=random(0.1, 2.0)
// INPUT: 6x37xf32=random

func.func @main(%x: tensor<6x37xf32>, %y: tensor<6x37xf32>) -> tensor<6x37xf32> {
  %empty = tensor.empty() : tensor<6x37xf32>
  %half = arith.constant 0.5 : f32
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<6x37xf32>, tensor<6x37xf32>) outs(%empty : tensor<6x37xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %e = math.exp %b : f32
    %t = math.tanh %b : f32
    %l = math.log %a : f32
    %s = math.sqrt %a : f32
    %ab = math.absf %b : f32
    %m = arith.mulf %e, %t : f32
    %d = arith.divf %l, %s : f32
    %sub = arith.subf %m, %d : f32
    %h = arith.mulf %ab, %half : f32
    %res = arith.addf %sub, %h : f32
    linalg.yield %res : f32
  } -> tensor<6x37xf32>
  return %r : tensor<6x37xf32>
}
