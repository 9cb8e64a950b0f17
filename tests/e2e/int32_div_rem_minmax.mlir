// RUN: %e2e %s -o %t
// i32 signed/unsigned division and remainder, min/max: divisors are in
// [1, 9] so no division by zero.
// INPUT: 3x17xi32=random(-500, 500)
// INPUT: 3x17xi32=random(1, 9)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<3x17xi32>, %d: tensor<3x17xi32>)
    -> (tensor<3x17xi32>, tensor<3x17xi32>, tensor<3x17xi32>) {
  %e = tensor.empty() : tensor<3x17xi32>
  %r:3 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %d : tensor<3x17xi32>, tensor<3x17xi32>)
      outs(%e, %e, %e : tensor<3x17xi32>, tensor<3x17xi32>, tensor<3x17xi32>) {
  ^bb0(%a: i32, %b: i32, %o0: i32, %o1: i32, %o2: i32):
    %q = arith.divsi %a, %b : i32
    %rem = arith.remsi %a, %b : i32
    %uq = arith.divui %a, %b : i32
    %ur = arith.remui %a, %b : i32
    %mx = arith.maxsi %q, %rem : i32
    %mn = arith.minui %uq, %ur : i32
    %s = arith.addi %mx, %mn : i32
    linalg.yield %q, %rem, %s : i32, i32, i32
  } -> (tensor<3x17xi32>, tensor<3x17xi32>, tensor<3x17xi32>)
  return %r#0, %r#1, %r#2 : tensor<3x17xi32>, tensor<3x17xi32>, tensor<3x17xi32>
}
