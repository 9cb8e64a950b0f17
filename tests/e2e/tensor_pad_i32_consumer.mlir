// RUN: %e2e %s -o %t
// tensor.pad of an i32 tensor consumed by an elementwise op (pad + consumer
// fusion): 5x3 -> 5x8, then add 100.
// INPUT: 5x3xi32=random

func.func @main(%x: tensor<5x3xi32>) -> tensor<5x8xi32> {
  %pv = arith.constant 7 : i32
  %c100 = arith.constant 100 : i32
  %p = tensor.pad %x low[0, 4] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : i32
  } : tensor<5x3xi32> to tensor<5x8xi32>
  %e = tensor.empty() : tensor<5x8xi32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<5x8xi32>) outs(%e : tensor<5x8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.addi %a, %c100 : i32
    linalg.yield %s : i32
  } -> tensor<5x8xi32>
  return %r : tensor<5x8xi32>
}
