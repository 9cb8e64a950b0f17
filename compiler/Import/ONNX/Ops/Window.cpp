//===- Window.cpp - the windows of convolutions and pools -----------------===//

#include "Import/ONNX/Ops/Window.h"

#include "Import/ONNX/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln::onnx_import {

FailureOr<Window> getWindow(NodeContext &ctx, ArrayRef<int64_t> input,
                            ArrayRef<int64_t> kernel) {
  size_t spatial = input.size();
  Window window;
  window.kernel = ctx.getInts("kernel_shape");
  if (window.kernel.empty())
    window.kernel.assign(kernel.begin(), kernel.end());
  window.strides = ctx.getInts("strides");
  window.dilations = ctx.getInts("dilations");
  SmallVector<int64_t> pads = ctx.getInts("pads");
  if (window.strides.empty())
    window.strides.assign(spatial, 1);
  if (window.dilations.empty())
    window.dilations.assign(spatial, 1);
  if (pads.empty())
    pads.assign(2 * spatial, 0);
  if (window.kernel.size() != spatial || window.strides.size() != spatial ||
      window.dilations.size() != spatial || pads.size() != 2 * spatial)
    return ctx.fail("kernel_shape, strides, dilations and pads must cover "
                    "the " + Twine(spatial) + " spatial dimensions");
  window.padsBegin.assign(pads.begin(), pads.begin() + spatial);
  window.padsEnd.assign(pads.begin() + spatial, pads.end());
  std::string autoPad = ctx.getString("auto_pad", "NOTSET");
  if (autoPad == "VALID") {
    window.padsBegin.assign(spatial, 0);
    window.padsEnd.assign(spatial, 0);
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t d = 0; d < spatial; ++d) {
      if (ShapedType::isDynamic(input[d]))
        return ctx.fail("auto_pad " + autoPad +
                        " needs static spatial sizes");
      int64_t stride = window.strides[d];
      int64_t out = (input[d] + stride - 1) / stride;
      int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
      int64_t total =
          std::max<int64_t>((out - 1) * stride + extent - input[d], 0);
      int64_t small = total / 2, large = total - total / 2;
      window.padsBegin[d] = autoPad == "SAME_UPPER" ? small : large;
      window.padsEnd[d] = autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (autoPad != "NOTSET") {
    return ctx.fail("auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or "
                    "VALID, got '" + autoPad + "'");
  }
  return window;
}

Value padWith(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
              ArrayRef<int64_t> high, Value value) {
  if (llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(high, [](int64_t p) { return p == 0; }))
    return input;
  SmallVector<OpFoldResult> lowValues, highValues;
  for (auto [l, h] : llvm::zip(low, high)) {
    lowValues.push_back(b.getIndexAttr(l));
    highValues.push_back(b.getIndexAttr(h));
  }
  return tensor::PadOp::create(b, loc, Type(), input, lowValues, highValues,
                               value);
}

OpFoldResult getWindowOutputSize(OpBuilder &b, Location loc, OpFoldResult in,
                                 int64_t pads, int64_t extent, int64_t stride,
                                 bool ceil) {
  if (std::optional<int64_t> size = getConstantIntValue(in)) {
    int64_t span = *size + pads - extent;
    int64_t out = (ceil ? (span + stride - 1) / stride : span / stride) + 1;
    return b.getIndexAttr(out);
  }
  Value span = arith::AddIOp::create(
      b, loc, getIndexValue(b, loc, in),
      arith::ConstantIndexOp::create(b, loc, pads - extent));
  Value steps =
      ceil ? arith::CeilDivSIOp::create(
                 b, loc, span, arith::ConstantIndexOp::create(b, loc, stride))
                 .getResult()
           : arith::DivSIOp::create(
                 b, loc, span, arith::ConstantIndexOp::create(b, loc, stride))
                 .getResult();
  return arith::AddIOp::create(b, loc, steps,
                               arith::ConstantIndexOp::create(b, loc, 1))
      .getResult();
}

} // namespace mlir::kiln::onnx_import
