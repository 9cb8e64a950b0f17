// RUN: %e2e %s -o %t
// A 2-D i32 transpose with sizes that are not multiples of the vector width.
// INPUT: 13x17xi32=random

func.func @main(%x: tensor<13x17xi32>) -> tensor<17x13xi32> {
  %empty = tensor.empty() : tensor<17x13xi32>
  %r = linalg.transpose ins(%x : tensor<13x17xi32>) outs(%empty : tensor<17x13xi32>)
      permutation = [1, 0]
  return %r : tensor<17x13xi32>
}
