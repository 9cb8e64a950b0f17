// RUN: %e2e %s -o %t
// Returns its inputs unchanged (no dispatch at all), swapped, and one twice.
// INPUT: 3x4xf32=random
// INPUT: 5xi32=random

func.func @main(%x: tensor<3x4xf32>, %y: tensor<5xi32>) -> (tensor<5xi32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  return %y, %x, %x : tensor<5xi32>, tensor<3x4xf32>, tensor<3x4xf32>
}
