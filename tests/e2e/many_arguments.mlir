// RUN: %e2e %s -o %t
// Ten arguments of mixed types feeding one elementwise dispatch (many
// bindings) plus two more results.
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xf32=random
// INPUT: 3x4xi32=random
// INPUT: 3x4xi32=random

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%a0: tensor<3x4xf32>, %a1: tensor<3x4xf32>, %a2: tensor<3x4xf32>, %a3: tensor<3x4xf32>,
                %a4: tensor<3x4xf32>, %a5: tensor<3x4xf32>, %a6: tensor<3x4xf32>, %a7: tensor<3x4xf32>,
                %i0: tensor<3x4xi32>, %i1: tensor<3x4xi32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %ei = tensor.empty() : tensor<3x4xi32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %i0, %i1
          : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
            tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
            tensor<3x4xi32>, tensor<3x4xi32>)
      outs(%e, %ei : tensor<3x4xf32>, tensor<3x4xi32>) {
  ^bb0(%b0: f32, %b1: f32, %b2: f32, %b3: f32, %b4: f32, %b5: f32, %b6: f32, %b7: f32,
       %j0: i32, %j1: i32, %o: f32, %oi: i32):
    %s0 = arith.addf %b0, %b1 : f32
    %s1 = arith.mulf %b2, %b3 : f32
    %s2 = arith.subf %b4, %b5 : f32
    %s3 = arith.divf %b6, %b7 : f32
    %t0 = arith.addf %s0, %s1 : f32
    %t1 = arith.addf %s2, %s3 : f32
    %f = arith.sitofp %j0 : i32 to f32
    %t2 = arith.addf %t0, %t1 : f32
    %t3 = arith.addf %t2, %f : f32
    %ji = arith.subi %j0, %j1 : i32
    linalg.yield %t3, %ji : f32, i32
  } -> (tensor<3x4xf32>, tensor<3x4xi32>)
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xi32>
}
