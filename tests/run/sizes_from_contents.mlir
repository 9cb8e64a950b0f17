// Tests that sizes held in a tensor's contents size the program as it runs:
// the host reads each element it needs (an argument's, or one a dispatch
// computed) once, and a slice those sizes put outside its tensor is an
// error, not a read out of bounds.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-dump %t.kiln --disassemble | FileCheck %s --check-prefix=HOST
// RUN: kiln-run %t.kiln --function=take --input="2xi64=2,3" --input="8xf32=0,1,2,3,4,5,6,7" | FileCheck %s --check-prefix=TAKE
// RUN: not kiln-run %t.kiln --function=take --input="2xi64=6,3" --input="8xf32=0,1,2,3,4,5,6,7" 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: kiln-run %t.kiln --function=grow --input="1xi32=2" | FileCheck %s --check-prefix=GROW

// HOST-LABEL: func @take
//       HOST:   i0 = extract %0[1] : 2xi64
//       HOST:   dispatch {{.+}} dims(i0)
// HOST-LABEL: func @grow
//       HOST:   %[[T:[0-9]+]] = dispatch
//       HOST:   i0 = extract %0[0] unsigned : 1xi32
//       HOST:   i1 = extract %[[T]][0] unsigned : 1xi32

// TAKE: 3xf32=2 3 4
// OUTSIDE: error: function 'take' instruction {{[0-9]+}}: dispatch {{.+}} found sizes it computes from this call's that do not fit
// GROW: 2x3xf32=[1 1 1][1 1 1]

func.func @take(%sizes: tensor<2xi64>, %x: tensor<8xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tensor.extract %sizes[%c0] : tensor<2xi64>
  %n = tensor.extract %sizes[%c1] : tensor<2xi64>
  %start = arith.index_cast %s : i64 to index
  %count = arith.index_cast %n : i64 to index
  %r = tensor.extract_slice %x[%start] [%count] [1] : tensor<8xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}

// The count is computed (n + 1) before the host reads it.
func.func @grow(%n: tensor<1xi32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1> : tensor<1xi32>
  %e = tensor.empty() : tensor<1xi32>
  %m = linalg.add ins(%n, %one : tensor<1xi32>, tensor<1xi32>) outs(%e : tensor<1xi32>) -> tensor<1xi32>
  %a = tensor.extract %n[%c0] : tensor<1xi32>
  %b = tensor.extract %m[%c0] : tensor<1xi32>
  %rows = arith.index_castui %a : i32 to index
  %cols = arith.index_castui %b : i32 to index
  %f = arith.constant 1.0 : f32
  %empty = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = linalg.fill ins(%f : f32) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
