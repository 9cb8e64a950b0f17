// RUN: %e2e %s -o %t
// tensor.extract_slice with offsets, sizes and strides (2, 3), and a
// rank-reducing slice, each fed to an elementwise op.
// INPUT: 10x12xf32=iota

func.func @main(%x: tensor<10x12xf32>) -> (tensor<4x3xf32>, tensor<12xf32>) {
  %s = tensor.extract_slice %x[1, 2] [4, 3] [2, 3] : tensor<10x12xf32> to tensor<4x3xf32>
  %row = tensor.extract_slice %x[7, 0] [1, 12] [1, 1] : tensor<10x12xf32> to tensor<12xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %neg = linalg.negf ins(%s : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %e1 = tensor.empty() : tensor<12xf32>
  %twice = linalg.add ins(%row, %row : tensor<12xf32>, tensor<12xf32>)
                      outs(%e1 : tensor<12xf32>) -> tensor<12xf32>
  return %neg, %twice : tensor<4x3xf32>, tensor<12xf32>
}
