// RUN: %e2e %s -o %t
// tensor.extract of one element of an input used as a scalar operand of an
// elementwise op (a data-dependent scalar captured by a dispatch).
// tensor.extract is outside kiln's documented tensor op list today
// (kiln-compile rejects it with a clear diagnostic); IREE and XLA users
// expect it, so this test stays as the feature request.
// INPUT: 3xf32=[0.5, -2, 4]
// INPUT: 4x5xf32=random

func.func @main(%s: tensor<3xf32>, %x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %c1 = arith.constant 1 : index
  %k = tensor.extract %s[%c1] : tensor<3xf32>
  %e = tensor.empty() : tensor<4x5xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    linalg.yield %m : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
