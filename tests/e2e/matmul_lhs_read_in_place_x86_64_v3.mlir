// RUN: %e2e %s -o %t --compile-flag=--cpu=x86-64-v3
// Packed contractions that read their LHS in place, compiled for x86-64-v3 (6 accumulator rows):
// each step of K reads one element of each row straight from the input.
// First row counts that the accumulator tiles divide (48, 96, 24: multiples
// of 8 and of 6), so the LHS pack pads nothing, then row counts they do not
// (100, 101, 50, 13); each with K and N dividing no tile, a transposed
// LHS (read along its rows), one LHS read by two contractions, and a batch.
// TOLERANCE: rtol=1e-5 atol=1e-4

// ENTRY: rows_48
// INPUT: 48x131xf32=random
// INPUT: 131x67xf32=random
func.func @rows_48(%a: tensor<48x131xf32>, %b: tensor<131x67xf32>) -> tensor<48x67xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x67xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<48x67xf32>) -> tensor<48x67xf32>
  %r = linalg.matmul ins(%a, %b : tensor<48x131xf32>, tensor<131x67xf32>) outs(%f : tensor<48x67xf32>) -> tensor<48x67xf32>
  return %r : tensor<48x67xf32>
}

// ENTRY: transposed_lhs
// INPUT: 97x96xf32=random
// INPUT: 97x53xf32=random
func.func @transposed_lhs(%at: tensor<97x96xf32>, %b: tensor<97x53xf32>) -> tensor<96x53xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x53xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x53xf32>) -> tensor<96x53xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %b : tensor<97x96xf32>, tensor<97x53xf32>) outs(%f : tensor<96x53xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<96x53xf32>
  return %r : tensor<96x53xf32>
}

// ENTRY: shared_lhs
// INPUT: 96x211xf32=random
// INPUT: 211x40xf32=random
// INPUT: 211x72xf32=random
func.func @shared_lhs(%a: tensor<96x211xf32>, %b: tensor<211x40xf32>, %c: tensor<211x72xf32>) -> (tensor<96x40xf32>, tensor<96x72xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<96x40xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<96x40xf32>) -> tensor<96x40xf32>
  %r1 = linalg.matmul ins(%a, %b : tensor<96x211xf32>, tensor<211x40xf32>) outs(%f1 : tensor<96x40xf32>) -> tensor<96x40xf32>
  %e2 = tensor.empty() : tensor<96x72xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<96x72xf32>) -> tensor<96x72xf32>
  %r2 = linalg.matmul ins(%a, %c : tensor<96x211xf32>, tensor<211x72xf32>) outs(%f2 : tensor<96x72xf32>) -> tensor<96x72xf32>
  return %r1, %r2 : tensor<96x40xf32>, tensor<96x72xf32>
}

// ENTRY: batch_rows_24
// INPUT: 5x24x173xf32=random
// INPUT: 5x173x37xf32=random
func.func @batch_rows_24(%a: tensor<5x24x173xf32>, %b: tensor<5x173x37xf32>) -> tensor<5x24x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x24x37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x24x37xf32>) -> tensor<5x24x37xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<5x24x173xf32>, tensor<5x173x37xf32>) outs(%f : tensor<5x24x37xf32>) -> tensor<5x24x37xf32>
  return %r : tensor<5x24x37xf32>
}

// Row counts the accumulator tiles do not divide: the pack pads, and each
// row past the input's end (in the last row tile) is read as its last row,
// making only rows the unpack drops.

// ENTRY: rows_100
// INPUT: 100x131xf32=random
// INPUT: 131x67xf32=random
func.func @rows_100(%a: tensor<100x131xf32>, %b: tensor<131x67xf32>) -> tensor<100x67xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x67xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x67xf32>) -> tensor<100x67xf32>
  %r = linalg.matmul ins(%a, %b : tensor<100x131xf32>, tensor<131x67xf32>) outs(%f : tensor<100x67xf32>) -> tensor<100x67xf32>
  return %r : tensor<100x67xf32>
}

// ENTRY: transposed_lhs_rows_101
// INPUT: 97x101xf32=random
// INPUT: 97x53xf32=random
func.func @transposed_lhs_rows_101(%at: tensor<97x101xf32>, %b: tensor<97x53xf32>) -> tensor<101x53xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<101x53xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<101x53xf32>) -> tensor<101x53xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %b : tensor<97x101xf32>, tensor<97x53xf32>) outs(%f : tensor<101x53xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<101x53xf32>
  return %r : tensor<101x53xf32>
}

// ENTRY: shared_lhs_rows_50
// INPUT: 50x211xf32=random
// INPUT: 211x40xf32=random
// INPUT: 211x72xf32=random
func.func @shared_lhs_rows_50(%a: tensor<50x211xf32>, %b: tensor<211x40xf32>, %c: tensor<211x72xf32>) -> (tensor<50x40xf32>, tensor<50x72xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<50x40xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<50x40xf32>) -> tensor<50x40xf32>
  %r1 = linalg.matmul ins(%a, %b : tensor<50x211xf32>, tensor<211x40xf32>) outs(%f1 : tensor<50x40xf32>) -> tensor<50x40xf32>
  %e2 = tensor.empty() : tensor<50x72xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<50x72xf32>) -> tensor<50x72xf32>
  %r2 = linalg.matmul ins(%a, %c : tensor<50x211xf32>, tensor<211x72xf32>) outs(%f2 : tensor<50x72xf32>) -> tensor<50x72xf32>
  return %r1, %r2 : tensor<50x40xf32>, tensor<50x72xf32>
}

// ENTRY: batch_rows_13
// INPUT: 5x13x173xf32=random
// INPUT: 5x173x37xf32=random
func.func @batch_rows_13(%a: tensor<5x13x173xf32>, %b: tensor<5x173x37xf32>) -> tensor<5x13x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x13x37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x13x37xf32>) -> tensor<5x13x37xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<5x13x173xf32>, tensor<5x173x37xf32>) outs(%f : tensor<5x13x37xf32>) -> tensor<5x13x37xf32>
  return %r : tensor<5x13x37xf32>
}
