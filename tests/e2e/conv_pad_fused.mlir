// RUN: %e2e %s -o %t
// Pads read by a convolution alone are built per workgroup inside the
// convolution's dispatch: odd image sizes, strides and
// dilations, asymmetric pads, a nonzero padding value, NCHW, depthwise, a
// padded max pool, a padded image two convolutions read (its own dispatch)
// and one too wide to fuse (each workgroup's rows would not fit L2).
// INPUT: 1x37x29x8xf32=random
// INPUT: 3x3x8x24xf32=random
// INPUT: 3x45x37x16xf32=random
// INPUT: 3x3x16x48xf32=random
// INPUT: 1x61x33x32xf32=random
// INPUT: 3x3x32xf32=random
// INPUT: 1x16x29x23xf32=random
// INPUT: 48x16x3x3xf32=random
// INPUT: 1x4x1100x64xf32=random
// INPUT: 3x3x64x2xf32=random

func.func @main(%a: tensor<1x37x29x8xf32>, %fa: tensor<3x3x8x24xf32>,
                %b: tensor<3x45x37x16xf32>, %fb: tensor<3x3x16x48xf32>,
                %c: tensor<1x61x33x32xf32>, %fc: tensor<3x3x32xf32>,
                %d: tensor<1x16x29x23xf32>, %fd: tensor<48x16x3x3xf32>,
                %e: tensor<1x4x1100x64xf32>, %fe: tensor<3x3x64x2xf32>)
    -> (tensor<1x37x29x24xf32>, tensor<3x22x18x48xf32>, tensor<3x22x18x48xf32>,
        tensor<1x61x33x32xf32>, tensor<1x19x15x8xf32>, tensor<1x48x29x23xf32>,
        tensor<1x4x1100x2xf32>, tensor<1x37x29x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // 3x3 "same", 8 input and 24 output channels, 37x29.
  %pa = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x37x29x8xf32> to tensor<1x39x31x8xf32>
  %ea = tensor.empty() : tensor<1x37x29x24xf32>
  %ia = linalg.fill ins(%zero : f32) outs(%ea : tensor<1x37x29x24xf32>) -> tensor<1x37x29x24xf32>
  %ra = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pa, %fa : tensor<1x39x31x8xf32>, tensor<3x3x8x24xf32>)
      outs(%ia : tensor<1x37x29x24xf32>) -> tensor<1x37x29x24xf32>

  // Stride 2, pads low 0 / high 1 with 0.5, batch 3.
  %pb = tensor.pad %b low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %half : f32
  } : tensor<3x45x37x16xf32> to tensor<3x46x38x16xf32>
  %eb = tensor.empty() : tensor<3x22x18x48xf32>
  %ib = linalg.fill ins(%zero : f32) outs(%eb : tensor<3x22x18x48xf32>) -> tensor<3x22x18x48xf32>
  %rb = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%pb, %fb : tensor<3x46x38x16xf32>, tensor<3x3x16x48xf32>)
      outs(%ib : tensor<3x22x18x48xf32>) -> tensor<3x22x18x48xf32>

  // Dilation 2 with pads of 2 below and 1 above.
  %pb2 = tensor.pad %b low[0, 2, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<3x45x37x16xf32> to tensor<3x48x40x16xf32>
  %eb2 = tensor.empty() : tensor<3x22x18x48xf32>
  %ib2 = linalg.fill ins(%zero : f32) outs(%eb2 : tensor<3x22x18x48xf32>) -> tensor<3x22x18x48xf32>
  %rb2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%pb2, %fb : tensor<3x48x40x16xf32>, tensor<3x3x16x48xf32>)
      outs(%ib2 : tensor<3x22x18x48xf32>) -> tensor<3x22x18x48xf32>

  // Depthwise 3x3 "same".
  %pc = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x61x33x32xf32> to tensor<1x63x35x32xf32>
  %ec = tensor.empty() : tensor<1x61x33x32xf32>
  %ic = linalg.fill ins(%zero : f32) outs(%ec : tensor<1x61x33x32xf32>) -> tensor<1x61x33x32xf32>
  %rc = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pc, %fc : tensor<1x63x35x32xf32>, tensor<3x3x32xf32>)
      outs(%ic : tensor<1x61x33x32xf32>) -> tensor<1x61x33x32xf32>

  // Max pool 3x3 stride 2, padded with -inf.
  %pp = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %ninf : f32
  } : tensor<1x37x29x8xf32> to tensor<1x39x31x8xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %ep = tensor.empty() : tensor<1x19x15x8xf32>
  %ip = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x19x15x8xf32>) -> tensor<1x19x15x8xf32>
  %rp = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%pp, %window : tensor<1x39x31x8xf32>, tensor<3x3xf32>)
      outs(%ip : tensor<1x19x15x8xf32>) -> tensor<1x19x15x8xf32>

  // NCHW, 16 -> 48 channels, pads of 1 on H and W.
  %pd = tensor.pad %d low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x16x29x23xf32> to tensor<1x16x31x25xf32>
  %ed = tensor.empty() : tensor<1x48x29x23xf32>
  %id = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x48x29x23xf32>) -> tensor<1x48x29x23xf32>
  %rd = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pd, %fd : tensor<1x16x31x25xf32>, tensor<48x16x3x3xf32>)
      outs(%id : tensor<1x48x29x23xf32>) -> tensor<1x48x29x23xf32>

  // Rows of 1102 x 64 floats: too wide to pad per workgroup.
  %pe = tensor.pad %e low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x1100x64xf32> to tensor<1x6x1102x64xf32>
  %ee = tensor.empty() : tensor<1x4x1100x2xf32>
  %ie = linalg.fill ins(%zero : f32) outs(%ee : tensor<1x4x1100x2xf32>) -> tensor<1x4x1100x2xf32>
  %re = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pe, %fe : tensor<1x6x1102x64xf32>, tensor<3x3x64x2xf32>)
      outs(%ie : tensor<1x4x1100x2xf32>) -> tensor<1x4x1100x2xf32>

  // A padded image two convolutions read.
  %ps = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %half : f32
  } : tensor<1x37x29x8xf32> to tensor<1x39x31x8xf32>
  %rs = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%ps, %fa : tensor<1x39x31x8xf32>, tensor<3x3x8x24xf32>)
      outs(%ra : tensor<1x37x29x24xf32>) -> tensor<1x37x29x24xf32>
  %ra2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%ps, %fa : tensor<1x39x31x8xf32>, tensor<3x3x8x24xf32>)
      outs(%ia : tensor<1x37x29x24xf32>) -> tensor<1x37x29x24xf32>
  %ra3 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ra2, %rs : tensor<1x37x29x24xf32>, tensor<1x37x29x24xf32>) outs(%ea : tensor<1x37x29x24xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x37x29x24xf32>
  return %ra, %rb, %rb2, %rc, %rp, %rd, %re, %ra3
      : tensor<1x37x29x24xf32>, tensor<3x22x18x48xf32>, tensor<3x22x18x48xf32>,
        tensor<1x61x33x32xf32>, tensor<1x19x15x8xf32>, tensor<1x48x29x23xf32>,
        tensor<1x4x1100x2xf32>, tensor<1x37x29x24xf32>
}
