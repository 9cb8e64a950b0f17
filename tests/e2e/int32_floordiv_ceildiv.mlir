// RUN: %e2e %s -o %t
// arith.floordivsi and arith.ceildivsi (rounding toward -inf / +inf) on
// negative and positive i32 values; divisors in [1, 9], and negated.
// INPUT: 3x17xi32=random(-500, 500)
// INPUT: 3x17xi32=random(1, 9)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<3x17xi32>, %d: tensor<3x17xi32>)
    -> (tensor<3x17xi32>, tensor<3x17xi32>) {
  %e = tensor.empty() : tensor<3x17xi32>
  %c0 = arith.constant 0 : i32
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %d : tensor<3x17xi32>, tensor<3x17xi32>)
      outs(%e, %e : tensor<3x17xi32>, tensor<3x17xi32>) {
  ^bb0(%a: i32, %b: i32, %o0: i32, %o1: i32):
    %nb = arith.subi %c0, %b : i32
    %fl = arith.floordivsi %a, %b : i32
    %ce = arith.ceildivsi %a, %nb : i32
    linalg.yield %fl, %ce : i32, i32
  } -> (tensor<3x17xi32>, tensor<3x17xi32>)
  return %r#0, %r#1 : tensor<3x17xi32>, tensor<3x17xi32>
}
