// RUN: %e2e %s -o %t
// i1 reductions: "any" (ori) and "all" (andi) over the last dimension.
// INPUT: 6x37xi1=random
// INPUT: 6x37xi1=[1]

func.func @main(%x: tensor<6x37xi1>, %ones: tensor<6x37xi1>) -> (tensor<6xi1>, tensor<6xi1>, tensor<6xi1>) {
  %false = arith.constant false
  %true = arith.constant true
  %e = tensor.empty() : tensor<6xi1>
  %any0 = linalg.fill ins(%false : i1) outs(%e : tensor<6xi1>) -> tensor<6xi1>
  %all0 = linalg.fill ins(%true : i1) outs(%e : tensor<6xi1>) -> tensor<6xi1>
  %r:2 = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x37xi1>) outs(%any0, %all0 : tensor<6xi1>, tensor<6xi1>) {
  ^bb0(%a: i1, %any: i1, %all: i1):
    %o = arith.ori %a, %any : i1
    %n = arith.andi %a, %all : i1
    linalg.yield %o, %n : i1, i1
  } -> (tensor<6xi1>, tensor<6xi1>)
  %all1 = linalg.reduce ins(%ones : tensor<6x37xi1>) outs(%all0 : tensor<6xi1>) dimensions = [1]
    (%a: i1, %o: i1) {
      %t = arith.andi %a, %o : i1
      linalg.yield %t : i1
    }
  return %r#0, %r#1, %all1 : tensor<6xi1>, tensor<6xi1>, tensor<6xi1>
}
