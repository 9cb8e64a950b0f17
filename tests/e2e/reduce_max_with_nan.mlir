// RUN: %e2e %s -o %t
// A max reduction (arith.maximumf, NaN-propagating) over rows where one row
// holds a NaN and another an inf: vectorized/tree reductions must keep NaN.
// INPUT: 3x20xf32=[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], [1, 2, 3, 4, 5, 6, 7, 8, 9, nan, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], [-1, -2, -3, inf, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16, -17, -18, -19, -20]]

func.func @main(%x: tensor<3x20xf32>) -> tensor<3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<3xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce ins(%x : tensor<3x20xf32>) outs(%acc : tensor<3xf32>) dimensions = [1]
    (%a: f32, %o: f32) {
      %m = arith.maximumf %a, %o : f32
      linalg.yield %m : f32
    }
  return %r : tensor<3xf32>
}
