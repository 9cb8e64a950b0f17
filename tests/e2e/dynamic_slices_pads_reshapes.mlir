// RUN: %e2e %s -o %t
// Slices, inserts, pads and reshapes whose sizes and offsets the program
// computes from the sizes it is called with: the last n / 2 rows of ?x8
// squared (an elementwise op over a computed slice), the rows of a ?x8
// written over another's from row n / 3, a pad of n / 2 rows before and
// 1 after with columns padded 3 / 2, and ?x8 reshaped to ?x2x4 and back
// to ?x8 through a transposition; each at 1, 7 (prime) and 1000 rows;
// then the row sums and a matmul of the last n / 2 rows (a reduction and a
// contraction over a computed slice) at 7 and 1000 rows.
// ENTRY: second_half
// INPUT: 1x8xf32=random
// ENTRY: second_half
// INPUT: 7x8xf32=random
// ENTRY: second_half
// INPUT: 1000x8xf32=random
// ENTRY: overwrite
// INPUT: 1x8xf32=random
// INPUT: 1x8xf32=random
// ENTRY: overwrite
// INPUT: 7x8xf32=random
// INPUT: 4x8xf32=random
// ENTRY: overwrite
// INPUT: 1000x8xf32=random
// INPUT: 667x8xf32=random
// ENTRY: pad_rows
// INPUT: 1x8xf32=random
// ENTRY: pad_rows
// INPUT: 7x8xf32=random
// ENTRY: pad_rows
// INPUT: 1000x8xf32=random
// ENTRY: reshape_transpose
// INPUT: 1x8xf32=random
// ENTRY: reshape_transpose
// INPUT: 7x8xf32=random
// ENTRY: reshape_transpose
// INPUT: 1000x8xf32=random
// ENTRY: row_sums
// INPUT: 7x8xf32=random
// ENTRY: row_sums
// INPUT: 1000x8xf32=random
// ENTRY: matmul_rows
// INPUT: 7x64xf32=random
// INPUT: 64x32xf32=random
// ENTRY: matmul_rows
// INPUT: 1000x64xf32=random
// INPUT: 64x32xf32=random

func.func @second_half(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %s = arith.divui %n, %c2 : index
  %o = arith.subi %n, %s : index
  %r = tensor.extract_slice %x[%o, 0] [%s, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
  %e = tensor.empty(%s) : tensor<?x8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%v: f32, %out: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<?x8xf32>
  return %d : tensor<?x8xf32>
}

// %y has at most n - n / 3 rows.
func.func @overwrite(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %m = tensor.dim %y, %c0 : tensor<?x8xf32>
  %o = arith.divui %n, %c3 : index
  %r = tensor.insert_slice %y into %x[%o, 0] [%m, 8] [1, 1] : tensor<?x8xf32> into tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

func.func @pad_rows(%x: tensor<?x8xf32>) -> tensor<?x13xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %h = arith.divui %n, %c2 : index
  %v = arith.constant -1.5 : f32
  %p = tensor.pad %x low[%h, 3] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x8xf32> to tensor<?x13xf32>
  return %p : tensor<?x13xf32>
}

func.func @reshape_transpose(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %x3 = tensor.expand_shape %x [[0], [1, 2]] output_shape [%n, 2, 4] : tensor<?x8xf32> into tensor<?x2x4xf32>
  %e = tensor.empty(%n) : tensor<?x4x2xf32>
  %t = linalg.transpose ins(%x3 : tensor<?x2x4xf32>) outs(%e : tensor<?x4x2xf32>) permutation = [0, 2, 1]
  %r = tensor.collapse_shape %t [[0], [1, 2]] : tensor<?x4x2xf32> into tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

func.func @row_sums(%x: tensor<?x8xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %s = arith.divui %n, %c2 : index
  %o = arith.subi %n, %s : index
  %slice = tensor.extract_slice %x[%o, 0] [%s, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%s) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%slice : tensor<?x8xf32>) outs(%z : tensor<?xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %sum = arith.addf %a, %b : f32
      linalg.yield %sum : f32
    }
  return %r : tensor<?xf32>
}

func.func @matmul_rows(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %s = arith.divui %n, %c2 : index
  %o = arith.subi %n, %s : index
  %slice = tensor.extract_slice %x[%o, 0] [%s, 64] [1, 1] : tensor<?x64xf32> to tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%s) : tensor<?x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %r = linalg.matmul ins(%slice, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%z : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}
