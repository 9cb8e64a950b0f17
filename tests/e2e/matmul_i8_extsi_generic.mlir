// RUN: %e2e %s -o %t
// i8 -> i32 widening written explicitly (arith.extsi in a generic) before an
// i32 matmul; also returns the widened tensor.
// INPUT: 5x12xi8=random(-128, 127)
// INPUT: 12x7xi32=random

func.func @main(%a: tensor<5x12xi8>, %b: tensor<12x7xi32>) -> (tensor<5x12xi32>, tensor<5x7xi32>) {
  %e = tensor.empty() : tensor<5x12xi32>
  %w = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<5x12xi8>) outs(%e : tensor<5x12xi32>) {
  ^bb0(%x: i8, %o: i32):
    %y = arith.extsi %x : i8 to i32
    linalg.yield %y : i32
  } -> tensor<5x12xi32>
  %zero = arith.constant 0 : i32
  %eo = tensor.empty() : tensor<5x7xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%eo : tensor<5x7xi32>) -> tensor<5x7xi32>
  %r = linalg.matmul ins(%w, %b : tensor<5x12xi32>, tensor<12x7xi32>)
                     outs(%acc : tensor<5x7xi32>) -> tensor<5x7xi32>
  return %w, %r : tensor<5x12xi32>, tensor<5x7xi32>
}
