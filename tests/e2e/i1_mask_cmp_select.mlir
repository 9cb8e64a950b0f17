// RUN: %e2e %s -o %t
// i1 masks: a cmpf result returned as an i1 tensor, an i1 input combined with
// it (andi/xori), and the mask used by select.
// INPUT: 4x13xf32=random
// INPUT: 4x13xi1=random
// INPUT: 4x13xf32=random

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<4x13xf32>, %m: tensor<4x13xi1>, %y: tensor<4x13xf32>)
    -> (tensor<4x13xi1>, tensor<4x13xi1>, tensor<4x13xf32>) {
  %zero = arith.constant 0.0 : f32
  %true = arith.constant true
  %eb = tensor.empty() : tensor<4x13xi1>
  %ef = tensor.empty() : tensor<4x13xf32>
  %r:3 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %y : tensor<4x13xf32>, tensor<4x13xi1>, tensor<4x13xf32>)
      outs(%eb, %eb, %ef : tensor<4x13xi1>, tensor<4x13xi1>, tensor<4x13xf32>) {
  ^bb0(%a: f32, %mask: i1, %b: f32, %o0: i1, %o1: i1, %o2: f32):
    %pos = arith.cmpf ogt, %a, %zero : f32
    %both = arith.andi %pos, %mask : i1
    %notm = arith.xori %mask, %true : i1
    %either = arith.ori %both, %notm : i1
    %sel = arith.select %either, %a, %b : f32
    linalg.yield %pos, %either, %sel : i1, i1, f32
  } -> (tensor<4x13xi1>, tensor<4x13xi1>, tensor<4x13xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x13xi1>, tensor<4x13xi1>, tensor<4x13xf32>
}
