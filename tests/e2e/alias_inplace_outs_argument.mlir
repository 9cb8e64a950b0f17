// RUN: %e2e %s -o %t
// Destination-passing style into a function argument: the add writes "into"
// %acc (outs) and the fill into %x, yet both arguments are also returned
// unchanged. The caller's buffers must not be clobbered.
// INPUT: 4x6xf32=random
// INPUT: 4x6xf32=random

func.func @main(%x: tensor<4x6xf32>, %acc: tensor<4x6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %sum = linalg.add ins(%x, %x : tensor<4x6xf32>, tensor<4x6xf32>)
                    outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  %c = arith.constant 3.0 : f32
  %filled = linalg.fill ins(%c : f32) outs(%x : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %sum, %acc, %filled, %x : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}
