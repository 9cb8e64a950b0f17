// RUN: %e2e %s -o %t
// Function names that look like generated executable names
// (<func>_dispatch_<n>): symbols of functions and executables must not
// collide.
// ENTRY: f
// INPUT: 4xf32=[1, 2, 3, 4]
// ENTRY: f_dispatch_0
// INPUT: 4xf32=[1, 2, 3, 4]

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @f_dispatch_0(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.mul ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
