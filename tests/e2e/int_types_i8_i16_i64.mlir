// RUN: %e2e %s -o %t
// Elementwise ops on i8 (wrapping add), i16 (mul) and i64 (large values,
// multiply beyond 32 bits) and a truncation i64 -> i16.
// INPUT: 3x10xi8=random(-128, 127)
// INPUT: 3x10xi16=random(-100, 100)
// INPUT: 3x10xi64=random(-3000000000, 3000000000)

#id = affine_map<(i, j) -> (i, j)>
func.func @main(%a: tensor<3x10xi8>, %b: tensor<3x10xi16>, %c: tensor<3x10xi64>)
    -> (tensor<3x10xi8>, tensor<3x10xi16>, tensor<3x10xi64>) {
  %e8 = tensor.empty() : tensor<3x10xi8>
  %e16 = tensor.empty() : tensor<3x10xi16>
  %e64 = tensor.empty() : tensor<3x10xi64>
  %c7 = arith.constant 7 : i64
  %r:3 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<3x10xi8>, tensor<3x10xi16>, tensor<3x10xi64>)
      outs(%e8, %e16, %e64 : tensor<3x10xi8>, tensor<3x10xi16>, tensor<3x10xi64>) {
  ^bb0(%x: i8, %y: i16, %z: i64, %o0: i8, %o1: i16, %o2: i64):
    %s8 = arith.addi %x, %x : i8
    %y2 = arith.muli %y, %y : i16
    %zt = arith.trunci %z : i64 to i16
    %s16 = arith.addi %y2, %zt : i16
    %z7 = arith.muli %z, %c7 : i64
    %xe = arith.extsi %x : i8 to i64
    %s64 = arith.addi %z7, %xe : i64
    linalg.yield %s8, %s16, %s64 : i8, i16, i64
  } -> (tensor<3x10xi8>, tensor<3x10xi16>, tensor<3x10xi64>)
  return %r#0, %r#1, %r#2 : tensor<3x10xi8>, tensor<3x10xi16>, tensor<3x10xi64>
}
