// RUN: %e2e %s -o %t
// A large splat constant (512x300) as a dispatch operand and a small one
// returned directly.
// INPUT: 512x300xf32=random

func.func @main(%x: tensor<512x300xf32>) -> (tensor<512x300xf32>, tensor<3x2xi64>) {
  %c = arith.constant dense<0.5> : tensor<512x300xf32>
  %s = arith.constant dense<-9000000000> : tensor<3x2xi64>
  %e = tensor.empty() : tensor<512x300xf32>
  %r = linalg.sub ins(%x, %c : tensor<512x300xf32>, tensor<512x300xf32>) outs(%e : tensor<512x300xf32>) -> tensor<512x300xf32>
  return %r, %s : tensor<512x300xf32>, tensor<3x2xi64>
}
