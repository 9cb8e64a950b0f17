// Tests that sizes known only as the program runs become tensor contents:
// a kernel the host passes each size to writes it (the host writes no
// tensor elements itself), and arithmetic on them runs as tensor ops.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-dump %t.kiln --disassemble | FileCheck %s --check-prefix=HOST
// RUN: kiln-run %t.kiln --function=shape --input="3x5xf32=1" | FileCheck %s --check-prefix=SHAPE

// HOST-LABEL: func @shape
//       HOST:   i0 = dim %0, 0
//       HOST:   dispatch {{.+}} constants(i0)
//       HOST:   i1 = dim %0, 1
//       HOST:   dispatch {{.+}} constants(i1)

// SHAPE: 2xi64=4 6
func.func @shape(%x: tensor<?x?xf32>) -> tensor<2xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %i0 = arith.index_cast %d0 : index to i64
  %i1 = arith.index_cast %d1 : index to i64
  %one = arith.constant 1 : i64
  %j0 = arith.addi %i0, %one : i64
  %j1 = arith.addi %i1, %one : i64
  %t = tensor.from_elements %j0, %j1 : tensor<2xi64>
  return %t : tensor<2xi64>
}
