// RUN: %e2e %s -o %t
// argmax over the last dimension: one linalg.generic with two outputs (max
// value, index as i32), the first maximal index wins (strict ogt).
// INPUT: 5x29xf32=random

func.func @main(%x: tensor<5x29xf32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ef = tensor.empty() : tensor<5xf32>
  %ei = tensor.empty() : tensor<5xi32>
  %accf = linalg.fill ins(%ninf : f32) outs(%ef : tensor<5xf32>) -> tensor<5xf32>
  %acci = linalg.fill ins(%c0 : i32) outs(%ei : tensor<5xi32>) -> tensor<5xi32>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                       affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x29xf32>) outs(%accf, %acci : tensor<5xf32>, tensor<5xi32>) {
  ^bb0(%a: f32, %best: f32, %idx: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %a, %best : f32
    %nb = arith.select %gt, %a, %best : f32
    %ni = arith.select %gt, %ji, %idx : i32
    linalg.yield %nb, %ni : f32, i32
  } -> (tensor<5xf32>, tensor<5xi32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
