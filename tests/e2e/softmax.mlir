// RUN: %e2e %s -o %t
// linalg.softmax over the last dimension of a 3-D tensor: 2x6x33.
// INPUT: 2x6x33xf32=random(-4.0, 4.0)

func.func @main(%x: tensor<2x6x33xf32>) -> tensor<2x6x33xf32> {
  %e = tensor.empty() : tensor<2x6x33xf32>
  %r = linalg.softmax dimension(2) ins(%x : tensor<2x6x33xf32>)
                                    outs(%e : tensor<2x6x33xf32>) -> tensor<2x6x33xf32>
  return %r : tensor<2x6x33xf32>
}
