// RUN: kiln-opt %s --split-input-file --verify-diagnostics --kiln-verify-tosa-input

// Tests that the TOSA ops kiln cannot compile are errors at their own line.
func.func @scatter(%values: tensor<1x4x2xf32>, %indices: tensor<1x2xi32>, %input: tensor<1x2x2xf32>) -> tensor<1x4x2xf32> {
  // expected-error @+1 {{'tosa.scatter' is not supported: its conversion reads and writes tensor elements at computed positions on the host}}
  %0 = tosa.scatter %values, %indices, %input : (tensor<1x4x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @custom(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.custom' is not supported: a custom op has no lowering}}
  %0 = tosa.custom %x {domain_name = "vendor", implementation_attrs = "", operator_name = "op"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that the ops kiln compiles pass untouched.
func.func @add(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that an op whose element types no TOSA profile allows (upstream
// lowers it all the same) is a warning naming what the validation found.
func.func @clamp_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-warning @+1 {{'tosa.clamp' leaves the target's TOSA profiles: operation operand/result data types did not align with any profile or extension, got (i32,i32)}}
  %0 = tosa.clamp %x {min_val = 0 : i32, max_val = 10 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Tests that a table the program computes (the specification wants a
// constant; upstream lowers it all the same) is a warning.
func.func @computed_table(%x: tensor<6xi8>, %t: tensor<256xi8>) -> tensor<6xi8> {
  // expected-warning @+1 {{'tosa.table' op expected compile time resolvable constant, but got variable value for operand #1 (compiled as upstream lowers it; --tosa-validation=strict refuses it)}}
  %0 = tosa.table %x, %t : (tensor<6xi8>, tensor<256xi8>) -> tensor<6xi8>
  return %0 : tensor<6xi8>
}
