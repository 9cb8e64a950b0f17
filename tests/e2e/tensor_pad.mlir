// RUN: %e2e %s -o %t
// tensor.pad with a non-zero padding value and asymmetric low/high amounts,
// returned directly: 3x4 -> 6x9.
// INPUT: 3x4xf32=random

func.func @main(%x: tensor<3x4xf32>) -> tensor<6x9xf32> {
  %pv = arith.constant -1.5 : f32
  %r = tensor.pad %x low[1, 2] high[2, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<3x4xf32> to tensor<6x9xf32>
  return %r : tensor<6x9xf32>
}
