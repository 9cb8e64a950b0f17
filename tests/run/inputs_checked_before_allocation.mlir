// Tests that kiln-run and kiln-benchmark compare each --input's type with
// the signature before allocating it: an 800 GB input of the wrong shape is
// the signature error, not an allocation failure (or minutes of zero-filling
// and gigabytes of memory when it fits), and so is a wrong count, before any
// input is read.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: not kiln-run %t.kiln --input=200000000000xf32=1 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not kiln-benchmark %t.kiln --input=200000000000xf32 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not kiln-run %t.kiln --input=16xf32=1 --input=200000000000xf32 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: kiln-run %t.kiln --input=16xf32=2 | FileCheck %s --check-prefix=RESULT
// SHAPE: error: input 0: expected 16xf32, got 200000000000xf32
// COUNT: error: main(16xf32) -> (16xf32) takes 1 inputs, got 2
// RESULT: 16xf32=4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4

func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.add ins(%x, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}
