// RUN: %e2e %s -o %t
// RUN: %e2e %s -o %t.variants --variants=x86-64-v4,x86-64-v3,x86-64
// Softmax and layernorm, each one dispatch tiled by rows (their reductions
// computed once per row in the tile), at odd sizes over several workgroups.
// TOLERANCE: rtol=1e-5 atol=1e-6

// ENTRY: softmax
// INPUT: 4x53x300xf32=random
func.func @softmax(%x: tensor<4x53x300xf32>) -> tensor<4x53x300xf32> {
  %e = tensor.empty() : tensor<4x53x300xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<4x53x300xf32>) outs(%e : tensor<4x53x300xf32>) -> tensor<4x53x300xf32>
  return %s : tensor<4x53x300xf32>
}

// ENTRY: layernorm
// INPUT: 37x256xf32=random
// INPUT: 256xf32=random
// INPUT: 256xf32=random
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: tensor<37x256xf32>, %gamma: tensor<256xf32>, %beta: tensor<256xf32>) -> tensor<37x256xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %er = tensor.empty() : tensor<37xf32>
  %e = tensor.empty() : tensor<37x256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<37x256xf32>) outs(%f0 : tensor<37xf32>) {
  ^bb0(%v: f32, %s: f32):
    %r = arith.addf %v, %s : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %var = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<37x256xf32>, tensor<37xf32>) outs(%f0 : tensor<37xf32>) {
  ^bb0(%v: f32, %s: f32, %acc: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  } -> tensor<37xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %var, %gamma, %beta : tensor<37x256xf32>, tensor<37xf32>, tensor<37xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%e : tensor<37x256xf32>) {
  ^bb0(%v: f32, %s: f32, %q: f32, %g: f32, %b: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %variance = arith.divf %q, %n : f32
    %ve = arith.addf %variance, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %d = arith.subf %v, %mean : f32
    %nrm = arith.mulf %d, %rstd : f32
    %scaled = arith.mulf %nrm, %g : f32
    %r = arith.addf %scaled, %b : f32
    linalg.yield %r : f32
  } -> tensor<37x256xf32>
  return %out : tensor<37x256xf32>
}
