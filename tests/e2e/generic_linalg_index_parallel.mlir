// RUN: %e2e %s -o %t
// linalg.index in parallel dimensions of an op large enough to be tiled and
// spread over workgroups: out[i, j] = x[i, j] + 1000 * i + j. Each tile must
// see global, not tile-local, indices.
// INPUT: 67x301xi32=random

func.func @main(%x: tensor<67x301xi32>) -> tensor<67x301xi32> {
  %e = tensor.empty() : tensor<67x301xi32>
  %c1000 = arith.constant 1000 : i32
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<67x301xi32>) outs(%e : tensor<67x301xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %s = arith.muli %ii, %c1000 : i32
    %t = arith.addi %s, %jj : i32
    %u = arith.addi %t, %a : i32
    linalg.yield %u : i32
  } -> tensor<67x301xi32>
  return %r : tensor<67x301xi32>
}
