// RUN: %e2e %s -o %t
// A 1-D three-point stencil written with non-permutation indexing maps
// (d0 + 1, d0 + 2) on a larger input: out[i] = x[i] - 2 x[i+1] + x[i+2]. The
// first operand is a 4x64 slice of x so the loop bounds come from it.
// INPUT: 4x66xf32=random

func.func @main(%x: tensor<4x66xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %two = arith.constant 2.0 : f32
  %left = tensor.extract_slice %x[0, 0] [4, 64] [1, 1] : tensor<4x66xf32> to tensor<4x64xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b, i + 1)>,
                       affine_map<(b, i) -> (b, i + 2)>, affine_map<(b, i) -> (b, i)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%left, %x, %x : tensor<4x64xf32>, tensor<4x66xf32>, tensor<4x66xf32>)
      outs(%e : tensor<4x64xf32>) {
  ^bb0(%l: f32, %c: f32, %rr: f32, %o: f32):
    %c2 = arith.mulf %c, %two : f32
    %s = arith.subf %l, %c2 : f32
    %t = arith.addf %s, %rr : f32
    linalg.yield %t : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
