// RUN: kiln-opt %s --split-input-file --kiln-plan-buffers | FileCheck %s

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
  }
}

// Tests that a chain of dispatches alternates between two buffers (a
// dispatch never writes the buffer its operand is in) and that the result
// the function returns stays in new storage.
// CHECK-LABEL: func.func @chain(
//  CHECK-SAME:     %[[X:.+]]: tensor<64xf32>
//   CHECK-DAG:   %[[B0:.+]] = host.buffer 256
//   CHECK-DAG:   %[[B1:.+]] = host.buffer 256
//       CHECK:   %[[A:.+]] = host.dispatch @ex::@unary(%[[X]]) into(%[[B0]])
//       CHECK:   %[[B:.+]] = host.dispatch @ex::@unary(%[[A]]) into(%[[B1]])
//       CHECK:   %[[C:.+]] = host.dispatch @ex::@unary(%[[B]]) into(%[[B0]])
//       CHECK:   %[[N:.+]] = host.allocate
//       CHECK:   %[[D:.+]] = host.dispatch @ex::@unary(%[[C]]) into(%[[N]])
//       CHECK:   host.return %[[D]]
//   CHECK-NOT:   host.buffer
func.func @chain(%x: tensor<64xf32>) -> tensor<64xf32> {
  %n0 = host.allocate
  %a = host.dispatch @ex::@unary(%x) into(%n0) : (tensor<64xf32>) -> tensor<64xf32>
  %n1 = host.allocate
  %b = host.dispatch @ex::@unary(%a) into(%n1) : (tensor<64xf32>) -> tensor<64xf32>
  %n2 = host.allocate
  %c = host.dispatch @ex::@unary(%b) into(%n2) : (tensor<64xf32>) -> tensor<64xf32>
  %n3 = host.allocate
  %d = host.dispatch @ex::@unary(%c) into(%n3) : (tensor<64xf32>) -> tensor<64xf32>
  host.return %d : tensor<64xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
    kiln.executable.export @binary ordinal(1) bindings(3)
  }
}

// Tests that a value read later keeps its buffer until then, and that a
// view of a returned value makes it returned: %b is reshaped and returned,
// so it stays in new storage; %a is read by the last dispatch, so %c may not
// take its buffer.
// CHECK-LABEL: func.func @live_until_read(
//   CHECK-DAG:   %[[B0:.+]] = host.buffer 64
//   CHECK-DAG:   %[[B1:.+]] = host.buffer 64
//       CHECK:   %[[A:.+]] = host.dispatch @ex::@unary(%{{.+}}) into(%[[B0]])
//       CHECK:   %[[N:.+]] = host.allocate
//       CHECK:   %[[B:.+]] = host.dispatch @ex::@unary(%[[A]]) into(%[[N]])
//       CHECK:   %[[C:.+]] = host.dispatch @ex::@unary(%[[B]]) into(%[[B1]])
//       CHECK:   host.dispatch @ex::@binary(%[[A]], %[[C]]) into(%{{.+}})
func.func @live_until_read(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  %n0 = host.allocate
  %a = host.dispatch @ex::@unary(%x) into(%n0) : (tensor<16xf32>) -> tensor<16xf32>
  %n1 = host.allocate
  %b = host.dispatch @ex::@unary(%a) into(%n1) : (tensor<16xf32>) -> tensor<16xf32>
  %n2 = host.allocate
  %c = host.dispatch @ex::@unary(%b) into(%n2) : (tensor<16xf32>) -> tensor<16xf32>
  %n3 = host.allocate
  %d = host.dispatch @ex::@binary(%a, %c) into(%n3) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %v = host.reshape %b : tensor<16xf32> -> tensor<4x4xf32>
  host.return %d, %v : tensor<16xf32>, tensor<4x4xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @split ordinal(0) bindings(3)
    kiln.executable.export @unary ordinal(1) bindings(2)
    kiln.executable.export @binary ordinal(2) bindings(3)
  }
}

// Tests that two results of one dispatch never share a buffer, and that a
// result goes to the free buffer closest to its size: equal first (%d, 128
// bytes, into the first free 128-byte buffer), then the smallest larger one
// (%e, 64 bytes into the free 128-byte buffer rather than the 32-byte one),
// then the largest smaller one, which grows (%f, 256 bytes into the 128-byte
// buffer rather than the 32-byte one).
// CHECK-LABEL: func.func @sizes(
//   CHECK-DAG:   %[[B0:.+]] = host.buffer 256
//   CHECK-DAG:   %[[B1:.+]] = host.buffer 128
//   CHECK-DAG:   %[[B2:.+]] = host.buffer 32
//       CHECK:   %[[S:.+]]:2 = host.dispatch @ex::@split(%{{.+}}) into(%[[B0]], %[[B1]])
//       CHECK:   %[[C:.+]] = host.dispatch @ex::@binary(%[[S]]#0, %[[S]]#1) into(%[[B2]])
//       CHECK:   %[[D:.+]] = host.dispatch @ex::@unary(%[[C]]) into(%[[B0]])
//       CHECK:   %[[E:.+]] = host.dispatch @ex::@unary(%[[D]]) into(%[[B1]])
//       CHECK:   %[[F:.+]] = host.dispatch @ex::@unary(%[[E]]) into(%[[B0]])
func.func @sizes(%x: tensor<8xf32>) -> tensor<64xf32> {
  %n0 = host.allocate
  %n1 = host.allocate
  %s:2 = host.dispatch @ex::@split(%x) into(%n0, %n1) : (tensor<8xf32>) -> (tensor<32xf32>, tensor<32xf32>)
  %n2 = host.allocate
  %c = host.dispatch @ex::@binary(%s#0, %s#1) into(%n2) : (tensor<32xf32>, tensor<32xf32>) -> tensor<8xf32>
  %n3 = host.allocate
  %d = host.dispatch @ex::@unary(%c) into(%n3) : (tensor<8xf32>) -> tensor<32xf32>
  %n4 = host.allocate
  %e = host.dispatch @ex::@unary(%d) into(%n4) : (tensor<32xf32>) -> tensor<16xf32>
  %n5 = host.allocate
  %f = host.dispatch @ex::@unary(%e) into(%n5) : (tensor<16xf32>) -> tensor<64xf32>
  %n6 = host.allocate
  %g = host.dispatch @ex::@unary(%f) into(%n6) : (tensor<64xf32>) -> tensor<64xf32>
  host.return %g : tensor<64xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @unary ordinal(0) bindings(2)
    kiln.executable.export @binary ordinal(1) bindings(3)
  }
}

// Tests that the two arms of a branch share a buffer (only one runs), while
// a value from before the branch, read after it, keeps its own.
// CHECK-LABEL: func.func @arms(
//       CHECK:   %[[B0:.+]] = host.buffer 16
//       CHECK:   %[[B1:.+]] = host.buffer 16
//       CHECK:   %[[A:.+]] = host.dispatch @ex::@unary(%{{.+}}) into(%[[B0]])
//       CHECK:   host.cond_br
//       CHECK:   host.dispatch @ex::@unary(%{{.+}}) into(%[[B1]])
//       CHECK:   host.dispatch @ex::@unary(%{{.+}}) into(%[[B1]])
//       CHECK: ^{{.+}}(%[[J:.+]]: tensor<4xf32>):
//       CHECK:   host.dispatch @ex::@binary(%[[A]], %[[J]]) into(%{{.+}})
func.func @arms(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %n0 = host.allocate
  %a = host.dispatch @ex::@unary(%x) into(%n0) : (tensor<4xf32>) -> tensor<4xf32>
  host.cond_br %c, ^then, ^else
^then:
  %n1 = host.allocate
  %t = host.dispatch @ex::@unary(%x) into(%n1) : (tensor<4xf32>) -> tensor<4xf32>
  host.br ^join(%t : tensor<4xf32>)
^else:
  %n2 = host.allocate
  %e = host.dispatch @ex::@unary(%x) into(%n2) : (tensor<4xf32>) -> tensor<4xf32>
  host.br ^join(%e : tensor<4xf32>)
^join(%j: tensor<4xf32>):
  %n3 = host.allocate
  %r = host.dispatch @ex::@binary(%a, %j) into(%n3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  host.return %r : tensor<4xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @less ordinal(0) bindings(3)
    kiln.executable.export @unary ordinal(1) bindings(2)
    kiln.executable.export @binary ordinal(2) bindings(3)
  }
}

// Tests loops: the value carried around the loop (%next) keeps new storage,
// since the dispatch that writes it reads the value it replaces; the
// condition and a temporary of the body reuse one buffer each iteration; a
// value from before the loop that the loop reads (%k) and the value read
// after the loop keep theirs.
// CHECK-LABEL: func.func @loop(
//   CHECK-DAG:   %[[BK:.+]] = host.buffer 16
//   CHECK-DAG:   %[[BT:.+]] = host.buffer 16
//       CHECK:   %[[K:.+]] = host.dispatch @ex::@unary(%{{.+}}) into(%[[BK]])
//       CHECK: ^[[HEAD:.+]](%[[V:.+]]: tensor<4xf32>):
//       CHECK:   %[[C:.+]] = host.dispatch @ex::@less(%[[V]], %[[K]]) into(%[[BT]])
//       CHECK:   host.cond_br %[[C]]
//       CHECK:   %[[T:.+]] = host.dispatch @ex::@unary(%[[V]]) into(%[[BT]])
//       CHECK:   %[[N:.+]] = host.allocate
//       CHECK:   %[[NEXT:.+]] = host.dispatch @ex::@binary(%[[T]], %[[V]]) into(%[[N]])
//       CHECK:   host.br ^[[HEAD]](%[[NEXT]] : tensor<4xf32>)
//       CHECK:   %[[N2:.+]] = host.allocate
//       CHECK:   host.dispatch @ex::@unary(%[[V]]) into(%[[N2]])
func.func @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %n0 = host.allocate
  %k = host.dispatch @ex::@unary(%x) into(%n0) : (tensor<4xf32>) -> tensor<4xf32>
  host.br ^head(%x : tensor<4xf32>)
^head(%v: tensor<4xf32>):
  %n1 = host.allocate
  %c = host.dispatch @ex::@less(%v, %k) into(%n1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<i1>
  host.cond_br %c, ^body, ^exit
^body:
  %n2 = host.allocate
  %t = host.dispatch @ex::@unary(%v) into(%n2) : (tensor<4xf32>) -> tensor<4xf32>
  %n3 = host.allocate
  %next = host.dispatch @ex::@binary(%t, %v) into(%n3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  host.br ^head(%next : tensor<4xf32>)
^exit:
  %n4 = host.allocate
  %r = host.dispatch @ex::@unary(%v) into(%n4) : (tensor<4xf32>) -> tensor<4xf32>
  host.return %r : tensor<4xf32>
}

// -----

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @less ordinal(0) bindings(3)
    kiln.executable.export @unary ordinal(1) bindings(2)
  }
}

// Tests that a value written before a loop and read after it is live
// through the whole loop: nothing the loop writes shares its buffer.
// CHECK-LABEL: func.func @live_through_loop(
//   CHECK-DAG:   %[[BA:.+]] = host.buffer 16
//   CHECK-DAG:   %[[BC:.+]] = host.buffer 1
//       CHECK:   %[[A:.+]] = host.dispatch @ex::@unary(%{{.+}}) into(%[[BA]])
//       CHECK:   host.dispatch @ex::@less(%{{.+}}) into(%[[BC]])
//       CHECK:   host.allocate
//       CHECK:   host.dispatch @ex::@unary(%[[A]]) into(
func.func @live_through_loop(%x: tensor<4xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %n0 = host.allocate
  %a = host.dispatch @ex::@unary(%x) into(%n0) : (tensor<4xf32>) -> tensor<4xf32>
  host.br ^head
^head:
  %n1 = host.allocate
  %c = host.dispatch @ex::@less(%i, %i) into(%n1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<i1>
  host.cond_br %c, ^head, ^exit
^exit:
  %n2 = host.allocate
  %r = host.dispatch @ex::@unary(%a) into(%n2) : (tensor<4xf32>) -> tensor<4xf32>
  host.return %r : tensor<4xf32>
}
