// RUN: %e2e %s -o %t
// A lone linalg.broadcast as the returned value: 5x3 -> 5x2x3 (new dim 1).
// INPUT: 5x3xf32=iota

func.func @main(%v: tensor<5x3xf32>) -> tensor<5x2x3xf32> {
  %empty = tensor.empty() : tensor<5x2x3xf32>
  %b = linalg.broadcast ins(%v : tensor<5x3xf32>) outs(%empty : tensor<5x2x3xf32>)
      dimensions = [1]
  return %b : tensor<5x2x3xf32>
}
