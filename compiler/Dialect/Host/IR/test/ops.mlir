// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// Tests that every host op prints as it parses.

kiln.executable @ex {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {triple = "x86_64-unknown-linux-gnu", cpu = "x86-64", features = ""} {
    kiln.executable.export @split ordinal(0) bindings(3)
  }
}

// CHECK-LABEL: func.func @program(
//       CHECK:   %[[B:.+]] = host.buffer 64
//       CHECK:   %[[C:.+]] = host.constant dense<1.000000e+00> : tensor<16xf32>
//       CHECK:   %[[N:.+]] = host.allocate
//       CHECK:   %[[R:.+]]:2 = host.dispatch @ex::@split(%[[C]]) into(%[[B]], %[[N]]) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
//       CHECK:   %[[V:.+]] = host.reshape %[[R]]#0 : tensor<16xf32> -> tensor<4x4xf32>
//       CHECK:   host.check expect_almost_eq %[[R]]#0, %[[R]]#1 {atol = 1.000000e+00 : f32} : tensor<16xf32>, tensor<16xf32>
//       CHECK:   host.check expect_true %{{.+}} : tensor<i1>
//       CHECK:   host.cond_br %{{.+}}, ^[[A:.+]], ^[[Z:.+]]
//       CHECK: ^[[A]]:
//       CHECK:   host.br ^[[Z]]
//       CHECK: ^[[Z]]:
//       CHECK:   host.return %[[R]]#1, %[[V]] : tensor<16xf32>, tensor<4x4xf32>
func.func @program(%c: tensor<i1>) -> (tensor<16xf32>, tensor<4x4xf32>) {
  %b = host.buffer 64
  %c1 = host.constant dense<1.0> : tensor<16xf32>
  %n = host.allocate
  %r:2 = host.dispatch @ex::@split(%c1) into(%b, %n) : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  %v = host.reshape %r#0 : tensor<16xf32> -> tensor<4x4xf32>
  host.check expect_almost_eq %r#0, %r#1 {atol = 1.0 : f32} : tensor<16xf32>, tensor<16xf32>
  host.check expect_true %c : tensor<i1>
  host.cond_br %c, ^a, ^z
^a:
  host.br ^z
^z:
  host.return %r#1, %v : tensor<16xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @sizes
//       CHECK:   %{{.+}} = host.extract %arg0[3] : tensor<2x2xi32>
//       CHECK:   %{{.+}} = host.extract %arg0[0] unsigned : tensor<2x2xi32>
func.func @sizes(%s: tensor<2x2xi32>) -> (index, index) {
  %a = host.extract %s[3] : tensor<2x2xi32>
  %b = host.extract %s[0] unsigned : tensor<2x2xi32>
  return %a, %b : index, index
}
