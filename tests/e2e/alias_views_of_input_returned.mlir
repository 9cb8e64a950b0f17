// RUN: %e2e %s -o %t
// Results that are pure views of an argument, no computation: a strided
// extract_slice, an expand_shape and a collapse_shape of the input.
// INPUT: 6x8xi32=iota

func.func @main(%x: tensor<6x8xi32>) -> (tensor<3x4xi32>, tensor<2x3x8xi32>, tensor<48xi32>, tensor<2x8xi32>) {
  %s = tensor.extract_slice %x[1, 1] [3, 4] [2, 2] : tensor<6x8xi32> to tensor<3x4xi32>
  %e = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 3, 8] : tensor<6x8xi32> into tensor<2x3x8xi32>
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<6x8xi32> into tensor<48xi32>
  %rows = tensor.extract_slice %x[4, 0] [2, 8] [1, 1] : tensor<6x8xi32> to tensor<2x8xi32>
  return %s, %e, %c, %rows : tensor<3x4xi32>, tensor<2x3x8xi32>, tensor<48xi32>, tensor<2x8xi32>
}
