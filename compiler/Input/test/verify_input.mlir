// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-verify-input

// Tests that dynamic shapes pass: their sizes are checked as the program
// runs. The dimension read at a constant index is no unsupported op.
func.func @dim_of_dynamic_argument(%a: tensor<?x?xi64>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %0 = tensor.dim %a, %c0 : tensor<?x?xi64>
  %1 = tensor.empty(%0) : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// Tests that a tensor.dim at a computed index is refused.
func.func @dim_at_computed_index(%a: tensor<2x3xf32>, %i: tensor<i64>) -> tensor<i64> {
  %e = tensor.extract %i[] : tensor<i64>
  %k = arith.index_cast %e : i64 to index
  // expected-error@+1 {{unsupported op 'tensor.dim'}}
  %d = tensor.dim %a, %k : tensor<2x3xf32>
  %n = arith.index_cast %d : index to i64
  %r = tensor.from_elements %n : tensor<i64>
  return %r : tensor<i64>
}

// -----

// Tests that ops outside the supported dialects are named in the error.
func.func @unsupported(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unsupported op 'tensor.generate'}}
  %0 = tensor.generate {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that public functions must take tensors.
// expected-error@+1 {{public function 'scalar' argument 0 has type 'f32'}}
func.func @scalar(%a: f32) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that unsupported element types are reported.
func.func @complex(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unsupported element type 'complex<f32>'}}
  %0 = tensor.empty() : tensor<4xcomplex<f32>>
  return %a : tensor<4xf32>
}

// -----

// Tests that a declaration without body is rejected.
// expected-error@+1 {{function 'external' has no body}}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// -----

// Tests that a supported program passes unchanged.
func.func @fine(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %2 = tensor.collapse_shape %1 [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Tests that a tensor of more dimensions than the runtime holds is refused
// where it appears.
func.func @rank_65(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{has rank 65; a kiln tensor has at most 64 dimensions}}
  %0 = tensor.empty() : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>
  return %a : tensor<4xf32>
}

// -----

// Tests that a public function needs a name the runtime can call.
// expected-error@+1 {{public function names must be non-empty and hold no NUL character}}
func.func @"" (%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error@+1 {{public function names must be non-empty and hold no NUL character}}
func.func @"ma\00in" (%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// Tests that the floats of at most 8 bits are taken in public signatures
// and programs, and that other small float types are reported.
func.func @small_floats(%a: tensor<4xf8E5M2>, %b: tensor<4xf8E4M3FN>,
                        %c: tensor<4xf8E5M2FNUZ>, %d: tensor<4xf8E4M3FNUZ>,
                        %e: tensor<4xf8E8M0FNU>, %f: tensor<4xf4E2M1FN>)
    -> tensor<4xf4E2M1FN> {
  // expected-error@+1 {{unsupported element type 'f8E4M3' in 'tensor<4xf8E4M3>'}}
  %0 = tensor.empty() : tensor<4xf8E4M3>
  return %f : tensor<4xf4E2M1FN>
}
