// RUN: %e2e %s -o %t
// tensor.pad of an i1 tensor along the innermost dimension (low and high),
// padding with true; inputs all false so every true comes from padding.
// INPUT: 3x3xi1=0

func.func @main(%m: tensor<3x3xi1>) -> (tensor<3x4xi1>, tensor<3x4xi1>) {
  %true = arith.constant true
  %hi = tensor.pad %m low[0, 0] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %true : i1
  } : tensor<3x3xi1> to tensor<3x4xi1>
  %lo = tensor.pad %m low[0, 1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %true : i1
  } : tensor<3x3xi1> to tensor<3x4xi1>
  return %hi, %lo : tensor<3x4xi1>, tensor<3x4xi1>
}
