// RUN: kiln-opt %s --split-input-file --verify-diagnostics

// Tests that a dispatch region yields what it declares.
func.func @region_types(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'kiln.dispatch.region' op terminator operand types do not match result types}}
  %0 = kiln.dispatch.region -> (tensor<8xf32>) {
    kiln.return %a : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}

// -----

// Tests that a dispatch region names each dynamic dimension of its results.
func.func @region_dims(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'kiln.dispatch.region' op has 0 result dims for 1 dynamic dimensions}}
  %0 = kiln.dispatch.region -> (tensor<?xf32>) {
    kiln.return %a : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a dispatch names each dynamic dimension of its results.
func.func @dispatch_dims(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{'kiln.dispatch' op has 0 result dims for 1 dynamic dimensions}}
  %0 = kiln.dispatch @ex::@unary(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a dispatch binds as many tensors as its export takes.
func.func @dispatch_bindings(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'kiln.dispatch' op has 3 bindings but export "unary" takes 2}}
  %0 = kiln.dispatch @ex::@unary(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that a dispatch's executable exists.
func.func @dispatch_unknown(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'kiln.dispatch' op refers to unknown executable "missing"}}
  %0 = kiln.dispatch @missing::@unary(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a dispatch's export exists in every variant.
func.func @dispatch_missing_export(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'kiln.dispatch' op refers to export "binary" missing from variant cpu}}
  %0 = kiln.dispatch @ex::@binary(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a dispatch passes the index constants its export takes.
func.func @dispatch_constants(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  // expected-error@+1 {{'kiln.dispatch' op passes 1 index constants but export "unary" takes 0}}
  %0 = kiln.dispatch @ex::@unary(%a) constants(%n) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that a binding names each dynamic dimension of its type.
func.func @binding_dims() {
  // expected-error@+1 {{'kiln.binding' op has 0 dynamic sizes for 1 dynamic dimensions}}
  %0 = kiln.binding 0 : memref<?xf32>
  return
}
