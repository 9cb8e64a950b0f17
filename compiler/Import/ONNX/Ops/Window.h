//===- Window.h - the windows of convolutions and pools -----------*- C++ -*-===//
//
// Conv, ConvTranspose and the pools read the same attributes (kernel_shape,
// strides, dilations, pads, auto_pad) with the same defaults.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_OPS_WINDOW_H_
#define KILN_IMPORT_ONNX_OPS_WINDOW_H_

#include "Import/ONNX/NodeConverter.h"

namespace mlir::kiln::onnx_import {

/// A window over the spatial dimensions, pads split into their two sides.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, padsBegin, padsEnd;
};

/// Reads kernel_shape (else `kernel`, the filter's), strides, dilations,
/// pads and auto_pad, resolving SAME_UPPER, SAME_LOWER and VALID for the
/// spatial sizes `input` (static ones: auto_pad needs them).
FailureOr<Window> getWindow(NodeContext &ctx, ArrayRef<int64_t> input,
                            ArrayRef<int64_t> kernel);

/// `input` padded with the scalar `value` (tensor.pad), or `input` itself
/// without pads.
Value padWith(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
              ArrayRef<int64_t> high, Value value);

/// The number of positions of a window of `extent` at `stride` over a
/// dimension of `in` plus `pads`: floor (or ceil) of (in + pads - extent)
/// / stride, plus 1.
OpFoldResult getWindowOutputSize(OpBuilder &b, Location loc, OpFoldResult in,
                                 int64_t pads, int64_t extent, int64_t stride,
                                 bool ceil = false);

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_OPS_WINDOW_H_
