// RUN: %e2e %s -o %t
// linalg.matmul with cast = cast_unsigned: i8 operands are zero-extended
// (read as 0..255) into the i32 accumulator.
// INPUT: 4x9xi8=random(-128, 127)
// INPUT: 9x5xi8=random(-128, 127)

func.func @main(%a: tensor<4x9xi8>, %b: tensor<9x5xi8>) -> tensor<4x5xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x5xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<4x5xi32>) -> tensor<4x5xi32>
  %r = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : tensor<4x9xi8>, tensor<9x5xi8>)
      outs(%acc : tensor<4x5xi32>) -> tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}
