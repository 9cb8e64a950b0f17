// RUN: kiln-compile %s --split-input-file --verify-diagnostics

// Tests that an element type kiln cannot store is a clear error at its
// location (the function's and the argument's), not a crash.
// expected-error@below {{public function 'main' argument 0 has type 'tensor<4xcomplex<f32>>';}}
// expected-error@below {{public function 'main' result 0 has type 'tensor<4xcomplex<f32>>';}}
// expected-error@below {{unsupported element type 'complex<f32>' in 'tensor<4xcomplex<f32>>'}}
func.func @main(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}

// -----

// Tests that a program on buffers instead of tensors is a clear error at its
// location, not a crash.
// expected-error@below {{public function 'main' argument 0 has type 'memref<4xf32>'; kiln}}
// expected-error@below {{public function 'main' argument 1 has type 'memref<4xf32>'; kiln}}
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
  linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// -----

// Tests that a public function returning a scalar is a clear error at its
// location, not a crash.
// expected-error@+1 {{public function 'main' result 0 has type 'f32'; kiln functions take}}
func.func @main(%a: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %a[%c0] : tensor<4xf32>
  return %v : f32
}

// -----

// Tests that an unranked tensor argument is a clear error at its location
// (the function's and the argument's), not a crash.
// expected-error@below {{public function 'main' argument 0 has type 'tensor<*xf32>'; kiln}}
// expected-error@below {{public function 'main' result 0 has type 'tensor<*xf32>'; kiln}}
// expected-error@below {{unranked types are not supported: 'tensor<*xf32>'}}
func.func @main(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
