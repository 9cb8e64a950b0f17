// RUN: %e2e %s -o %t
// Three dispatches with identical structure that differ only in a scalar
// constant (x + 1, x + 2) or in the compare predicate (max via ogt vs olt):
// deduplication must keep them apart.
// INPUT: 4x7xf32=random

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<4x7xf32>) -> (tensor<4x7xf32>, tensor<4x7xf32>, tensor<4x7xf32>, tensor<4x7xf32>) {
  %e = tensor.empty() : tensor<4x7xf32>
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x7xf32>) outs(%e : tensor<4x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %one : f32
    linalg.yield %s : f32
  } -> tensor<4x7xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x7xf32>) outs(%e : tensor<4x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %two : f32
    linalg.yield %s : f32
  } -> tensor<4x7xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x7xf32>) outs(%e : tensor<4x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.cmpf ogt, %v, %zero : f32
    %s = arith.select %p, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x7xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x7xf32>) outs(%e : tensor<4x7xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.cmpf olt, %v, %zero : f32
    %s = arith.select %p, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x7xf32>
  return %a, %b, %c, %d : tensor<4x7xf32>, tensor<4x7xf32>, tensor<4x7xf32>, tensor<4x7xf32>
}
