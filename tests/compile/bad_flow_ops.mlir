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

// -----

func.func @bitcast_bits(%t: tensor<4xi8>) {
  // expected-error @below {{'flow.tensor.bitcast' op source 'tensor<4xi8>' and result 'tensor<4xf4E2M1FN>' do not hold the same number of bits}}
  %0 = flow.tensor.bitcast %t : tensor<4xi8> -> tensor<4xf4E2M1FN>
  return
}

// -----

func.func @bitcast_dims(%t: tensor<?xi8>) {
  // expected-error @below {{'flow.tensor.bitcast' op expects one index operand per dynamic dimension of 'tensor<?xi8>' and 'tensor<?xi8>'}}
  %0 = flow.tensor.bitcast %t : tensor<?xi8> -> tensor<?xi8>
  return
}
