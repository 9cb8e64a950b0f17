// RUN: %e2e %s -o %t
// A pad and a concat large enough to be split over workgroups by rows: each
// workgroup fills its rows and copies in the source rows that land there,
// including workgroups of padding only and rows from both concat operands.

// ENTRY: pad
// INPUT: 1x56x56x64xf32=random
func.func @pad(%x: tensor<1x56x56x64xf32>) -> tensor<1x61x58x64xf32> {
  %zero = arith.constant 0.5 : f32
  %p = tensor.pad %x low[0, 2, 1, 0] high[0, 3, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x56x56x64xf32> to tensor<1x61x58x64xf32>
  return %p : tensor<1x61x58x64xf32>
}

// ENTRY: concat
// INPUT: 600x250xf32=random
// INPUT: 411x250xf32=random
func.func @concat(%a: tensor<600x250xf32>, %b: tensor<411x250xf32>) -> tensor<1011x250xf32> {
  %c = tensor.concat dim(0) %a, %b : (tensor<600x250xf32>, tensor<411x250xf32>) -> tensor<1011x250xf32>
  return %c : tensor<1011x250xf32>
}
