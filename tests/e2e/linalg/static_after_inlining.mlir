// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// Shapes IREE's tests make dynamic (flow.tensor.dynamic_constant, helpers
// that take their sizes and tie their result to them) compile when they are
// known at compile time; helpers holding checks or taking scalars inline.

// CHECK: {{^}}dynamic_constant_matmul: PASS
// CHECK: {{^}}helper_with_sizes: PASS
// CHECK: {{^}}helper_with_check_and_scalar: PASS
// CHECK: 3 passed, 0 failed

func.func @dynamic_constant_matmul() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %lhs = flow.tensor.dynamic_constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32> -> tensor<?x?xf32>
  %rhs = flow.tensor.dynamic_constant dense<[[1.0, 0.0, 2.0], [0.0, 1.0, -1.0]]> : tensor<2x3xf32> -> tensor<?x3xf32>
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
  %r = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?x3xf32>) outs(%f : tensor<?x3xf32>) -> tensor<?x3xf32>
  %abs = math.absf %r : tensor<?x3xf32>
  %expected = flow.tensor.dynamic_constant dense<[[1.0, 2.0, 0.0], [3.0, 4.0, 2.0], [5.0, 6.0, 4.0]]> : tensor<3x3xf32> -> tensor<?x?xf32>
  %cast = tensor.cast %abs : tensor<?x3xf32> to tensor<?x?xf32>
  check.expect_almost_eq(%cast, %expected) : tensor<?x?xf32>
  return
}

func.func private @iota(%rows: index, %cols: index) -> tensor<?x?xi32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %row = arith.muli %i, %cols : index
    %k = arith.addi %row, %j : index
    %v = arith.index_cast %k : index to i32
    linalg.yield %v : i32
  } -> tensor<?x?xi32>
  %b = util.optimization_barrier %g : tensor<?x?xi32>
  %t = flow.tensor.tie_shape %b : tensor<?x?xi32>{%rows, %cols}
  return %t : tensor<?x?xi32>
}

func.func @helper_with_sizes() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = call @iota(%c2, %c3) : (index, index) -> tensor<?x?xi32>
  %1 = tensor.cast %0 : tensor<?x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%1, dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}

func.func private @check_scaled(%x: tensor<4xi32>, %scale: i32, %expected: tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%in: i32, %out: i32):
    %m = arith.muli %in, %scale : i32
    linalg.yield %m : i32
  } -> tensor<4xi32>
  check.expect_eq(%s, %expected) : tensor<4xi32>
  return
}

func.func @helper_with_check_and_scalar() {
  %x = util.unfoldable_constant dense<[1, -2, 3, 4]> : tensor<4xi32>
  %c3 = arith.constant 3 : i32
  %expected = arith.constant dense<[3, -6, 9, 12]> : tensor<4xi32>
  call @check_scaled(%x, %c3, %expected) : (tensor<4xi32>, i32, tensor<4xi32>) -> ()
  return
}
