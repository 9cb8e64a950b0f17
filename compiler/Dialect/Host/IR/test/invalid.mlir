// RUN: kiln-opt %s --split-input-file --verify-diagnostics

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
    kiln.executable.export @split ordinal(1) bindings(3)
  }
}

// Tests that a buffer must hold the result written into it.
func.func @small_buffer(%x: tensor<16xf32>) -> tensor<16xf32> {
  %b = host.buffer 63
  // expected-error@+1 {{writes result 0 ('tensor<16xf32>', 64 bytes) into a buffer of 63 bytes}}
  %r = host.dispatch @ex::@unary(%x) into(%b) : (tensor<16xf32>) -> tensor<16xf32>
  host.return %x : tensor<16xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @split ordinal(0) bindings(3)
  }
}

// Tests that two results of a dispatch never share a buffer.
func.func @shared_buffer(%x: tensor<4xf32>) {
  %b = host.buffer 16
  // expected-error@+1 {{writes results 0 and 1 into one buffer}}
  %r:2 = host.dispatch @ex::@split(%x) into(%b, %b) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  host.return
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @split ordinal(0) bindings(3)
  }
}

// Tests that every result has a buffer.
func.func @missing_buffer(%x: tensor<4xf32>) {
  %b = host.buffer 16
  // expected-error@+1 {{has 2 results but 1 buffers to write them into}}
  %r:2 = host.dispatch @ex::@split(%x) into(%b) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  host.return
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a dispatch's bindings are its export's.
func.func @bindings(%x: tensor<4xf32>) {
  %n0 = host.allocate
  %n1 = host.allocate
  // expected-error@+1 {{has 3 bindings but export "unary" takes 2}}
  %r:2 = host.dispatch @ex::@unary(%x) into(%n0, %n1) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  host.return
}

// -----

// Tests that new storage belongs to one dispatch result.
func.func @unused_allocate() {
  // expected-error@+1 {{must be written into by exactly one host.dispatch}}
  %n = host.allocate
  host.return
}

// -----

// Tests that planned buffers are made on entry.
func.func @buffer_in_loop(%c: tensor<i1>) {
  host.br ^loop
^loop:
  // expected-error@+1 {{must be in the entry block of a function}}
  %b = host.buffer 4
  host.cond_br %c, ^loop, ^exit
^exit:
  host.return
}

// -----

// Tests that a reshape keeps the element type and count.
func.func @reshape(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{views 'tensor<4xf32>' as 'tensor<5xf32>': the element type and count must not change}}
  %v = host.reshape %x : tensor<4xf32> -> tensor<5xf32>
  host.return %v : tensor<5xf32>
}

// -----

// Tests that a branch never passes its destination its own argument (the
// views are made one after the other).
func.func @swap(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i1>) {
  host.br ^loop(%a, %b : tensor<i32>, tensor<i32>)
^loop(%x: tensor<i32>, %y: tensor<i32>):
  host.cond_br %c, ^swap, ^exit
^swap:
  // expected-error@+1 {{passes argument 1 of its destination to it: view it with host.reshape first}}
  host.br ^loop(%y, %x : tensor<i32>, tensor<i32>)
^exit:
  host.return
}

// -----

// Tests that a conditional branch passes no values.
func.func @cond_br_arguments(%c: tensor<i1>, %x: tensor<i32>) {
  // expected-error@+1 {{branch has 0 operands for successor #1, but target block has 1}}
  host.cond_br %c, ^a, ^b
^a:
  host.return
^b(%y: tensor<i32>):
  host.return
}

// -----

// Tests checks: the operands their kind takes.
func.func @checks(%f: tensor<4xf32>, %i: tensor<4xi32>) {
  // expected-error@+1 {{expect_eq compares two values}}
  host.check expect_eq %f : tensor<4xf32>
  host.return
}

// -----

func.func @checks(%f: tensor<4xf32>) {
  // expected-error@+1 {{expects a 0-d integer tensor}}
  host.check expect_true %f : tensor<4xf32>
  host.return
}

// -----

func.func @checks(%i: tensor<4xi32>) {
  // expected-error@+1 {{expects float tensors}}
  host.check expect_almost_eq %i, %i : tensor<4xi32>, tensor<4xi32>
  host.return
}

// -----

func.func @checks(%i: tensor<4xi32>) {
  // expected-error@+1 {{only expect_almost_eq has tolerances}}
  host.check expect_eq %i, %i {atol = 1.0 : f32} : tensor<4xi32>, tensor<4xi32>
  host.return
}

// -----

func.func @checks(%f: tensor<4xf32>) {
  // expected-error@+1 {{tolerances must be finite and not negative}}
  host.check expect_almost_eq %f, %f {rtol = -1.0 : f32} : tensor<4xf32>, tensor<4xf32>
  host.return
}

// -----

// Tests that the return matches the function's results.
func.func @return(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error@+1 {{returns 1 values of types 'tensor<4xf32>' from a function of results 'tensor<4xi32>'}}
  host.return %x : tensor<4xf32>
}

// -----

// Tests that a buffer's size is not negative.
func.func @negative_size() {
  // expected-error@+1 {{'host.buffer' op attribute 'size' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %b = host.buffer -1
  host.return
}

// -----

// Tests that an element read stays inside its tensor.
func.func @extract_out_of_range(%s: tensor<2x2xi64>) -> index {
  // expected-error@+1 {{reads element 4 of a value of 4 elements}}
  %n = host.extract %s[4] : tensor<2x2xi64>
  return %n : index
}

// -----

// Tests that an element is read from a tensor of static shape.
func.func @extract_dynamic(%s: tensor<?xi64>) -> index {
  // expected-error@+1 {{reads an element of a value of dynamic shape 'tensor<?xi64>'}}
  %n = host.extract %s[0] : tensor<?xi64>
  return %n : index
}
