// RUN: %e2e %s -o %t
// An intermediate with several consumers (two dispatches and the return):
// fusion must not duplicate work incorrectly or drop the returned value.
// INPUT: 6x10xf32=random
// INPUT: 10x6xf32=random

func.func @main(%a: tensor<6x10xf32>, %b: tensor<10x6xf32>) -> (tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6x6xf32>) -> tensor<6x6xf32>
  %m = linalg.matmul ins(%a, %b : tensor<6x10xf32>, tensor<10x6xf32>) outs(%acc : tensor<6x6xf32>) -> tensor<6x6xf32>
  %ex = linalg.exp ins(%m : tensor<6x6xf32>) outs(%e : tensor<6x6xf32>) -> tensor<6x6xf32>
  %et = tensor.empty() : tensor<6x6xf32>
  %t = linalg.transpose ins(%m : tensor<6x6xf32>) outs(%et : tensor<6x6xf32>) permutation = [1, 0]
  %s = linalg.add ins(%ex, %t : tensor<6x6xf32>, tensor<6x6xf32>) outs(%e : tensor<6x6xf32>) -> tensor<6x6xf32>
  return %m, %s, %ex : tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>
}
