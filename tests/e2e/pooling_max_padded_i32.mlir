// RUN: %e2e %s -o %t
// Max pooling on i32 (maxsi) with "same" padding by tensor.pad using INT_MIN,
// 3x3 window stride 2: 1x7x7x2 -> pad -> 1x9x9x2 -> 1x4x4x2.
// INPUT: 1x7x7x2xi32=random(-1000, 1000)

func.func @main(%in: tensor<1x7x7x2xi32>) -> tensor<1x4x4x2xi32> {
  %min = arith.constant -2147483648 : i32
  %p = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %h: index, %w: index, %c: index):
    tensor.yield %min : i32
  } : tensor<1x7x7x2xi32> to tensor<1x9x9x2xi32>
  %window = tensor.empty() : tensor<3x3xi32>
  %e = tensor.empty() : tensor<1x4x4x2xi32>
  %acc = linalg.fill ins(%min : i32) outs(%e : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<1x9x9x2xi32>, tensor<3x3xi32>)
      outs(%acc : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  return %r : tensor<1x4x4x2xi32>
}
