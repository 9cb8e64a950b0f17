// RUN: %e2e %s -o %t
// tensor.concat and tensor.pad on narrow types: i8 concat, i1 pad (true),
// i16 concat along the inner dimension.
// INPUT: 2x3xi8=random(-128, 127)
// INPUT: 1x3xi8=random(-128, 127)
// INPUT: 3x3xi1=random
// INPUT: 2x5xi16=random(-30000, 30000)

func.func @main(%a: tensor<2x3xi8>, %b: tensor<1x3xi8>, %m: tensor<3x3xi1>, %h: tensor<2x5xi16>)
    -> (tensor<3x3xi8>, tensor<5x4xi1>, tensor<2x10xi16>) {
  %c = tensor.concat dim(0) %a, %b : (tensor<2x3xi8>, tensor<1x3xi8>) -> tensor<3x3xi8>
  %true = arith.constant true
  %p = tensor.pad %m low[1, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %true : i1
  } : tensor<3x3xi1> to tensor<5x4xi1>
  %hh = tensor.concat dim(1) %h, %h : (tensor<2x5xi16>, tensor<2x5xi16>) -> tensor<2x10xi16>
  return %c, %p, %hh : tensor<3x3xi8>, tensor<5x4xi1>, tensor<2x10xi16>
}
