// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: kiln-compile %s --keep-library-files=%t.dir -o %t.dir/m.kiln
// RUN: %llvm_tools_dir/llvm-nm -D --undefined-only %t.dir/library_copies_stay_in_kernels.so | count 0
// RUN: kiln-run %t.dir/m.kiln --input=2x30x40x16xf32=1 --input=3x3x16x8xf32=0.5 | FileCheck %s
// Tests that copies and fills stay loops of the kernel rather than calls to
// the C library's memcpy and memset: the library of a convolution whose
// workgroups build their padded image rows (a fill and a copy of whole image
// rows) imports no symbol at all. Where the filter covers the
// image only, every output is 3 * 3 * 16 * 0.5 = 72; at the corners 4 taps
// of 9 reach it (32), along the edges 6 (48).

// CHECK: 2x30x40x8xf32={{\[\[\[}}32 32 32 32 32 32 32 32][48 48 48 48 48 48 48 48]
// CHECK-SAME: [48 48 48 48 48 48 48 48][32 32 32 32 32 32 32 32]]{{\[}}[48 48 48 48 48 48 48 48][72 72 72 72 72 72 72 72]
func.func @main(%x: tensor<2x30x40x16xf32>, %f: tensor<3x3x16x8xf32>) -> tensor<2x30x40x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<2x30x40x16xf32> to tensor<2x32x42x16xf32>
  %e = tensor.empty() : tensor<2x30x40x8xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<2x30x40x8xf32>) -> tensor<2x30x40x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %f : tensor<2x32x42x16xf32>, tensor<3x3x16x8xf32>)
      outs(%i : tensor<2x30x40x8xf32>) -> tensor<2x30x40x8xf32>
  return %c : tensor<2x30x40x8xf32>
}
