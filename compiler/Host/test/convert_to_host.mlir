// RUN: kiln-opt %s --split-input-file --kiln-convert-to-host --verify-diagnostics | FileCheck %s

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
    kiln.executable.export @split ordinal(1) bindings(3)
  }
}

// Tests that each dispatch result is written into new storage of its own,
// constants become host constants and the return a host return.
// CHECK-LABEL: func.func @dispatches(
//  CHECK-SAME:     %[[X:.+]]: tensor<4xf32>
//       CHECK:   %[[C:.+]] = host.constant dense<1.000000e+00> : tensor<4xf32>
//       CHECK:   %[[N0:.+]] = host.allocate
//       CHECK:   %[[A:.+]] = host.dispatch @ex::@unary(%[[X]]) into(%[[N0]]) : (tensor<4xf32>) -> tensor<4xf32>
//       CHECK:   %[[N1:.+]] = host.allocate
//       CHECK:   %[[N2:.+]] = host.allocate
//       CHECK:   %[[B:.+]]:2 = host.dispatch @ex::@split(%[[A]]) into(%[[N1]], %[[N2]])
//       CHECK:   host.return %[[B]]#1, %[[C]] : tensor<4xf32>, tensor<4xf32>
func.func @dispatches(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %a = kiln.dispatch @ex::@unary(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b:2 = kiln.dispatch @ex::@split(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %b#1, %c : tensor<4xf32>, tensor<4xf32>
}

// -----

// Tests that an uninitialized tensor reaching the host reads as zeros, and
// that scalar constants left unused go.
// CHECK-LABEL: func.func @empty(
//   CHECK-NOT:   arith.constant
//       CHECK:   %[[Z:.+]] = host.constant dense<0> : tensor<2x3xi32>
//       CHECK:   %[[F:.+]] = host.constant dense<0.000000e+00> : tensor<2xbf16>
//       CHECK:   host.return %[[Z]], %[[F]]
func.func @empty() -> (tensor<2x3xi32>, tensor<2xbf16>) {
  %unused = arith.constant 3.0 : f32
  %0 = tensor.empty() : tensor<2x3xi32>
  %1 = tensor.empty() : tensor<2xbf16>
  return %0, %1 : tensor<2x3xi32>, tensor<2xbf16>
}

// -----

// Tests that every kind of reshape views its source, and that a barrier's
// values pass through.
// CHECK-LABEL: func.func @views(
//  CHECK-SAME:     %[[X:.+]]: tensor<2x3xf32>
//       CHECK:   %[[A:.+]] = host.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
//       CHECK:   %[[B:.+]] = host.reshape %[[A]] : tensor<6xf32> -> tensor<3x2xf32>
//       CHECK:   %[[D:.+]] = host.reshape %[[B]] : tensor<3x2xf32> -> tensor<1x3x2xf32>
//   CHECK-NOT:   util.optimization_barrier
//       CHECK:   host.return %[[D]], %[[X]]
func.func @views(%x: tensor<2x3xf32>) -> (tensor<1x3x2xf32>, tensor<2x3xf32>) {
  %shape = arith.constant dense<[1, 3, 2]> : tensor<3xi64>
  %a = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %b = tensor.expand_shape %a [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  %d = tensor.reshape %b(%shape) : (tensor<3x2xf32>, tensor<3xi64>) -> tensor<1x3x2xf32>
  %y = util.optimization_barrier %x : tensor<2x3xf32>
  return %d, %y : tensor<1x3x2xf32>, tensor<2x3xf32>
}

// -----

// Tests that IREE's checks become host checks of their kind, tolerances
// kept.
// CHECK-LABEL: func.func @checks(
//  CHECK-SAME:     %[[I:[^:]+]]: tensor<i32>, %[[M:[^:]+]]: tensor<2xi8>, %[[F:[^:]+]]: tensor<2xf32>
//       CHECK:   host.check expect_true %[[I]] : tensor<i32>
//       CHECK:   host.check expect_false %[[I]] : tensor<i32>
//       CHECK:   host.check expect_all_true %[[M]] : tensor<2xi8>
//       CHECK:   host.check expect_eq %[[M]], %[[M]] : tensor<2xi8>, tensor<2xi8>
//       CHECK:   host.check expect_almost_eq %[[F]], %[[F]] {atol = 0.00999999977 : f32, rtol = 0.000000e+00 : f32} : tensor<2xf32>, tensor<2xf32>
func.func @checks(%i: tensor<i32>, %m: tensor<2xi8>, %f: tensor<2xf32>) {
  check.expect_true(%i) : tensor<i32>
  check.expect_false(%i) : tensor<i32>
  check.expect_all_true(%m) : tensor<2xi8>
  check.expect_eq(%m, %m) : tensor<2xi8>
  check.expect_almost_eq(%f, %f, atol 1.0e-2) : tensor<2xf32>
  return
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that scf.if becomes a branch on the 0-d tensor its condition was
// read from, both arms joining a block whose argument is the result.
// CHECK-LABEL: func.func @if(
//  CHECK-SAME:     %[[C:[^:]+]]: tensor<i1>, %[[X:[^:]+]]: tensor<4xf32>
//       CHECK:   host.cond_br %[[C]], ^[[THEN:.+]], ^[[ELSE:.+]]
//       CHECK: ^[[THEN]]:
//       CHECK:   %[[A:.+]] = host.dispatch @ex::@unary(%[[X]])
//       CHECK:   host.br ^[[JOIN:.+]](%[[A]] : tensor<4xf32>)
//       CHECK: ^[[ELSE]]:
//       CHECK:   host.br ^[[JOIN]](%[[X]] : tensor<4xf32>)
//       CHECK: ^[[JOIN]](%[[R:.+]]: tensor<4xf32>):
//       CHECK:   host.return %[[R]]
func.func @if(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.extract %c[] : tensor<i1>
  %r = scf.if %e -> tensor<4xf32> {
    %a = kiln.dispatch @ex::@unary(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @less ordinal(0) bindings(3)
    kiln.executable.export @step ordinal(1) bindings(3)
  }
}

// Tests that scf.while becomes a loop whose body and exit read the
// condition's values in place, and that a swap of loop-carried values goes
// through a view (a branch never passes its destination's own argument).
// CHECK-LABEL: func.func @while(
//  CHECK-SAME:     %[[A0:[^:]+]]: tensor<i32>, %[[B0:[^:]+]]: tensor<i32>
//       CHECK:   host.br ^[[BEFORE:.+]](%[[A0]], %[[B0]] : tensor<i32>, tensor<i32>)
//       CHECK: ^[[BEFORE]](%[[A:.+]]: tensor<i32>, %[[B:.+]]: tensor<i32>):
//       CHECK:   %[[C:.+]] = host.dispatch @ex::@less(%[[A]], %[[B]])
//       CHECK:   host.cond_br %[[C]], ^[[AFTER:.+]], ^[[EXIT:.+]]
//       CHECK: ^[[AFTER]]:
//       CHECK:   %[[S:.+]] = host.dispatch @ex::@step(%[[A]], %[[B]])
//       CHECK:   %[[V:.+]] = host.reshape %[[B]] : tensor<i32> -> tensor<i32>
//       CHECK:   host.br ^[[BEFORE]](%[[V]], %[[S]] : tensor<i32>, tensor<i32>)
//       CHECK: ^[[EXIT]]:
//       CHECK:   host.return %[[A]]
func.func @while(%a0: tensor<i32>, %b0: tensor<i32>) -> tensor<i32> {
  %r:2 = scf.while (%a = %a0, %b = %b0) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %c = kiln.dispatch @ex::@less(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %e = tensor.extract %c[] : tensor<i1>
    scf.condition(%e) %a, %b : tensor<i32>, tensor<i32>
  } do {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = kiln.dispatch @ex::@step(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    scf.yield %b, %s : tensor<i32>, tensor<i32>
  }
  return %r#0 : tensor<i32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @less ordinal(0) bindings(3)
    kiln.executable.export @unary ordinal(1) bindings(2)
  }
}

// Tests that control flow nests: an if inside a loop's body lowers into
// blocks of the loop.
// CHECK-LABEL: func.func @nested(
//       CHECK:   host.br ^[[BEFORE:.+]](
//       CHECK: ^[[BEFORE]](%[[V:.+]]: tensor<4xf32>):
//       CHECK:   host.cond_br %{{.+}}, ^[[AFTER:.+]], ^[[EXIT:.+]]
//       CHECK: ^[[AFTER]]:
//       CHECK:   host.cond_br %{{.+}}, ^[[THEN:.+]], ^[[ELSE:.+]]
//       CHECK: ^[[THEN]]:
//       CHECK:   host.dispatch @ex::@unary(%[[V]])
//       CHECK:   host.br ^[[JOIN:.+]](%
//       CHECK: ^[[ELSE]]:
//       CHECK:   host.br ^[[JOIN]](%[[V]] : tensor<4xf32>)
//       CHECK: ^[[JOIN]](%[[W:.+]]: tensor<4xf32>):
//       CHECK:   host.br ^[[BEFORE]](%[[W]] : tensor<4xf32>)
//       CHECK: ^[[EXIT]]:
//       CHECK:   host.return %[[V]]
func.func @nested(%n: tensor<i32>, %c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.while (%v = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %l = kiln.dispatch @ex::@less(%n, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %e = tensor.extract %l[] : tensor<i1>
    scf.condition(%e) %v : tensor<4xf32>
  } do {
  ^bb0(%v: tensor<4xf32>):
    %ec = tensor.extract %c[] : tensor<i1>
    %w = scf.if %ec -> tensor<4xf32> {
      %a = kiln.dispatch @ex::@unary(%v) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %a : tensor<4xf32>
    } else {
      scf.yield %v : tensor<4xf32>
    }
    scf.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that an op the host cannot run is an error naming it.
func.func @unsupported(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tensor.extract_slice' cannot run on the host}}
  %s = tensor.extract_slice %x[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %x : tensor<4xf32>
}

// -----

// Tests that a scalar constant the host would have to hold is an error.
func.func @scalar_constant() {
  // expected-error@+1 {{scalar constants cannot live on the host}}
  %c = arith.constant 1.0 : f32
  %t = tensor.from_elements %c : tensor<f32>
  return
}

// -----

// Tests that a tensor element read on the host for anything but a branch
// is an error.
func.func @extract(%x: tensor<f32>) {
  // expected-error@+1 {{a tensor element read on the host only decides control flow or is a size}}
  %e = tensor.extract %x[] : tensor<f32>
  %t = tensor.from_elements %e : tensor<f32>
  return
}

// -----

// Tests that an element read at a computed position is an error: the host
// reads sizes at constant positions.
func.func @extract_computed(%x: tensor<4xi64>, %i: index) -> index {
  // expected-error@+1 {{a tensor element read on the host only decides control flow or is a size}}
  %e = tensor.extract %x[%i] : tensor<4xi64>
  %n = arith.index_cast %e : i64 to index
  return %n : index
}

// -----

kiln.executable @sized {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @fill ordinal(0) bindings(1)
  }
}

// Tests that a size read from a tensor's elements becomes host.extract at
// the row-major element (zero-extended for index_castui) and sizes the
// dispatch's result.
// CHECK-LABEL: func.func @size_from_elements
//  CHECK-SAME:     (%[[S:.+]]: tensor<2x3xi32>)
//   CHECK-NOT:   tensor.extract
//       CHECK:   %[[N:.+]] = host.extract %[[S]][5] : tensor<2x3xi32>
//       CHECK:   %[[M:.+]] = host.extract %[[S]][1] unsigned : tensor<2x3xi32>
//       CHECK:   host.dispatch @sized::@fill() into(%{{.+}}) dims(%[[N]], %[[M]])
func.func @size_from_elements(%s: tensor<2x3xi32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %s[%c1, %c2] : tensor<2x3xi32>
  %n = arith.index_cast %e : i32 to index
  %u = tensor.extract %s[%c0, %c1] : tensor<2x3xi32>
  %m = arith.index_castui %u : i32 to index
  %r = kiln.dispatch @sized::@fill() dims(%n, %m) : () -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Tests that a branch condition not read from a 0-d tensor<i1> is an error.
func.func @condition(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{a host branch condition must be read from a 0-d tensor<i1>}}
  %r = scf.if %c -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Tests that host values are ranked tensors or indices.
// expected-error@+1 {{host value of type 'tensor<*xf32>' is not a ranked tensor or an index}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

// -----

// Tests that a reshape to a shape held in a tensor is refused: the host
// computes shapes from dimensions.
func.func @reshape_by_tensor(%x: tensor<?xf32>, %shape: tensor<2xindex>) -> tensor<?x?xf32> {
  // expected-error@+1 {{a reshape to a shape computed in a tensor cannot run on the host}}
  %0 = tensor.reshape %x(%shape) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

kiln.executable @dyn {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a dimension read on the host becomes host.dim, a dispatch's
// result dims pass through, a collapse to a dynamic shape takes the product
// of the dims it joins, and index constants nothing reads any more go.
// CHECK-LABEL: func.func @dynamic
//  CHECK-SAME:     (%[[X:.+]]: tensor<?x4xf32>)
//   CHECK-NOT:   arith.constant 0 : index
//       CHECK:   %[[N:.+]] = host.dim %[[X]], 0 : tensor<?x4xf32>
//       CHECK:   %[[NEW:.+]] = host.allocate
//       CHECK:   %[[R:.+]] = host.dispatch @dyn::@unary(%[[X]]) into(%[[NEW]]) dims(%[[N]])
//       CHECK:   %[[N2:.+]] = host.dim %[[R]], 0 : tensor<?x4xf32>
//       CHECK:   %[[C4:.+]] = arith.constant 4 : index
//       CHECK:   %[[P:.+]] = arith.muli %[[N2]], %[[C4]] : index
//       CHECK:   %[[F:.+]] = host.reshape %[[R]] dims(%[[P]]) : tensor<?x4xf32> -> tensor<?xf32>
//       CHECK:   host.return %[[F]]
func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %r = kiln.dispatch @dyn::@unary(%x) dims(%n) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %f = tensor.collapse_shape %r [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  return %f : tensor<?xf32>
}

// -----

kiln.executable @idx {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @fill ordinal(0) bindings(1) {index_constants = 1 : index}
  }
}

// Tests that an index constant behind a barrier reaches the dispatch that
// reads it, and that a reified size (affine.apply) becomes the index
// arithmetic of the host: ceildiv, and mod as a - b * floordiv(a, b).
// CHECK-LABEL: func.func @index_constants
//       CHECK:   %[[W:.+]] = arith.constant 7 : index
//       CHECK:   %[[C16:.+]] = arith.constant 16 : index
//       CHECK:   %[[T:.+]] = arith.ceildivsi %[[W]], %[[C16]] : index
//       CHECK:   %[[D:.+]] = arith.constant 16 : index
//       CHECK:   %[[Q:.+]] = arith.floordivsi %[[W]], %[[D]] : index
//       CHECK:   %[[P:.+]] = arith.muli %[[D]], %[[Q]] : index
//       CHECK:   %[[M:.+]] = arith.subi %[[W]], %[[P]] : index
//       CHECK:   %[[S:.+]] = arith.addi %[[T]], %[[M]] : index
//       CHECK:   host.dispatch @idx::@fill() constants(%[[W]]) into(%{{.+}}) dims(%[[S]])
func.func @index_constants() -> tensor<?xf32> {
  %c7 = arith.constant 7 : index
  %w = util.optimization_barrier %c7 : index
  %n = affine.apply affine_map<()[s0] -> (s0 ceildiv 16 + s0 mod 16)>()[%w]
  %r = kiln.dispatch @idx::@fill() constants(%w) dims(%n) : () -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

kiln.executable @idx {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @fill ordinal(0) bindings(1) {index_constants = 1 : index}
  }
}

// Tests that a dispatch passes the index constants its export takes.
func.func @missing_index_constant(%n: index) -> tensor<?xf32> {
  // expected-error@+1 {{'kiln.dispatch' op passes 0 index constants but export "fill" takes 1}}
  %r = kiln.dispatch @idx::@fill() dims(%n) : () -> tensor<?xf32>
  return %r : tensor<?xf32>
}
