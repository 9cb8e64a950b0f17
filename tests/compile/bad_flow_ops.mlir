// RUN: kiln-opt %s --split-input-file --verify-diagnostics

// Tests that IREE's flow test ops are verified.
func.func @wrong_constant_type() {
  // expected-error @below {{'flow.tensor.dynamic_constant' op result type 'tensor<?x3xi32>' does not match the value's type 'tensor<2x2xi32>'}}
  %0 = flow.tensor.dynamic_constant dense<1> : tensor<2x2xi32> -> tensor<?x3xi32>
  return
}

// -----

func.func @wrong_dim_count(%t: tensor<?x?xi32>, %n: index) {
  // expected-error @below {{'flow.tensor.tie_shape' op expects 2 dynamic dimensions for 'tensor<?x?xi32>', got 1}}
  %0 = flow.tensor.tie_shape %t : tensor<?x?xi32>{%n}
  return
}
