// RUN: %e2e %s -o %t
// Quantized-style matmul: i8 operands, i32 accumulator. linalg.matmul
// sign-extends the i8 inputs (cast_signed default), 6x40 * 40x10 -> 6x10.
// Inputs span the whole i8 range so sign extension matters.
// INPUT: 6x40xi8=random(-128, 127)
// INPUT: 40x10xi8=random(-128, 127)

func.func @main(%a: tensor<6x40xi8>, %b: tensor<40x10xi8>) -> tensor<6x10xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<6x10xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<6x10xi32>) -> tensor<6x10xi32>
  %r = linalg.matmul ins(%a, %b : tensor<6x40xi8>, tensor<40x10xi8>)
                     outs(%acc : tensor<6x10xi32>) -> tensor<6x10xi32>
  return %r : tensor<6x10xi32>
}
