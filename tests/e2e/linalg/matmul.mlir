// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// linalg contractions: matmul (plain, accumulating, with transposed operands
// through indexing_maps or linalg.generic, i8 x i8 -> i32), batch_matmul
// and matvec.

// CHECK: {{^}}matmul_f32: PASS
// CHECK: {{^}}matmul_accumulate_f32: PASS
// CHECK: {{^}}matmul_transpose_b_indexing_maps: PASS
// CHECK: {{^}}matmul_transpose_a_indexing_maps: PASS
// CHECK: {{^}}matmul_transpose_b_generic: PASS
// CHECK: {{^}}matmul_i8_i8_i32: PASS
// CHECK: {{^}}matmul_i8_extsi_generic: PASS
// CHECK: {{^}}batch_matmul_f32: PASS
// CHECK: {{^}}matvec_f32: PASS
// CHECK: {{^}}matmul_16x24x8_f32: PASS
// CHECK: {{^}}10 passed, 0 failed

func.func @matmul_f32() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[0.5, -1.0], [2.0, 0.0], [-1.5, 1.0]]> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[0.0, 2.0], [3.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// The output operand is accumulated into: C + A * B.
func.func @matmul_accumulate_f32() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = util.unfoldable_constant dense<[[0.5, -1.0], [2.0, 0.0], [-1.5, 1.0]]> : tensor<3x2xf32>
  %c = util.unfoldable_constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[10.0, 22.0], [33.0, 42.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// B is given transposed (N x K); linalg.matmul reads it through indexing_maps.
func.func @matmul_transpose_b_indexing_maps() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %bt = util.unfoldable_constant dense<[[0.5, 2.0, -1.5], [-1.0, 0.0, 1.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul indexing_maps = [
         affine_map<(m, n, k) -> (m, k)>,
         affine_map<(m, n, k) -> (n, k)>,
         affine_map<(m, n, k) -> (m, n)>]
       ins(%a, %bt : tensor<2x3xf32>, tensor<2x3xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[0.0, 2.0], [3.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// A is given transposed (K x M).
func.func @matmul_transpose_a_indexing_maps() {
  %at = util.unfoldable_constant dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
  %b = util.unfoldable_constant dense<[[0.5, -1.0], [2.0, 0.0], [-1.5, 1.0]]> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul indexing_maps = [
         affine_map<(m, n, k) -> (k, m)>,
         affine_map<(m, n, k) -> (k, n)>,
         affine_map<(m, n, k) -> (m, n)>]
       ins(%at, %b : tensor<3x2xf32>, tensor<3x2xf32>) outs(%init : tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[0.0, 2.0], [3.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// The same A * B^T written as a linalg.generic.
func.func @matmul_transpose_b_generic() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %bt = util.unfoldable_constant dense<[[0.5, 2.0, -1.5], [-1.0, 0.0, 1.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.generic {
         indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>],
         iterator_types = ["parallel", "parallel", "reduction"]}
       ins(%a, %bt : tensor<2x3xf32>, tensor<2x3xf32>) outs(%init : tensor<2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[0.0, 2.0], [3.0, 2.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}

// i8 x i8 accumulated in i32: the named op sign-extends its operands.
func.func @matmul_i8_i8_i32() {
  %a = util.unfoldable_constant dense<[[-128, 127, 5], [-7, 100, -100]]> : tensor<2x3xi8>
  %b = util.unfoldable_constant dense<[[127, -128], [-1, 2], [50, -50]]> : tensor<3x2xi8>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<2x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<2x2xi32>) -> tensor<2x2xi32>
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xi8>, tensor<3x2xi8>) outs(%init : tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const(%0, dense<[[-16133, 16388], [-5989, 6096]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

// The same i8 product with explicit sign extension in a linalg.generic.
func.func @matmul_i8_extsi_generic() {
  %a = util.unfoldable_constant dense<[[-128, 127, 5], [-7, 100, -100]]> : tensor<2x3xi8>
  %b = util.unfoldable_constant dense<[[127, -128], [-1, 2], [50, -50]]> : tensor<3x2xi8>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<2x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<2x2xi32>) -> tensor<2x2xi32>
  %0 = linalg.generic {
         indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>],
         iterator_types = ["parallel", "parallel", "reduction"]}
       ins(%a, %b : tensor<2x3xi8>, tensor<3x2xi8>) outs(%init : tensor<2x2xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<2x2xi32>
  check.expect_eq_const(%0, dense<[[-16133, 16388], [-5989, 6096]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

func.func @batch_matmul_f32() {
  %a = util.unfoldable_constant dense<[[[-3.0, 2.0, 0.0], [-2.0, 3.0, 1.0]], [[-1.0, -3.0, 2.0], [0.0, -2.0, 3.0]]]> : tensor<2x2x3xf32>
  %b = util.unfoldable_constant dense<[[[-2.0, 1.0], [-1.0, 2.0], [0.0, -2.0]], [[1.0, -1.0], [2.0, 0.0], [-2.0, 1.0]]]> : tensor<2x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x2x3xf32>, tensor<2x3x2xf32>) outs(%init : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  check.expect_almost_eq_const(%0, dense<[[[4.0, 1.0], [1.0, 2.0]], [[-11.0, 3.0], [-10.0, 3.0]]]> : tensor<2x2x2xf32>) : tensor<2x2x2xf32>
  return
}

func.func @matvec_f32() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = util.unfoldable_constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
  %0 = linalg.matvec ins(%a, %v : tensor<2x3xf32>, tensor<3xf32>) outs(%init : tensor<2xf32>) -> tensor<2xf32>
  check.expect_almost_eq_const(%0, dense<[-1.5, -3.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

// A larger product with row-dependent values: A[i, k] = i + k, B[k, j] = k - j
// (16x24 times 24x8), so C[i, j] = sum_k (i + k)(k - j).
func.func @matmul_16x24x8_f32() {
  %empty_a = tensor.empty() : tensor<16x24xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>], iterator_types = ["parallel", "parallel"]} outs(%empty_a : tensor<16x24xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %s = arith.addi %i, %k : index
    %si = arith.index_cast %s : index to i32
    %sf = arith.sitofp %si : i32 to f32
    linalg.yield %sf : f32
  } -> tensor<16x24xf32>
  %empty_b = tensor.empty() : tensor<24x8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>], iterator_types = ["parallel", "parallel"]} outs(%empty_b : tensor<24x8xf32>) {
  ^bb0(%out: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %k, %j : index
    %di = arith.index_cast %d : index to i32
    %df = arith.sitofp %di : i32 to f32
    linalg.yield %df : f32
  } -> tensor<24x8xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x8xf32>) -> tensor<16x8xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<16x24xf32>, tensor<24x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  check.expect_almost_eq_const(%0, dense<[[4324.0, 4048.0, 3772.0, 3496.0, 3220.0, 2944.0, 2668.0, 2392.0], [4600.0, 4300.0, 4000.0, 3700.0, 3400.0, 3100.0, 2800.0, 2500.0], [4876.0, 4552.0, 4228.0, 3904.0, 3580.0, 3256.0, 2932.0, 2608.0], [5152.0, 4804.0, 4456.0, 4108.0, 3760.0, 3412.0, 3064.0, 2716.0], [5428.0, 5056.0, 4684.0, 4312.0, 3940.0, 3568.0, 3196.0, 2824.0], [5704.0, 5308.0, 4912.0, 4516.0, 4120.0, 3724.0, 3328.0, 2932.0], [5980.0, 5560.0, 5140.0, 4720.0, 4300.0, 3880.0, 3460.0, 3040.0], [6256.0, 5812.0, 5368.0, 4924.0, 4480.0, 4036.0, 3592.0, 3148.0], [6532.0, 6064.0, 5596.0, 5128.0, 4660.0, 4192.0, 3724.0, 3256.0], [6808.0, 6316.0, 5824.0, 5332.0, 4840.0, 4348.0, 3856.0, 3364.0], [7084.0, 6568.0, 6052.0, 5536.0, 5020.0, 4504.0, 3988.0, 3472.0], [7360.0, 6820.0, 6280.0, 5740.0, 5200.0, 4660.0, 4120.0, 3580.0], [7636.0, 7072.0, 6508.0, 5944.0, 5380.0, 4816.0, 4252.0, 3688.0], [7912.0, 7324.0, 6736.0, 6148.0, 5560.0, 4972.0, 4384.0, 3796.0], [8188.0, 7576.0, 6964.0, 6352.0, 5740.0, 5128.0, 4516.0, 3904.0], [8464.0, 7828.0, 7192.0, 6556.0, 5920.0, 5284.0, 4648.0, 4012.0]]> : tensor<16x8xf32>) : tensor<16x8xf32>
  return
}
