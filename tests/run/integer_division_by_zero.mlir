// Tests that integer division by zero, and the signed division that
// overflows (the minimum by -1), end the call normally instead of killing
// the process with SIGFPE: the divisor counts as 1 there (quotient: the
// dividend; remainder: 0), in code for the host CPU and for x86-64-v3.
// Unsigned results print as i32.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-run %t.kiln --input=11xi32=7,-7,7,-2147483648,-2147483648,9,9,9,9,9,9 --input=11xi32=0,0,2,-1,0,-1,3,-3,4,-4,1 | FileCheck %s
// RUN: kiln-compile %s --cpu=x86-64-v3 -o %t.v3.kiln
// RUN: kiln-run %t.v3.kiln --input=11xi32=7,-7,7,-2147483648,-2147483648,9,9,9,9,9,9 --input=11xi32=0,0,2,-1,0,-1,3,-3,4,-4,1 | FileCheck %s
// CHECK: 11xi32=7 -7 3 -2147483648 -2147483648 -9 3 -3 2 -2 9
// CHECK: 11xi32=0 0 1 0 0 0 0 0 1 1 0
// CHECK: 11xi32=7 -7 3 0 -2147483648 0 3 0 2 0 9

func.func @main(%a: tensor<11xi32>, %b: tensor<11xi32>)
    -> (tensor<11xi32>, tensor<11xi32>, tensor<11xi32>) {
  %e = tensor.empty() : tensor<11xi32>
  %q, %r, %u = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<11xi32>, tensor<11xi32>) outs(%e, %e, %e : tensor<11xi32>, tensor<11xi32>, tensor<11xi32>) {
  ^bb0(%x: i32, %y: i32, %o0: i32, %o1: i32, %o2: i32):
    %0 = arith.divsi %x, %y : i32
    %1 = arith.remsi %x, %y : i32
    %2 = arith.divui %x, %y : i32
    linalg.yield %0, %1, %2 : i32, i32, i32
  } -> (tensor<11xi32>, tensor<11xi32>, tensor<11xi32>)
  return %q, %r, %u : tensor<11xi32>, tensor<11xi32>, tensor<11xi32>
}
