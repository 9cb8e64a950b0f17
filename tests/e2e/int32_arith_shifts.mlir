// RUN: %e2e %s -o %t
// i32 elementwise arithmetic: add, mul, sub, shifts (shli, shrsi, shrui),
// and/or/xor, with negative values so arithmetic vs logical shift matters.
// INPUT: 4x19xi32=random(-1000, 1000)
// INPUT: 4x19xi32=random(0, 7)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%x: tensor<4x19xi32>, %s: tensor<4x19xi32>)
    -> (tensor<4x19xi32>, tensor<4x19xi32>, tensor<4x19xi32>) {
  %e = tensor.empty() : tensor<4x19xi32>
  %c3 = arith.constant 3 : i32
  %mask = arith.constant 0xFF0 : i32
  %r:3 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x19xi32>, tensor<4x19xi32>)
      outs(%e, %e, %e : tensor<4x19xi32>, tensor<4x19xi32>, tensor<4x19xi32>) {
  ^bb0(%a: i32, %b: i32, %o0: i32, %o1: i32, %o2: i32):
    %sum = arith.addi %a, %b : i32
    %prod = arith.muli %sum, %c3 : i32
    %diff = arith.subi %prod, %a : i32
    %shl = arith.shli %a, %b : i32
    %ashr = arith.shrsi %a, %b : i32
    %lshr = arith.shrui %a, %b : i32
    %x1 = arith.xori %shl, %ashr : i32
    %and = arith.andi %lshr, %mask : i32
    %or = arith.ori %x1, %and : i32
    linalg.yield %diff, %or, %lshr : i32, i32, i32
  } -> (tensor<4x19xi32>, tensor<4x19xi32>, tensor<4x19xi32>)
  return %r#0, %r#1, %r#2 : tensor<4x19xi32>, tensor<4x19xi32>, tensor<4x19xi32>
}
