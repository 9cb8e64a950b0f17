// RUN: %e2e %s -o %t
// A matmul over an empty K (3x0 * 0x5) feeding an elementwise consumer: the
// product is its fill, and the consumer's loops must not fuse the empty
// producer's. Also an i1 reduction over an empty dimension.
// INPUT: 3x0xf32
// INPUT: 0x5xf32
// INPUT: 6x0xi1

func.func @main(%a: tensor<3x0xf32>, %b: tensor<0x5xf32>, %m: tensor<6x0xi1>) -> (tensor<3x5xf32>, tensor<6xi1>) {
  %one = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %acc = linalg.fill ins(%one : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %p = linalg.matmul ins(%a, %b : tensor<3x0xf32>, tensor<0x5xf32>) outs(%acc : tensor<3x5xf32>) -> tensor<3x5xf32>
  %t = linalg.tanh ins(%p : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %true = arith.constant true
  %er = tensor.empty() : tensor<6xi1>
  %all0 = linalg.fill ins(%true : i1) outs(%er : tensor<6xi1>) -> tensor<6xi1>
  %all = linalg.reduce ins(%m : tensor<6x0xi1>) outs(%all0 : tensor<6xi1>) dimensions = [1]
    (%x: i1, %o: i1) {
      %r = arith.andi %x, %o : i1
      linalg.yield %r : i1
    }
  return %t, %all : tensor<3x5xf32>, tensor<6xi1>
}
