// RUN: kiln-compile %s --split-input-file --verify-diagnostics
// A failed compilation writes no module:
// RUN: rm -f %t.kiln && not kiln-compile %s -o %t.kiln 2> /dev/null
// RUN: not test -e %t.kiln

// Tests that a syntax error is reported at its line.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{expected '>'}}
  return %0 : tensor<4xf32
}

// -----

// Tests that an op of a dialect kiln does not know is a clear error at its
// location, not a crash.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'foo.bar' is not an op kiln compiles: its dialect 'foo' is not one kiln reads}}
  %r = "foo.bar"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that an unsupported op is named, at its location.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c = arith.constant 1.0 : f32
  // expected-error@+1 {{unsupported op 'tensor.generate'; kiln compiles func, linalg, arith,}}
  %0 = tensor.generate {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that an op whose operand shapes disagree is a clear error at its
// location, not a crash.
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error@+1 {{'linalg.matmul' op inferred input/output operand #1 has shape's}}
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

// Tests that a call to a function that does not exist is a clear error at
// its location, not a crash.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'func.call' op 'missing' does not reference a valid}}
  %r = func.call @missing(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that a call the inliner cannot remove (recursion) is a clear error
// at its location, not a crash.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'func.call' cannot run on the host}}
  %r = func.call @main(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Tests that a host read at a computed position is a clear error at its
// location, not a crash.
func.func @main(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %ii = tensor.extract %i[] : tensor<i32>
  %idx = arith.index_cast %ii : i32 to index
  // expected-error@+1 {{reading a tensor element at a computed position on the host is not}}
  %v = tensor.extract %a[%idx] : tensor<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// Tests that a linalg op whose operands disagree on a loop's size, which
// upstream MLIR accepts, is an error at the op: the generated code would
// size the loop by one operand and write past the end of another.
func.func @main(%a: tensor<6x10xf32>, %b: tensor<16x10xf32>) -> tensor<0x16xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<0x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<0x16xf32>) -> tensor<0x16xf32>
  // expected-error@+1 {{operand 2 has size 0 in dimension 0, but loop d0 runs 6 times (operand 0)}}
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<6x10xf32>, tensor<16x10xf32>) outs(%acc : tensor<0x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<0x16xf32>
  return %r : tensor<0x16xf32>
}

// -----

// Tests that a softmax over integers, which upstream MLIR verifies but
// cannot decompose, is an error at its op rather than a crash.
func.func @main(%x: tensor<7x5xi16>) -> tensor<7x5xi16> {
  %e = tensor.empty() : tensor<7x5xi16>
  // expected-error@+1 {{linalg.softmax needs a floating-point element type, got 'i16'}}
  %r = linalg.softmax dimension(0) ins(%x : tensor<7x5xi16>) outs(%e : tensor<7x5xi16>) -> tensor<7x5xi16>
  return %r : tensor<7x5xi16>
}

// -----

// Tests that a constant too large for a module (no allocation is attempted)
// is a clear error at its location, not a crash.
func.func @main() -> tensor<100000000000xf32> {
  // expected-error@+1 {{constant of type 'tensor<100000000000xf32>' holds more than}}
  %c = arith.constant dense<1.0> : tensor<100000000000xf32>
  return %c : tensor<100000000000xf32>
}

// -----

// Tests that tensors beyond what the runtime holds (1 TiB) are an error at
// their op when compiling, not only when the module loads.
// expected-error@+1 {{'tensor<100000x100000x100000xf32>' needs more than 1 TiB, the most a kiln tensor holds}}
func.func @broadcast(%x: tensor<f32>) -> tensor<100000x100000x100000xf32> {
  // expected-error@+1 {{'tensor<100000x100000x100000xf32>' needs more than 1 TiB, the most a kiln tensor holds}}
  %e = tensor.empty() : tensor<100000x100000x100000xf32>
  // expected-error@+1 {{'tensor<100000x100000x100000xf32>' needs more than 1 TiB}}
  %b = linalg.broadcast ins(%x : tensor<f32>) outs(%e : tensor<100000x100000x100000xf32>) dimensions = [0, 1, 2]
  return %b : tensor<100000x100000x100000xf32>
}

// -----

// Tests that dimensions whose product overflows 64 bits are such an error.
// expected-error@+1 {{'tensor<9223372036854775807x4xi8>' needs more than 1 TiB, the most a kiln tensor holds}}
func.func @overflow(%x: tensor<i8>) -> tensor<9223372036854775807x4xi8> {
  // expected-error@+1 {{'tensor<9223372036854775807x4xi8>' needs more than 1 TiB}}
  %e = tensor.empty() : tensor<9223372036854775807x4xi8>
  // expected-error@+1 {{'tensor<9223372036854775807x4xi8>' needs more than 1 TiB, the most a kiln tensor holds}}
  %b = linalg.broadcast ins(%x : tensor<i8>) outs(%e : tensor<9223372036854775807x4xi8>) dimensions = [0, 1]
  return %b : tensor<9223372036854775807x4xi8>
}
