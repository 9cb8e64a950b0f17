// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// linalg.softmax, reductions (linalg.reduce and reduction linalg.generic,
// argmax with two outputs) and an elementwise generic.

// CHECK: {{^}}softmax_f32: PASS
// CHECK: {{^}}softmax_dim0_f32: PASS
// CHECK: {{^}}argmax_generic_two_outputs: PASS
// CHECK: {{^}}reduce_sum_dim1_f32: PASS
// CHECK: {{^}}reduce_max_dim0_f32: PASS
// CHECK: {{^}}reduce_sum_dims02_i32: PASS
// CHECK: {{^}}reduce_sum_of_squares_to_0d: PASS
// CHECK: {{^}}reduce_any_i1: PASS
// CHECK: {{^}}generic_broadcast_tanh: PASS
// CHECK: {{^}}9 passed, 0 failed

// Softmax along the last dimension; the 100.0 checks the max subtraction.
func.func @softmax_f32() {
  %x = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 1.0, 100.0]]> : tensor<2x4xf32>
  %empty = tensor.empty() : tensor<2x4xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>) outs(%empty : tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%0, dense<[[0.0320586041, 0.0871443152, 0.236882821, 0.643914282], [1.40129846e-44, 3.78350585e-44, 1.00893489e-43, 1.0]]> : tensor<2x4xf32>, atol 1.0e-6) : tensor<2x4xf32>
  return
}

func.func @softmax_dim0_f32() {
  %x = util.unfoldable_constant dense<[[0.5, -1.0, 2.0], [1.5, 0.0, -2.0]]> : tensor<2x3xf32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.softmax dimension(0) ins(%x : tensor<2x3xf32>) outs(%empty : tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[0.268941432, 0.268941432, 0.982013762], [0.731058598, 0.731058598, 0.0179862101]]> : tensor<2x3xf32>, atol 1.0e-6) : tensor<2x3xf32>
  return
}

// argmax along rows as a linalg.generic with two outputs (value and index);
// ties keep the first index because only a strictly greater value wins.
func.func @argmax_generic_two_outputs() {
  %x = util.unfoldable_constant dense<[[1.0, 5.0, 3.0, 5.0, -2.0], [-3.0, -1.0, -7.0, -1.5, -4.0], [0.0, 0.25, 0.125, 2.0, 1.75]]> : tensor<3x5xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<3xf32>
  %ei = tensor.empty() : tensor<3xi32>
  %initv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<3xf32>) -> tensor<3xf32>
  %initi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<3xi32>) -> tensor<3xi32>
  %0:2 = linalg.generic {
         indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
         iterator_types = ["parallel", "reduction"]}
       ins(%x : tensor<3x5xf32>) outs(%initv, %initi : tensor<3xf32>, tensor<3xi32>) {
  ^bb0(%in: f32, %best: f32, %besti: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %best : f32
    %v = arith.select %gt, %in, %best : f32
    %k = arith.select %gt, %ji, %besti : i32
    linalg.yield %v, %k : f32, i32
  } -> (tensor<3xf32>, tensor<3xi32>)
  check.expect_almost_eq_const(%0#0, dense<[5.0, -1.0, 2.0]> : tensor<3xf32>) : tensor<3xf32>
  check.expect_eq_const(%0#1, dense<[1, 1, 3]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @reduce_sum_dim1_f32() {
  %x = util.unfoldable_constant dense<[[-2.5, 1.0, -1.0, 2.5], [0.5, -1.5, 2.0, 0.0], [-2.0, 1.5, -0.5, -2.5]]> : tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3xf32>) -> tensor<3xf32>
  %0 = linalg.reduce ins(%x : tensor<3x4xf32>) outs(%init : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  check.expect_almost_eq_const(%0, dense<[0.0, 1.0, -3.5]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @reduce_max_dim0_f32() {
  %x = util.unfoldable_constant dense<[[-2.5, 1.0, -1.0, 2.5], [0.5, -1.5, 2.0, 0.0], [-2.0, 1.5, -0.5, -2.5]]> : tensor<3x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%empty : tensor<4xf32>) -> tensor<4xf32>
  %0 = linalg.reduce ins(%x : tensor<3x4xf32>) outs(%init : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  check.expect_almost_eq_const(%0, dense<[0.5, 1.5, 2.0, 2.5]> : tensor<4xf32>) : tensor<4xf32>
  return
}

// Two non-adjacent reduced dimensions.
func.func @reduce_sum_dims02_i32() {
  %x = util.unfoldable_constant dense<[[[-50, -13, 24, -40], [-3, 34, -30, 7], [44, -20, 17, -47]], [[-10, 27, -37, 0], [37, -27, 10, 47], [-17, 20, -44, -7]]]> : tensor<2x3x4xi32>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<3xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<3xi32>) -> tensor<3xi32>
  %0 = linalg.reduce ins(%x : tensor<2x3x4xi32>) outs(%init : tensor<3xi32>) dimensions = [0, 2]
    (%in: i32, %acc: i32) {
      %s = arith.addi %in, %acc : i32
      linalg.yield %s : i32
    }
  check.expect_eq_const(%0, dense<[-99, 75, -54]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// Sum of squares of all elements into a 0-d tensor, as a linalg.generic.
func.func @reduce_sum_of_squares_to_0d() {
  %x = util.unfoldable_constant dense<[[-2.5, 1.0, -1.0, 2.5], [0.5, -1.5, 2.0, 0.0], [-2.0, 1.5, -0.5, -2.5]]> : tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %0 = linalg.generic {
         indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
         iterator_types = ["reduction", "reduction"]}
       ins(%x : tensor<3x4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  check.expect_almost_eq_const(%0, dense<33.75> : tensor<f32>) : tensor<f32>
  return
}

func.func @reduce_any_i1() {
  %x = util.unfoldable_constant dense<[[true, false, false], [false, false, false]]> : tensor<2x3xi1>
  %false = arith.constant false
  %empty = tensor.empty() : tensor<2xi1>
  %init = linalg.fill ins(%false : i1) outs(%empty : tensor<2xi1>) -> tensor<2xi1>
  %0 = linalg.reduce ins(%x : tensor<2x3xi1>) outs(%init : tensor<2xi1>) dimensions = [1]
    (%in: i1, %acc: i1) {
      %o = arith.ori %in, %acc : i1
      linalg.yield %o : i1
    }
  check.expect_eq_const(%0, dense<[true, false]> : tensor<2xi1>) : tensor<2xi1>
  return
}

// Elementwise generic with a broadcast operand: tanh(a[i, j] * b[j]).
func.func @generic_broadcast_tanh() {
  %a = util.unfoldable_constant dense<[[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[1.0, -1.0, 0.5]> : tensor<3xf32>
  %empty = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.generic {
         indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
         iterator_types = ["parallel", "parallel"]}
       ins(%a, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%empty : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %t = math.tanh %p : f32
    linalg.yield %t : f32
  } -> tensor<2x3xf32>
  check.expect_almost_eq_const(%0, dense<[[0.462117165, -0.761594176, 0.635148942], [0.964027584, -0.986614287, 0.905148268]]> : tensor<2x3xf32>) : tensor<2x3xf32>
  return
}
