// RUN: %e2e %s -o %t
// Integer reductions: minsi over rows (init i32 max) and an i64 sum of the
// i32 values extended (init 0).
// INPUT: 8x77xi32=random(-1000000, 1000000)

func.func @main(%x: tensor<8x77xi32>) -> (tensor<8xi32>, tensor<8xi64>) {
  %imax = arith.constant 2147483647 : i32
  %z64 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<8xi32>
  %e64 = tensor.empty() : tensor<8xi64>
  %acc = linalg.fill ins(%imax : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %acc64 = linalg.fill ins(%z64 : i64) outs(%e64 : tensor<8xi64>) -> tensor<8xi64>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                       affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x77xi32>) outs(%acc, %acc64 : tensor<8xi32>, tensor<8xi64>) {
  ^bb0(%a: i32, %m: i32, %s: i64):
    %mn = arith.minsi %a, %m : i32
    %w = arith.extsi %a : i32 to i64
    %t = arith.addi %s, %w : i64
    linalg.yield %mn, %t : i32, i64
  } -> (tensor<8xi32>, tensor<8xi64>)
  return %r#0, %r#1 : tensor<8xi32>, tensor<8xi64>
}
