// RUN: %e2e %s -o %t
// A pad of images whose batch is known only when it runs, large enough to
// be split over workgroups by its rows (32 rows of 33x64, each workgroup
// taking them for the whole batch), with different padding on each side;
// batch 1 and 3 (prime).
// ENTRY: main
// INPUT: 1x30x30x64xf32=random
// ENTRY: main
// INPUT: 3x30x30x64xf32=random

func.func @main(%x: tensor<?x30x30x64xf32>) -> tensor<?x32x33x64xf32> {
  %half = arith.constant 0.5 : f32
  %p = tensor.pad %x low[0, 1, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %half : f32
  } : tensor<?x30x30x64xf32> to tensor<?x32x33x64xf32>
  return %p : tensor<?x32x33x64xf32>
}
