//===- ConvertConvsToMatmuls.cpp - convolutions as matmuls ----------------===//
//
// A convolution with a 1x1 filter multiplies each pixel's channels by one
// matrix: on channels-last images it is a matmul of the pixels (rows) by the
// filter. As a matmul it gets the packed layouts data tiling gives
// contractions (constant weights packed at compile time) and the kernels
// tuned for them, instead of a direct convolution whose rows are one image
// row wide (14 or 7 pixels in a ResNet's late stages). A convolution whose
// filter is too large for L2 is a matmul of its patches, for the same
// reasons. One over groups of channels is a direct convolution over its
// groups' outputs where its window spans pixels and its filter is small,
// else a contraction per group of its patches.
//
//===----------------------------------------------------------------------===//

#include "GlobalOpt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTCONVSTOMATMULSPASS
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

/// Filter bytes from which a windowed convolution is a matmul on its
/// patches: past them the filter does not stay in L2 while a direct
/// convolution sweeps the image (a ResNet's late 3x3 stages, 2.25 and 9
/// MiB; ViT's 16x16 patch embedding, 2.25 MiB).
constexpr int64_t kMinPatchMatmulFilterBytes = int64_t(1) << 20;

/// Bytes of patches at most: each input pixel is copied once per filter tap
/// that reads it.
constexpr int64_t kMaxPatchBytes = int64_t(64) << 20;

/// A convolution's operands, on tensors of one element type (an integer or
/// a float) and static sizes, but for the batch (the image's and the
/// result's first dim) where `dynamicBatch`.
struct ConvOperands {
  Value input, filter, init;
  RankedTensorType inputType, filterType, initType;
  Type elementType;
  int64_t elementBytes;
};

FailureOr<ConvOperands> getConvOperands(linalg::LinalgOp op,
                                        bool dynamicBatch) {
  if (!op.hasPureTensorSemantics())
    return failure();
  Type elementType = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!elementType.isIntOrFloat())
    return failure();
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = cast<RankedTensorType>(operand.get().getType());
    bool isFilter = operand.getOperandNumber() == 1;
    if (type.getElementType() != elementType ||
        llvm::any_of(llvm::enumerate(type.getShape()), [&](auto dim) {
          return ShapedType::isDynamic(dim.value()) &&
                 !(dynamicBatch && !isFilter && dim.index() == 0);
        }))
      return failure();
  }
  ConvOperands conv;
  conv.input = op.getDpsInputOperand(0)->get();
  conv.filter = op.getDpsInputOperand(1)->get();
  conv.init = op.getDpsInitOperand(0)->get();
  conv.inputType = cast<RankedTensorType>(conv.input.getType());
  conv.filterType = cast<RankedTensorType>(conv.filter.getType());
  conv.initType = cast<RankedTensorType>(conv.init.getType());
  conv.elementType = elementType;
  conv.elementBytes = llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
  return conv;
}

/// The images of a result of `shape` ([N, ...]) its patches are planned
/// for: a batch known only at run time counts as one.
int64_t getImagesPlanned(ArrayRef<int64_t> shape) {
  return ShapedType::isDynamic(shape.front()) ? 1 : shape.front();
}

/// A convolution's patches: a tensor of `sizes` whose every element is the
/// element of `input` that `inputMap` (a window over it) reads.
Value copyPatches(OpBuilder &b, Location loc, Value input, AffineMap inputMap,
                  ArrayRef<OpFoldResult> sizes) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes,
                                        getElementTypeOrSelf(input.getType()));
  SmallVector<AffineMap> maps = {inputMap, AffineMap::getMultiDimIdentityMap(
                                               sizes.size(), b.getContext())};
  return linalg::GenericOp::create(
             b, loc, empty.getType(), input, empty, maps,
             SmallVector<utils::IteratorType>(sizes.size(),
                                              utils::IteratorType::parallel),
             [](OpBuilder &nb, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(nb, nestedLoc, args[0]);
             })
      .getResult(0);
}

/// Rewrites a channels-last 2-D convolution with a large filter
/// (`linalg.conv_2d_nhwc_hwcf`, static sizes but for the batch) into a
/// matmul of its patches,
/// [N*OH*OW, KH*KW*C], copied from the input, by its filter, [KH*KW*C, F].
/// The copy is a plain generic (each patch element reads the input through
/// an affine map), and the matmul is packed as any other, its constant
/// filter at compile time.
struct ConvertWindowedConv : OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ConvOperands> conv = getConvOperands(op, /*dynamicBatch=*/true);
    if (failed(conv))
      return rewriter.notifyMatchFailure(op, "not static, or mixed types");
    auto [input, filter, init, inputType, filterType, initType, elementType,
          elementBytes] = *conv;
    ArrayRef<int64_t> window = filterType.getShape();
    ArrayRef<int64_t> output = initType.getShape();
    int64_t taps = window[0] * window[1] * window[2];
    int64_t rows = getImagesPlanned(output) * output[1] * output[2];
    if (window[0] * window[1] == 1 ||
        filterType.getNumElements() * elementBytes <
            kMinPatchMatmulFilterBytes ||
        rows * taps * elementBytes > kMaxPatchBytes)
      return rewriter.notifyMatchFailure(op, "filter too small for patches");

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<int64_t> strides =
        llvm::to_vector(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations =
        llvm::to_vector(op.getDilations().getValues<int64_t>());
    // patches[n, oh, ow, kh, kw, c] = input[n, oh*s + kh*d, ow*s + kw*d, c]
    AffineExpr n, oh, ow, kh, kw, c;
    bindDims(context, n, oh, ow, kh, kw, c);
    Value patches = copyPatches(
        rewriter, loc, input,
        AffineMap::get(6, 0,
                       {n, oh * strides[0] + kh * dilations[0],
                        ow * strides[1] + kw * dilations[1], c},
                       context),
        {tensor::getMixedSize(rewriter, loc, init, 0),
         rewriter.getIndexAttr(output[1]), rewriter.getIndexAttr(output[2]),
         rewriter.getIndexAttr(window[0]), rewriter.getIndexAttr(window[1]),
         rewriter.getIndexAttr(window[2])});
    Value lhs = tensor::CollapseShapeOp::create(
        rewriter, loc, patches,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
    Value rhs = tensor::CollapseShapeOp::create(rewriter, loc, filter,
                                                getFirstThreeAsOne());
    Value acc = tensor::CollapseShapeOp::create(rewriter, loc, init,
                                                getFirstThreeAsOne());
    auto matmul =
        linalg::MatmulOp::create(rewriter, loc, TypeRange{acc.getType()},
                                 ValueRange{lhs, rhs}, ValueRange{acc});
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, initType, matmul.getResult(0), getFirstThreeAsOne(),
        tensor::getMixedSizes(rewriter, loc, init));
    return success();
  }
};

/// Whether a grouped convolution of `filterType` ([G, M/G, KH, KW, C/G]) runs
/// direct: a window of several pixels and a filter that stays in L2 while
/// the convolution sweeps the image (as for one over all channels).
bool isDirectGroupedConv(RankedTensorType filterType, int64_t elementBytes) {
  ArrayRef<int64_t> window = filterType.getShape();
  return window[2] * window[3] > 1 &&
         filterType.getNumElements() * elementBytes <
             kMinPatchMatmulFilterBytes;
}

/// Rewrites a channels-last 2-D convolution over groups of channels
/// (`linalg.conv_2d_nhwgc_gfhwc`, static sizes but for the batch) whose
/// window spans several pixels and whose filter is small into a direct
/// convolution over [G, M/G] channels: a generic whose filter is laid out
/// [KH, KW, C/G, G, M/G] (a constant one transposed at compile time), so
/// that each step of a tap and an input channel multiplies a vector of a
/// group's outputs by the input element broadcast. As a contraction of its
/// patches (a group's K only KH*KW*C/G) it copied each input pixel once per
/// tap, out of L2 for a 56x56 image: ResNeXt50's first-stage convolution
/// (32 groups of 4 channels; 1 thread, a Xeon reporting CPUID model 167)
/// took 3.8 ms of copies and packed contractions in AVX-512 code, 3.4 ms in
/// AVX2 code; direct, 0.53 and 0.59 ms.
struct ConvertGroupedConvToDirect
    : OpRewritePattern<linalg::Conv2DNhwgcGfhwcOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwgcGfhwcOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ConvOperands> conv = getConvOperands(op, /*dynamicBatch=*/true);
    if (failed(conv))
      return rewriter.notifyMatchFailure(op, "not static, or mixed types");
    auto [input, filter, init, inputType, filterType, initType, elementType,
          elementBytes] = *conv;
    if (!isDirectGroupedConv(filterType, elementBytes))
      return rewriter.notifyMatchFailure(op, "one pixel, or a large filter");

    // The convolution's own generic (its maps and body), reading the filter
    // transposed: [G, M/G, KH, KW, C/G] -> [KH, KW, C/G, G, M/G].
    constexpr std::array<int64_t, 5> kFilterPermutation = {2, 3, 4, 0, 1};
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value transposedInit = tensor::EmptyOp::create(
        rewriter, loc,
        applyPermutation(filterType.getShape(), kFilterPermutation),
        elementType);
    Value transposed =
        linalg::TransposeOp::create(rewriter, loc, filter, transposedInit,
                                    kFilterPermutation)
            .getResult()
            .front();
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return failure();
    OpOperand *filterOperand = generic->getDpsInputOperand(1);
    AffineMap filterMap = generic->getMatchingIndexingMap(filterOperand);
    SmallVector<AffineMap> maps = generic->getIndexingMapsArray();
    maps[filterOperand->getOperandNumber()] = AffineMap::get(
        filterMap.getNumDims(), 0,
        applyPermutation(filterMap.getResults(), kFilterPermutation),
        rewriter.getContext());
    rewriter.modifyOpInPlace(*generic, [&] {
      filterOperand->set(transposed);
      generic->setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// Outputs per group from which a grouped convolution's contraction keeps
/// them as its columns (vectors along a group's outputs): with 4, a tile's
/// columns were three-quarters padding in AVX-512 code, and the pixels as
/// columns took 0.84x the time (measured on ResNeXt50's first stage, 56x56
/// pixels, 32 groups of 4 channels, 3x3, as a contraction, 1 thread; 0.75x
/// in AVX2 code); with 8 they took 1.37x in AVX-512 code and 1.48x in AVX2
/// code. Such a 3x3 convolution now runs direct; the contraction remains
/// for one-pixel windows and large filters.
constexpr int64_t kMinOutputsPerGroupAsColumns = 8;

/// Rewrites a channels-last 2-D convolution over groups of channels
/// (`linalg.conv_2d_nhwgc_gfhwc`, static sizes but for the batch) into a
/// contraction per group of its patches, [N*OH*OW, G, KH*KW*C/G], by the
/// group's filter, [G, M/G, KH*KW*C/G]: a batch loop over groups that data
/// tiling packs as any other, the constant filter at compile time, where the
/// convolution itself would run as a loop nest of scalars.
struct ConvertGroupedConv : OpRewritePattern<linalg::Conv2DNhwgcGfhwcOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwgcGfhwcOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ConvOperands> conv = getConvOperands(op, /*dynamicBatch=*/true);
    if (failed(conv))
      return rewriter.notifyMatchFailure(op, "not static, or mixed types");
    auto [input, filter, init, inputType, filterType, initType, elementType,
          elementBytes] = *conv;
    // [G, M/G, KH, KW, C/G] and [N, OH, OW, G, M/G].
    ArrayRef<int64_t> window = filterType.getShape();
    ArrayRef<int64_t> output = initType.getShape();
    bool dynamicBatch = ShapedType::isDynamic(output[0]);
    int64_t rows = getImagesPlanned(output) * output[1] * output[2];
    int64_t taps = window[2] * window[3] * window[4];
    if (isDirectGroupedConv(filterType, elementBytes))
      return rewriter.notifyMatchFailure(op, "runs direct");
    if (rows * window[0] * taps * elementBytes > kMaxPatchBytes)
      return rewriter.notifyMatchFailure(op, "too many patches");

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    SmallVector<int64_t> strides =
        llvm::to_vector(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations =
        llvm::to_vector(op.getDilations().getValues<int64_t>());
    // patches[n, oh, ow, g, kh, kw, c] =
    //     input[n, oh*s + kh*d, ow*s + kw*d, g, c]
    // (the input itself where the window is one pixel and reads them all).
    AffineExpr n, oh, ow, g, kh, kw, c;
    bindDims(context, n, oh, ow, g, kh, kw, c);
    bool patchesAreInput = window[2] == 1 && window[3] == 1 &&
                           inputType.getDimSize(1) == output[1] &&
                           inputType.getDimSize(2) == output[2] &&
                           strides[0] == 1 && strides[1] == 1;
    Value lhs;
    if (patchesAreInput) {
      lhs = tensor::CollapseShapeOp::create(
          rewriter, loc, input,
          SmallVector<ReassociationIndices>{{0, 1, 2}, {3}, {4}});
    } else {
      Value patches = copyPatches(
          rewriter, loc, input,
          AffineMap::get(7, 0,
                         {n, oh * strides[0] + kh * dilations[0],
                          ow * strides[1] + kw * dilations[1], g, c},
                         context),
          {tensor::getMixedSize(rewriter, loc, init, 0),
           rewriter.getIndexAttr(output[1]), rewriter.getIndexAttr(output[2]),
           rewriter.getIndexAttr(window[0]), rewriter.getIndexAttr(window[2]),
           rewriter.getIndexAttr(window[3]), rewriter.getIndexAttr(window[4])});
      lhs = tensor::CollapseShapeOp::create(
          rewriter, loc, patches,
          SmallVector<ReassociationIndices>{{0, 1, 2}, {3}, {4, 5, 6}});
    }
    Value rhs = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3, 4}});
    SmallVector<ReassociationIndices> resultDims = {{0, 1, 2}, {3}, {4}};
    Value acc =
        tensor::CollapseShapeOp::create(rewriter, loc, init, resultDims);

    // result[m, g, f] += lhs[m, g, k] * rhs[g, f, k]; with few outputs per
    // group the filter is the LHS, so that the packed tiles' vectors run
    // along the pixels rather than padding a group's outputs to a vector
    // (not for a batch known only at run time: data tiling takes only the
    // rows of an LHS as dynamic).
    AffineExpr m, f, k;
    bindDims(context, m, g, f, k);
    SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {m, g, k}, context),
                                   AffineMap::get(4, 0, {g, f, k}, context),
                                   AffineMap::get(4, 0, {m, g, f}, context)};
    SmallVector<Value> operands = {lhs, rhs};
    if (window[1] < kMinOutputsPerGroupAsColumns && !dynamicBatch) {
      std::swap(maps[0], maps[1]);
      std::swap(operands[0], operands[1]);
    }
    auto contraction = linalg::ContractOp::create(
        rewriter, loc, TypeRange{acc.getType()}, operands, ValueRange{acc},
        rewriter.getAffineMapArrayAttr(maps));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, initType, contraction.getResult(0), resultDims,
        tensor::getMixedSizes(rewriter, loc, init));
    return success();
  }
};

} // namespace

void populateConvertConvsToMatmulsPatterns(RewritePatternSet &patterns) {
  patterns
      .add<ConvertPointwiseConv<linalg::Conv2DNhwcHwcfOp>,
           ConvertPointwiseConv<linalg::Conv2DNhwcFhwcOp>, ConvertWindowedConv,
           ConvertGroupedConv, ConvertGroupedConvToDirect>(
          patterns.getContext());
}

namespace {

struct ConvertConvsToMatmulsPass
    : impl::ConvertConvsToMatmulsPassBase<ConvertConvsToMatmulsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateConvertConvsToMatmulsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
