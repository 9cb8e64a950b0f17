// RUN: %e2e %s -o %t
// Several public functions in one module, each called by name; @scale and
// @offset share a helper shape, @both calls neither (no func.call in kiln's
// input), and a private helper is called from @both.
// ENTRY: scale
// INPUT: 3x4xf32=random
// ENTRY: offset
// INPUT: 3x4xf32=random
// INPUT: 4xf32=[10, 20, 30, 40]
// ENTRY: both
// INPUT: 3x4xf32=iota

func.func @scale(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.add ins(%x, %x : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @offset(%x: tensor<3x4xf32>, %v: tensor<4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %b = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e : tensor<3x4xf32>) dimensions = [0]
  %r = linalg.add ins(%x, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func private @square(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.mul ins(%x, %x : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @both(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %s = func.call @square(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.sub ins(%s, %x : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
