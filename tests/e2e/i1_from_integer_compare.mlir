// RUN: %e2e %s -o %t
// cmpi on i32 producing an i1 tensor, then extui i1 -> i32 counting per row.
// INPUT: 6x11xi32=random(-5, 5)

func.func @main(%x: tensor<6x11xi32>) -> (tensor<6x11xi1>, tensor<6xi32>) {
  %c0 = arith.constant 0 : i32
  %eb = tensor.empty() : tensor<6x11xi1>
  %mask = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x11xi32>) outs(%eb : tensor<6x11xi1>) {
  ^bb0(%a: i32, %o: i1):
    %ge = arith.cmpi sge, %a, %c0 : i32
    linalg.yield %ge : i1
  } -> tensor<6x11xi1>
  %e = tensor.empty() : tensor<6xi32>
  %acc = linalg.fill ins(%c0 : i32) outs(%e : tensor<6xi32>) -> tensor<6xi32>
  %count = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%mask : tensor<6x11xi1>) outs(%acc : tensor<6xi32>) {
  ^bb0(%b: i1, %o: i32):
    %w = arith.extui %b : i1 to i32
    %s = arith.addi %o, %w : i32
    linalg.yield %s : i32
  } -> tensor<6xi32>
  return %mask, %count : tensor<6x11xi1>, tensor<6xi32>
}
