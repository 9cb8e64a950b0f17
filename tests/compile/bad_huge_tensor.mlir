// RUN: rm -f %t.kiln
// RUN: not kiln-compile %s -o %t.kiln 2>&1 | FileCheck %s
// RUN: not test -e %t.kiln

// Tests that tensors beyond what the runtime holds (1 TiB) are an error at
// their op when compiling, not only when the module loads.
// CHECK: bad_huge_tensor.mlir:[[@LINE+4]]:{{[0-9]+}}: error: 'tensor<100000x100000x100000xf32>' needs more than 1 TiB, the most a kiln tensor holds
// CHECK: bad_huge_tensor.mlir:[[@LINE+4]]:{{[0-9]+}}: error: 'tensor<100000x100000x100000xf32>' needs more than 1 TiB
// CHECK: bad_huge_tensor.mlir:[[@LINE+9]]:{{[0-9]+}}: error: 'tensor<9223372036854775807x4xi8>' needs more than 1 TiB
func.func @broadcast(%x: tensor<f32>) -> tensor<100000x100000x100000xf32> {
  %e = tensor.empty() : tensor<100000x100000x100000xf32>
  %b = linalg.broadcast ins(%x : tensor<f32>) outs(%e : tensor<100000x100000x100000xf32>) dimensions = [0, 1, 2]
  return %b : tensor<100000x100000x100000xf32>
}

// Dimensions whose product overflows 64 bits.
func.func @overflow(%x: tensor<i8>) -> tensor<9223372036854775807x4xi8> {
  %e = tensor.empty() : tensor<9223372036854775807x4xi8>
  %b = linalg.broadcast ins(%x : tensor<i8>) outs(%e : tensor<9223372036854775807x4xi8>) dimensions = [0, 1]
  return %b : tensor<9223372036854775807x4xi8>
}
