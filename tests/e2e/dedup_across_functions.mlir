// RUN: %e2e %s -o %t
// The same matmul + tanh in two functions: one executable shared across
// functions after deduplication; each function must still get its results.
// ENTRY: first
// INPUT: 3x6xf32=random
// INPUT: 6x5xf32=random
// ENTRY: second
// INPUT: 3x6xf32=random(-2, 2)
// INPUT: 6x5xf32=random(-2, 2)

func.func @first(%a: tensor<3x6xf32>, %b: tensor<6x5xf32>) -> tensor<3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<3x6xf32>, tensor<6x5xf32>) outs(%acc : tensor<3x5xf32>) -> tensor<3x5xf32>
  %t = linalg.tanh ins(%m : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %t : tensor<3x5xf32>
}

func.func @second(%a: tensor<3x6xf32>, %b: tensor<6x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %m = linalg.matmul ins(%a, %b : tensor<3x6xf32>, tensor<6x5xf32>) outs(%acc : tensor<3x5xf32>) -> tensor<3x5xf32>
  %t = linalg.tanh ins(%m : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %n = linalg.negf ins(%t : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %t, %n : tensor<3x5xf32>, tensor<3x5xf32>
}
