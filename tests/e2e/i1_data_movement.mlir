// RUN: %e2e %s -o %t
// Pure data movement of i1 tensors (byte-per-element in memory): transpose,
// broadcast, concat along the inner dim, strided slice and insert_slice.
// INPUT: 5x7xi1=random
// INPUT: 7xi1=random

func.func @main(%m: tensor<5x7xi1>, %v: tensor<7xi1>)
    -> (tensor<7x5xi1>, tensor<3x7xi1>, tensor<5x14xi1>, tensor<3x4xi1>, tensor<5x7xi1>) {
  %et = tensor.empty() : tensor<7x5xi1>
  %t = linalg.transpose ins(%m : tensor<5x7xi1>) outs(%et : tensor<7x5xi1>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<3x7xi1>
  %b = linalg.broadcast ins(%v : tensor<7xi1>) outs(%eb : tensor<3x7xi1>) dimensions = [0]
  %c = tensor.concat dim(1) %m, %m : (tensor<5x7xi1>, tensor<5x7xi1>) -> tensor<5x14xi1>
  %s = tensor.extract_slice %m[0, 1] [3, 4] [2, 1] : tensor<5x7xi1> to tensor<3x4xi1>
  %row = tensor.expand_shape %v [[0, 1]] output_shape [1, 7] : tensor<7xi1> into tensor<1x7xi1>
  %ins = tensor.insert_slice %row into %m[2, 0] [1, 7] [1, 1] : tensor<1x7xi1> into tensor<5x7xi1>
  return %t, %b, %c, %s, %ins : tensor<7x5xi1>, tensor<3x7xi1>, tensor<5x14xi1>, tensor<3x4xi1>, tensor<5x7xi1>
}
