// RUN: %e2e %s -o %t
// arith and math ops applied directly to tensor values (elementwise-mappable
// ops, no linalg): addf, mulf, math.exp, cmpf + select, and an i32 muli.
// INPUT: 3x7xf32=random
// INPUT: 3x7xf32=random
// INPUT: 3x7xi32=random

func.func @main(%x: tensor<3x7xf32>, %y: tensor<3x7xf32>, %n: tensor<3x7xi32>) -> (tensor<3x7xf32>, tensor<3x7xi32>) {
  %s = arith.addf %x, %y : tensor<3x7xf32>
  %m = arith.mulf %s, %x : tensor<3x7xf32>
  %e = math.exp %m : tensor<3x7xf32>
  %c = arith.cmpf olt, %x, %y : tensor<3x7xf32>
  %r = arith.select %c, %e, %y : tensor<3x7xi1>, tensor<3x7xf32>
  %n2 = arith.muli %n, %n : tensor<3x7xi32>
  return %r, %n2 : tensor<3x7xf32>, tensor<3x7xi32>
}
