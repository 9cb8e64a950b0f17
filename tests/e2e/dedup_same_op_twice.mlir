// RUN: %e2e %s -o %t
// The same matmul and the same elementwise op appear twice on different data:
// their dispatches deduplicate into one executable each, which must still be
// invoked with the right buffers each time.
// INPUT: 8x12xf32=random
// INPUT: 12x8xf32=random
// INPUT: 8x12xf32=random

func.func @main(%a: tensor<8x12xf32>, %b: tensor<12x8xf32>, %c: tensor<8x12xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<8x12xf32>, tensor<12x8xf32>)
                      outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m2 = linalg.matmul ins(%c, %b : tensor<8x12xf32>, tensor<12x8xf32>)
                      outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t1 = linalg.tanh ins(%m1 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t2 = linalg.tanh ins(%m2 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %t1, %t2 : tensor<8x8xf32>, tensor<8x8xf32>
}
