//===- ConvertPointwiseConvsToMatmuls.cpp - 1x1 convolutions as matmuls ---===//
//
// A convolution with a 1x1 filter multiplies each pixel's channels by one
// matrix: on channels-last images it is a matmul of the pixels (rows) by the
// filter. As a matmul it gets the packed layouts data tiling gives
// contractions (constant weights packed at compile time) and the kernels
// tuned for them, instead of a direct convolution whose rows are one image
// row wide (14 or 7 pixels in a ResNet's late stages).
//
//===----------------------------------------------------------------------===//

#include "GlobalOpt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTPOINTWISECONVSTOMATMULSPASS
#include "GlobalOpt/Passes.h.inc"

namespace {

/// The first three dims as one: the pixels of [N, H, W, X] as rows, and the
/// filter's [1, 1, C, F] (or [F, 1, 1, C]) as a matrix.
SmallVector<ReassociationIndices> getFirstThreeAsOne() {
  return {{0, 1, 2}, {3}};
}

/// Rewrites a channels-last 2-D convolution whose window is one pixel
/// (`linalg.conv_2d_nhwc_hwcf`, or `_fhwc` as TOSA's convolutions lower)
/// into a matmul of its pixels by its filter. Strided ones read every
/// stride-th pixel first, a strided slice.
template <typename ConvOp>
struct ConvertPointwiseConv : OpRewritePattern<ConvOp> {
  using OpRewritePattern<ConvOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    constexpr bool filterLast =
        std::is_same_v<ConvOp, linalg::Conv2DNhwcHwcfOp>;
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Value input = op.getDpsInputOperand(0)->get();
    Value filter = op.getDpsInputOperand(1)->get();
    Value init = op.getDpsInitOperand(0)->get();
    auto filterType = cast<RankedTensorType>(filter.getType());
    // The window's dims: [KH, KW, C, F] or [F, KH, KW, C].
    int64_t windowDim = filterLast ? 0 : 1;
    if (filterType.getDimSize(windowDim) != 1 ||
        filterType.getDimSize(windowDim + 1) != 1)
      return rewriter.notifyMatchFailure(op, "window is not 1x1");
    Type elementType = getElementTypeOrSelf(init.getType());
    if (getElementTypeOrSelf(input.getType()) != elementType ||
        filterType.getElementType() != elementType)
      return rewriter.notifyMatchFailure(op, "mixed element types");

    Location loc = op.getLoc();
    // The pixels the output reads: [0, OH) x [0, OW), every stride-th one.
    SmallVector<OpFoldResult> outputSizes =
        tensor::getMixedSizes(rewriter, loc, init);
    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, loc, input);
    SmallVector<int64_t> strides =
        llvm::to_vector(op.getStrides().template getValues<int64_t>());
    Value pixels = input;
    if (llvm::any_of(strides, [](int64_t stride) { return stride != 1; }) ||
        !isEqualConstantIntOrValue(inputSizes[1], outputSizes[1]) ||
        !isEqualConstantIntOrValue(inputSizes[2], outputSizes[2])) {
      SmallVector<OpFoldResult> sizes = {inputSizes[0], outputSizes[1],
                                         outputSizes[2], inputSizes[3]};
      SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> steps = {
          rewriter.getIndexAttr(1), rewriter.getIndexAttr(strides[0]),
          rewriter.getIndexAttr(strides[1]), rewriter.getIndexAttr(1)};
      pixels = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets,
                                              sizes, steps);
    }

    auto collapse = [&](Value value) -> Value {
      return tensor::CollapseShapeOp::create(rewriter, loc, value,
                                             getFirstThreeAsOne());
    };
    Value rows = collapse(pixels);
    Value weights = collapse(filter);
    Value acc = collapse(init);

    MLIRContext *context = rewriter.getContext();
    AffineExpr m, n, k;
    bindDims(context, m, n, k);
    SmallVector<AffineMap> maps = {
        AffineMap::get(3, 0, {m, k}, context),
        AffineMap::get(3, 0,
                       filterLast ? ArrayRef<AffineExpr>{k, n}
                                  : ArrayRef<AffineExpr>{n, k},
                       context),
        AffineMap::get(3, 0, {m, n}, context)};
    auto matmul =
        linalg::MatmulOp::create(rewriter, loc, TypeRange{acc.getType()},
                                 ValueRange{rows, weights}, ValueRange{acc});
    matmul.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, init.getType(), matmul.getResult(0), getFirstThreeAsOne(),
        outputSizes);
    return success();
  }
};

} // namespace

void populateConvertPointwiseConvsToMatmulsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConvertPointwiseConv<linalg::Conv2DNhwcHwcfOp>,
               ConvertPointwiseConv<linalg::Conv2DNhwcFhwcOp>>(
      patterns.getContext());
}

namespace {

struct ConvertPointwiseConvsToMatmulsPass
    : impl::ConvertPointwiseConvsToMatmulsPassBase<
          ConvertPointwiseConvsToMatmulsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateConvertPointwiseConvsToMatmulsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
