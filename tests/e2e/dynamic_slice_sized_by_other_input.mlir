// RUN: %e2e %s -o %t
// A slice of one dynamic input sized by another's extent, added to that
// other input: the kernel's loop and its workgroup count name the same
// extent (the slice's size), though the host reads it from the other input.
// ENTRY: main
// INPUT: 50000xf32=random
// INPUT: 40000xf32=random
// ENTRY: main
// INPUT: 7xf32=random
// INPUT: 7xf32=random

func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %b, %c0 : tensor<?xf32>
  %s = tensor.extract_slice %a[0] [%n] [1] : tensor<?xf32> to tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%s, %b : tensor<?xf32>, tensor<?xf32>)
                  outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
