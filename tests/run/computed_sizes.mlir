// Tests that a dispatch whose loops run to a size the host computes from
// its input's (a strided convolution's output over a dynamic image, fused
// with the transpose and relu after it) runs at any size: the host passes
// the size in, and the kernel's loops run to it.
//
// RUN: kiln-compile %s -o %t.kiln
// RUN: kiln-dump %t.kiln --disassemble | FileCheck %s --check-prefix=HOST
// RUN: kiln-run %t.kiln --function=conv --input="1x5x7x1xf32=1" | FileCheck %s --check-prefix=SMALL
// RUN: kiln-run %t.kiln --function=conv --input="2x3x3x1xf32=1" | FileCheck %s --check-prefix=BATCH

// HOST-LABEL: func @conv
//       HOST:   [[H:i[0-9]+]] = add
//       HOST:   [[W:i[0-9]+]] = add
//       HOST:   dispatch {{.+}} constants([[H]], [[W]]) into(new) dims({{.+}}, [[H]], [[W]])

// A 2x2 kernel of ones at stride 2 over ones: 4 everywhere, relu keeps it.
// SMALL: 1x1x2x3xf32={{\[\[\[}}4 4 4{{\]\[}}4 4 4{{\]\]\]}}
// BATCH: 2x1x1x1xf32={{\[\[\[}}4{{\]\]\]\[\[\[}}4{{\]\]\]}}
func.func @conv(%x: tensor<?x?x?x1xf32>) -> tensor<?x1x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %n = tensor.dim %x, %c0 : tensor<?x?x?x1xf32>
  %h = tensor.dim %x, %c1 : tensor<?x?x?x1xf32>
  %w_in = tensor.dim %x, %c2 : tensor<?x?x?x1xf32>
  // (size - 2) / 2 + 1
  %h2 = arith.subi %h, %c2 : index
  %h3 = arith.divsi %h2, %c2 : index
  %oh = arith.addi %h3, %c1 : index
  %w2 = arith.subi %w_in, %c2 : index
  %w3 = arith.divsi %w2, %c2 : index
  %ow = arith.addi %w3, %c1 : index
  %e = tensor.empty(%n, %oh, %ow) : tensor<?x?x?x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?x?x1xf32>) -> tensor<?x?x?x1xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<?x?x?x1xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<?x?x?x1xf32>) -> tensor<?x?x?x1xf32>
  %t = tensor.empty(%n, %oh, %ow) : tensor<?x1x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, c, d, b)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<?x?x?x1xf32>) outs(%t : tensor<?x1x?x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x1x?x?xf32>
  return %r : tensor<?x1x?x?xf32>
}
