// RUN: %e2e %s -o %t
// tensor.expand_shape 6x20 -> 2x3x4x5 followed by a transpose that makes the
// reshape observable.
// INPUT: 6x20xf32=iota

func.func @main(%x: tensor<6x20xf32>) -> tensor<5x3x2x4xf32> {
  %r = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [2, 3, 4, 5]
      : tensor<6x20xf32> into tensor<2x3x4x5xf32>
  %e = tensor.empty() : tensor<5x3x2x4xf32>
  %t = linalg.transpose ins(%r : tensor<2x3x4x5xf32>) outs(%e : tensor<5x3x2x4xf32>)
      permutation = [3, 1, 0, 2]
  return %t : tensor<5x3x2x4xf32>
}
