// RUN: %e2e %s -o %t
// linalg.softmax over the first (outer) dimension: 7x5, normalize columns.
// INPUT: 7x5xf32=random(-4.0, 4.0)

func.func @main(%x: tensor<7x5xf32>) -> tensor<7x5xf32> {
  %e = tensor.empty() : tensor<7x5xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<7x5xf32>)
                                    outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}
