// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// Buffer reuse around loops and branches, checked against the same steps
// unrolled into straight-line code (planned without loops) and against
// constants. A plan that let a result take the buffer of a value still to
// be read would change a result.

// CHECK: {{^}}loop_matches_unrolled: PASS
// CHECK: {{^}}while_matches_unrolled: PASS
// CHECK: {{^}}value_read_after_branches: PASS
// CHECK: {{^}}3 passed, 0 failed

// One step: two intermediates (a matmul and its transpose), an if whose
// arms each compute one more (the arms may share a buffer) while %acc,
// from before the branch, is read after it, and %k, from before any loop,
// read in every step.
func.func private @step(%acc: tensor<8x8xf32>, %w: tensor<8x8xf32>, %k: tensor<8x8xf32>, %even: i1) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = linalg.matmul ins(%acc, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = linalg.transpose ins(%t : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %p = scf.if %even -> tensor<8x8xf32> {
    %m = linalg.matmul ins(%u, %k : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %m : tensor<8x8xf32>
  } else {
    %m = linalg.matmul ins(%k, %u : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %m : tensor<8x8xf32>
  }
  %s = linalg.sub ins(%p, %acc : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %next = math.tanh %s : tensor<8x8xf32>
  return %next : tensor<8x8xf32>
}

func.func private @inputs() -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %x = util.unfoldable_constant dense<[[0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8], [0.2, 0.1, -0.4, 0.3, 0.6, -0.5, 0.8, 0.7], [-0.3, 0.4, 0.1, -0.2, 0.7, 0.8, -0.5, 0.6], [0.4, -0.3, 0.2, 0.1, -0.8, 0.7, 0.6, 0.5], [0.5, 0.6, -0.7, 0.8, 0.1, -0.2, 0.3, 0.4], [-0.6, 0.5, 0.8, -0.7, 0.2, 0.1, -0.4, 0.3], [0.7, -0.8, 0.5, 0.6, 0.3, 0.4, 0.1, -0.2], [0.8, 0.7, -0.6, -0.5, 0.4, -0.3, 0.2, 0.1]]> : tensor<8x8xf32>
  %w = util.unfoldable_constant dense<[[0.3, 0.1, -0.2, 0.0, 0.1, 0.2, -0.1, 0.3], [0.1, -0.3, 0.2, 0.1, 0.0, -0.1, 0.2, 0.1], [0.2, 0.2, 0.1, -0.3, 0.1, 0.0, 0.1, -0.2], [-0.1, 0.1, 0.3, 0.2, -0.2, 0.1, 0.0, 0.1], [0.0, 0.2, -0.1, 0.1, 0.3, 0.2, 0.1, 0.0], [0.2, -0.1, 0.0, 0.2, 0.1, 0.3, -0.2, 0.1], [0.1, 0.0, 0.2, -0.1, 0.2, 0.1, 0.3, 0.2], [-0.2, 0.1, 0.1, 0.0, -0.1, 0.2, 0.1, 0.3]]> : tensor<8x8xf32>
  %v = util.unfoldable_constant dense<[[1.0, 0.5, 0.0, -0.5, 0.2, 0.1, 0.3, 0.0], [0.5, 1.0, 0.5, 0.0, -0.2, 0.1, 0.0, 0.3], [0.0, 0.5, 1.0, 0.5, 0.0, -0.3, 0.1, 0.2], [-0.5, 0.0, 0.5, 1.0, 0.5, 0.0, 0.2, -0.1], [0.2, -0.2, 0.0, 0.5, 1.0, 0.5, 0.0, 0.1], [0.1, 0.1, -0.3, 0.0, 0.5, 1.0, 0.5, 0.0], [0.3, 0.0, 0.1, 0.2, 0.0, 0.5, 1.0, 0.5], [0.0, 0.3, 0.2, -0.1, 0.1, 0.0, 0.5, 1.0]]> : tensor<8x8xf32>
  return %x, %w, %v : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// %k = x * v, then four steps, then %k read again after the loop.
func.func private @unrolled() -> tensor<8x8xf32> {
  %x, %w, %v = func.call @inputs() : () -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %k = linalg.matmul ins(%x, %v : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
  %true = util.unfoldable_constant true
  %false = util.unfoldable_constant false
  %s0 = func.call @step(%x, %w, %k, %true) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, i1) -> tensor<8x8xf32>
  %s1 = func.call @step(%s0, %w, %k, %false) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, i1) -> tensor<8x8xf32>
  %s2 = func.call @step(%s1, %w, %k, %true) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, i1) -> tensor<8x8xf32>
  %s3 = func.call @step(%s2, %w, %k, %false) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, i1) -> tensor<8x8xf32>
  %out = linalg.add ins(%s3, %k : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

// The same four steps in an scf.for.
func.func @loop_matches_unrolled() {
  %x, %w, %v = func.call @inputs() : () -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %k = linalg.matmul ins(%x, %v : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<8x8xf32>) {
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %next = func.call @step(%acc, %w, %k, %even) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, i1) -> tensor<8x8xf32>
    scf.yield %next : tensor<8x8xf32>
  }
  %out = linalg.add ins(%r, %k : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %expected = func.call @unrolled() : () -> tensor<8x8xf32>
  check.expect_almost_eq(%out, %expected, atol 1.0e-5) : tensor<8x8xf32>
  return
}

// The same four steps in an scf.while whose condition is computed on the
// accumulated value's step count, carried as a tensor.
func.func @while_matches_unrolled() {
  %x, %w, %v = func.call @inputs() : () -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %k = linalg.matmul ins(%x, %v : tensor<8x8xf32>, tensor<8x8xf32>) outs(%fill : tensor<8x8xf32>) -> tensor<8x8xf32>
  %n0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %four = arith.constant 4 : i32
  %r:2 = scf.while (%acc = %x, %n = %n0) : (tensor<8x8xf32>, i32) -> (tensor<8x8xf32>, i32) {
    %more = arith.cmpi slt, %n, %four : i32
    scf.condition(%more) %acc, %n : tensor<8x8xf32>, i32
  } do {
  ^bb0(%acc: tensor<8x8xf32>, %n: i32):
    %rem = arith.remui %n, %two : i32
    %even = arith.cmpi eq, %rem, %n0 : i32
    %next = func.call @step(%acc, %w, %k, %even) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, i1) -> tensor<8x8xf32>
    %m = arith.addi %n, %one : i32
    scf.yield %next, %m : tensor<8x8xf32>, i32
  }
  %out = linalg.add ins(%r#0, %k : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %expected = func.call @unrolled() : () -> tensor<8x8xf32>
  check.expect_almost_eq(%out, %expected, atol 1.0e-5) : tensor<8x8xf32>
  return
}

// Values computed before a branch and read after it, next to values
// computed in each arm: [1, 2] -> a = 2x = [2, 4], b = a * a = [4, 16];
// taken arm: c = b + a = [6, 20]; result: c - a + b = [8, 32].
func.func @value_read_after_branches() {
  %x = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  %cond = util.unfoldable_constant dense<true> : tensor<i1>
  %a = arith.addf %x, %x : tensor<2xf32>
  %ab = util.optimization_barrier %a : tensor<2xf32>
  %b = arith.mulf %ab, %ab : tensor<2xf32>
  %bb = util.optimization_barrier %b : tensor<2xf32>
  %flag = tensor.extract %cond[] : tensor<i1>
  %c = scf.if %flag -> tensor<2xf32> {
    %t = arith.addf %bb, %ab : tensor<2xf32>
    scf.yield %t : tensor<2xf32>
  } else {
    %t = arith.subf %bb, %ab : tensor<2xf32>
    scf.yield %t : tensor<2xf32>
  }
  %cb = util.optimization_barrier %c : tensor<2xf32>
  %d = arith.subf %cb, %ab : tensor<2xf32>
  %db = util.optimization_barrier %d : tensor<2xf32>
  %r = arith.addf %db, %bb : tensor<2xf32>
  check.expect_almost_eq_const(%r, dense<[8.0, 32.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
