//===- Linear.cpp - ONNX contractions and convolutions --------------------===//
//
// MatMul and Gemm as linalg.matmul and batch_matmul (kiln packs their
// operands, and folds transposes next to them into the packs); Conv as the
// named channels-last convolutions kiln's kernels are fast in, the image
// transposed in and out of ONNX's channels-first layout and constant
// filters transposed while importing, with a generic convolution for the
// forms they do not cover.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"
#include "Import/ONNX/Ops/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln::onnx_import {

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

//===----------------------------------------------------------------------===//
// MatMul, Gemm
//===----------------------------------------------------------------------===//

/// The type a contraction or convolution producing `type` accumulates in:
/// half floats in f32, rounded once at the end, as ONNX Runtime and numpy
/// sum them.
Type getAccumulatorType(Type type) {
  if (type.isF16() || type.isBF16())
    return Float32Type::get(type.getContext());
  return type;
}

FailureOr<Value> buildMatmulIn(OpBuilder &b, Location loc, Value lhs,
                               Value rhs, Type resultType);

/// numpy's matmul of tensors of rank 2 or more: batch dimensions broadcast.
FailureOr<Value> buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                             Type resultType) {
  Type accumulator = getAccumulatorType(resultType);
  FailureOr<Value> product = buildMatmulIn(b, loc, lhs, rhs, accumulator);
  if (failed(product) || accumulator == resultType)
    return product;
  return convertElements(b, loc, *product, resultType, false, false);
}

FailureOr<Value> buildMatmulIn(OpBuilder &b, Location loc, Value lhs,
                               Value rhs, Type resultType) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  SmallVector<OpFoldResult> lhsSizes = getSizes(b, loc, lhs);
  SmallVector<OpFoldResult> rhsSizes = getSizes(b, loc, rhs);
  int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
  OpFoldResult m = lhsSizes[lhsRank - 2], k = lhsSizes[lhsRank - 1];
  OpFoldResult n = rhsSizes[rhsRank - 1];
  if (rhsRank == 2) {
    // Every batch is one matmul's rows.
    SmallVector<OpFoldResult> batch(lhsSizes.begin(), lhsSizes.end() - 2);
    OpFoldResult rows = getProduct(b, loc, ArrayRef(lhsSizes).drop_back());
    Value flat = lhsRank == 2 ? lhs : reshape(b, loc, lhs, {rows, k});
    Value init = createZeros(b, loc, {rows, n}, resultType);
    Value product =
        linalg::MatmulOp::create(b, loc, ValueRange{flat, rhs}, init)
            .getResult(0);
    if (lhsRank == 2)
      return product;
    batch.push_back(m);
    batch.push_back(n);
    return reshape(b, loc, product, batch);
  }
  // Batches broadcast against each other, then one batch_matmul.
  SmallVector<Value> batchShapes = {
      createEmpty(b, loc, ArrayRef(lhsSizes).drop_back(2), resultType),
      createEmpty(b, loc, ArrayRef(rhsSizes).drop_back(2), resultType)};
  FailureOr<SmallVector<OpFoldResult>> batch =
      getBroadcastSizes(b, loc, batchShapes);
  for (Value shape : batchShapes)
    shape.getDefiningOp()->erase();
  if (failed(batch))
    return failure();
  auto broadcastBatch = [&](Value operand, ArrayRef<OpFoldResult> sizes,
                            int64_t rank) -> FailureOr<Value> {
    SmallVector<OpFoldResult> wanted(*batch);
    wanted.append(sizes.end() - 2, sizes.end());
    bool same = rank == static_cast<int64_t>(wanted.size()) &&
                llvm::all_of(llvm::zip(sizes, wanted), [](auto pair) {
                  return getConstantIntValue(std::get<0>(pair)) ==
                             getConstantIntValue(std::get<1>(pair)) &&
                         getConstantIntValue(std::get<0>(pair));
                });
    if (same)
      return operand;
    return broadcastTo(b, loc, operand, wanted);
  };
  FailureOr<Value> lhsWide = broadcastBatch(lhs, lhsSizes, lhsRank);
  FailureOr<Value> rhsWide = broadcastBatch(rhs, rhsSizes, rhsRank);
  if (failed(lhsWide) || failed(rhsWide))
    return failure();
  OpFoldResult batchCount = getProduct(b, loc, *batch);
  Value lhs3 = reshape(b, loc, *lhsWide, {batchCount, m, k});
  Value rhs3 = reshape(b, loc, *rhsWide, {batchCount, k, n});
  Value init = createZeros(b, loc, {batchCount, m, n}, resultType);
  Value product =
      linalg::BatchMatmulOp::create(b, loc, ValueRange{lhs3, rhs3}, init)
          .getResult(0);
  SmallVector<OpFoldResult> sizes(*batch);
  sizes.push_back(m);
  sizes.push_back(n);
  return reshape(b, loc, product, sizes);
}

LogicalResult convertMatMul(NodeContext &ctx) {
  Value lhs = ctx.getInput(0), rhs = ctx.getInput(1);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type resultType = ctx.getOutputElementMLIRType(0);
  // Vectors become matrices of one row (left) or column (right), which the
  // result then drops.
  bool lhsVector = ctx.getInputType(0).getRank() == 1;
  bool rhsVector = ctx.getInputType(1).getRank() == 1;
  if (lhsVector)
    lhs = reshape(b, loc, lhs,
                  {b.getIndexAttr(1), getSizes(b, loc, lhs)[0]});
  if (rhsVector)
    rhs = reshape(b, loc, rhs,
                  {getSizes(b, loc, rhs)[0], b.getIndexAttr(1)});
  FailureOr<Value> product = buildMatmul(b, loc, lhs, rhs, resultType);
  if (failed(product))
    return ctx.fail("the batch dimensions do not broadcast");
  Value result = *product;
  if (lhsVector || rhsVector) {
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, result);
    int64_t rank = sizes.size();
    SmallVector<OpFoldResult> kept(sizes.begin(), sizes.end() - 2);
    if (!lhsVector)
      kept.push_back(sizes[rank - 2]);
    if (!rhsVector)
      kept.push_back(sizes[rank - 1]);
    result = reshape(b, loc, result, kept);
  }
  ctx.setOutput(0, result);
  return success();
}

LogicalResult convertGemm(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value lhs = ctx.getInput(0), rhs = ctx.getInput(1);
  if (ctx.getInputType(0).getRank() != 2 || ctx.getInputType(1).getRank() != 2)
    return ctx.fail("A and B must be matrices");
  if (ctx.getInt("transA", 0))
    lhs = transpose(b, loc, lhs, {1, 0});
  if (ctx.getInt("transB", 0))
    rhs = transpose(b, loc, rhs, {1, 0});
  Type elementType = ctx.getOutputElementMLIRType(0);
  FailureOr<Value> product = buildMatmul(b, loc, lhs, rhs, elementType);
  if (failed(product))
    return failure();
  double alpha = ctx.getFloat("alpha", 1.0f);
  double beta = ctx.getFloat("beta", 1.0f);
  bool hasBias = ctx.hasInput(2) && beta != 0;
  if (alpha == 1 && !hasBias) {
    ctx.setOutput(0, *product);
    return success();
  }
  SmallVector<Value> inputs = {*product};
  if (hasBias)
    inputs.push_back(ctx.getInput(2));
  FailureOr<Value> result = buildElementwise(
      b, loc, inputs, elementType,
      [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        bool fp = isFloat(elementType);
        auto mul = [&](Value v, double factor) -> Value {
          if (factor == 1)
            return v;
          Value f = createScalar(nb, nl, elementType, factor);
          return fp ? arith::MulFOp::create(nb, nl, v, f).getResult()
                    : arith::MulIOp::create(nb, nl, v, f).getResult();
        };
        Value value = mul(x[0], alpha);
        if (x.size() > 1) {
          Value bias = mul(x[1], beta);
          value = fp ? arith::AddFOp::create(nb, nl, value, bias).getResult()
                     : arith::AddIOp::create(nb, nl, value, bias).getResult();
        }
        return value;
      },
      getSizes(b, loc, *product));
  if (failed(result))
    return ctx.fail("C does not broadcast to the product");
  ctx.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// Conv
//===----------------------------------------------------------------------===//

/// A convolution in ONNX's own layout, for any number of spatial dimensions
/// and groups, on the image and filter split by group:
/// out[n, g, mg, o...] += in[n, g, c, o*s + k*d...] * w[g, mg, c, k...],
/// then merged back to [N, M, O...].
Value buildGenericConv(OpBuilder &b, Location loc, Value input, Value filter,
                       const Window &window, int64_t groups, Type resultType) {
  MLIRContext *context = b.getContext();
  auto filterType = cast<RankedTensorType>(filter.getType());
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> filterSizes = getSizes(b, loc, filter);
  int64_t spatial = window.kernel.size();
  int64_t channelsPerGroup = filterType.getDimSize(1);
  int64_t outputsPerGroup = filterType.getDimSize(0) / groups;
  OpFoldResult g = b.getIndexAttr(groups);
  SmallVector<OpFoldResult> groupedInputSizes = {
      inputSizes[0], g, b.getIndexAttr(channelsPerGroup)};
  groupedInputSizes.append(inputSizes.begin() + 2, inputSizes.end());
  SmallVector<OpFoldResult> groupedFilterSizes = {
      g, b.getIndexAttr(outputsPerGroup), b.getIndexAttr(channelsPerGroup)};
  groupedFilterSizes.append(filterSizes.begin() + 2, filterSizes.end());
  Value groupedInput = reshape(b, loc, input, groupedInputSizes);
  Value groupedFilter = reshape(b, loc, filter, groupedFilterSizes);
  // Loops: n, g, mg, o..., c, k...
  int64_t loops = 3 + 2 * spatial + 1;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> inputExprs = {dim(0), dim(1), dim(3 + spatial)};
  SmallVector<AffineExpr> filterExprs = {dim(1), dim(2), dim(3 + spatial)};
  SmallVector<AffineExpr> outputExprs = {dim(0), dim(1), dim(2)};
  SmallVector<OpFoldResult> outputSizes = {
      inputSizes[0], g, b.getIndexAttr(outputsPerGroup)};
  for (int64_t d = 0; d < spatial; ++d) {
    AffineExpr o = dim(3 + d), k = dim(4 + spatial + d);
    inputExprs.push_back(o * window.strides[d] + k * window.dilations[d]);
    filterExprs.push_back(k);
    outputExprs.push_back(o);
    int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
    outputSizes.push_back(getWindowOutputSize(b, loc, inputSizes[2 + d], 0,
                                              extent, window.strides[d]));
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(loops, 0, inputExprs, context),
      AffineMap::get(loops, 0, filterExprs, context),
      AffineMap::get(loops, 0, outputExprs, context)};
  SmallVector<utils::IteratorType> iterators(3 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(1 + spatial, utils::IteratorType::reduction);
  Value init = createZeros(b, loc, outputSizes, resultType);
  bool fp = isFloat(resultType);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{groupedInput, groupedFilter}, init,
      maps, iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value product =
            fp ? arith::MulFOp::create(nb, nl, args[0], args[1]).getResult()
               : arith::MulIOp::create(nb, nl, args[0], args[1]).getResult();
        Value sum =
            fp ? arith::AddFOp::create(nb, nl, product, args[2]).getResult()
               : arith::AddIOp::create(nb, nl, product, args[2]).getResult();
        linalg::YieldOp::create(nb, nl, sum);
      });
  SmallVector<OpFoldResult> resultSizes = {outputSizes[0], filterSizes[0]};
  resultSizes.append(outputSizes.begin() + 3, outputSizes.end());
  return reshape(b, loc, generic.getResult(0), resultSizes);
}

/// A 2-D convolution as kiln's kernels like it: channels last, the filter
/// as [kh, kw, C, M] (per channel for depthwise ones, [G, M/G, kh, kw, C/G]
/// for groups of channels). `input` is already padded, NHWC; the result is
/// NHWC.
FailureOr<Value> buildChannelsLastConv2D(OpBuilder &b, Location loc,
                                         Value input, Value filter,
                                         const Window &window, int64_t groups,
                                         Type resultType) {
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t channels = inputType.getDimSize(3);
  int64_t outputs = filterType.getDimSize(0);
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> outputSizes = {inputSizes[0]};
  for (int64_t d = 0; d < 2; ++d) {
    int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
    outputSizes.push_back(getWindowOutputSize(b, loc, inputSizes[1 + d], 0,
                                              extent, window.strides[d]));
  }
  auto strides = b.getI64TensorAttr(window.strides);
  auto dilations = b.getI64TensorAttr(window.dilations);
  int64_t kh = window.kernel[0], kw = window.kernel[1];
  if (groups == 1) {
    // [M, C, kh, kw] -> [kh, kw, C, M]
    Value hwcf = transpose(b, loc, filter, {2, 3, 1, 0});
    outputSizes.push_back(b.getIndexAttr(outputs));
    Value init = createZeros(b, loc, outputSizes, resultType);
    return linalg::Conv2DNhwcHwcfOp::create(b, loc, init.getType(),
                                            ValueRange{input, hwcf}, init,
                                            strides, dilations)
        .getResult(0);
  }
  if (groups == channels && !ShapedType::isDynamic(channels)) {
    int64_t multiplier = outputs / channels;
    if (multiplier == 1) {
      // [C, 1, kh, kw] -> [kh, kw, C]
      Value chw = reshape(b, loc, filter,
                          {b.getIndexAttr(channels), b.getIndexAttr(kh),
                           b.getIndexAttr(kw)});
      Value hwc = transpose(b, loc, chw, {1, 2, 0});
      outputSizes.push_back(b.getIndexAttr(channels));
      Value init = createZeros(b, loc, outputSizes, resultType);
      return linalg::DepthwiseConv2DNhwcHwcOp::create(
                 b, loc, init.getType(), ValueRange{input, hwc}, init, strides,
                 dilations)
          .getResult(0);
    }
    // [C*m, 1, kh, kw] -> [C, m, kh, kw] -> [kh, kw, C, m]; output channel
    // c*m + j is ONNX's.
    Value cmhw = reshape(b, loc, filter,
                         {b.getIndexAttr(channels), b.getIndexAttr(multiplier),
                          b.getIndexAttr(kh), b.getIndexAttr(kw)});
    Value hwcm = transpose(b, loc, cmhw, {2, 3, 0, 1});
    SmallVector<OpFoldResult> wideSizes = outputSizes;
    wideSizes.push_back(b.getIndexAttr(channels));
    wideSizes.push_back(b.getIndexAttr(multiplier));
    Value init = createZeros(b, loc, wideSizes, resultType);
    Value wide = linalg::DepthwiseConv2DNhwcHwcmOp::create(
                     b, loc, init.getType(), ValueRange{input, hwcm}, init,
                     strides, dilations)
                     .getResult(0);
    outputSizes.push_back(b.getIndexAttr(outputs));
    return reshape(b, loc, wide, outputSizes);
  }
  if (ShapedType::isDynamic(channels) || channels % groups != 0)
    return failure();
  // Groups of channels: the image as [N, H, W, G, C/G], the filter
  // [M, C/G, kh, kw] -> [G, M/G, C/G, kh, kw] -> [G, M/G, kh, kw, C/G].
  int64_t channelsPerGroup = channels / groups;
  int64_t outputsPerGroup = outputs / groups;
  SmallVector<OpFoldResult> groupedInputSizes(inputSizes.begin(),
                                              inputSizes.begin() + 3);
  groupedInputSizes.push_back(b.getIndexAttr(groups));
  groupedInputSizes.push_back(b.getIndexAttr(channelsPerGroup));
  Value groupedInput = reshape(b, loc, input, groupedInputSizes);
  Value gmchw =
      reshape(b, loc, filter,
              {b.getIndexAttr(groups), b.getIndexAttr(outputsPerGroup),
               b.getIndexAttr(channelsPerGroup), b.getIndexAttr(kh),
               b.getIndexAttr(kw)});
  Value gmhwc = transpose(b, loc, gmchw, {0, 1, 3, 4, 2});
  SmallVector<OpFoldResult> groupedSizes = outputSizes;
  groupedSizes.push_back(b.getIndexAttr(groups));
  groupedSizes.push_back(b.getIndexAttr(outputsPerGroup));
  Value init = createZeros(b, loc, groupedSizes, resultType);
  Value grouped = linalg::Conv2DNhwgcGfhwcOp::create(
                      b, loc, init.getType(), ValueRange{groupedInput, gmhwc},
                      init, strides, dilations)
                      .getResult(0);
  outputSizes.push_back(b.getIndexAttr(outputs));
  return reshape(b, loc, grouped, outputSizes);
}

LogicalResult convertConv(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0), filter = ctx.getInput(1);
  // Half floats convolve in f32 (see getAccumulatorType).
  Type outputType = ctx.getOutputElementMLIRType(0);
  Type accumulator = getAccumulatorType(outputType);
  if (accumulator != outputType) {
    input = convertElements(b, loc, input, accumulator, false, false);
    filter = convertElements(b, loc, filter, accumulator, false, false);
  }
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  int64_t rank = inputType.getRank();
  if (rank < 3 || filterType.getRank() != rank ||
      !filterType.hasStaticShape())
    return ctx.fail("needs an input of rank 3 or more and a filter of the "
                    "same rank with static sizes");
  int64_t spatial = rank - 2;
  int64_t groups = ctx.getInt("group", 1);
  if (groups <= 0 || filterType.getDimSize(0) % groups != 0)
    return ctx.fail("group " + Twine(groups) + " does not divide the " +
                    Twine(filterType.getDimSize(0)) + " output channels");
  FailureOr<Window> window = getWindow(ctx, inputType.getShape().drop_front(2),
                                       filterType.getShape().drop_front(2));
  if (failed(window))
    return failure();
  Type resultType = accumulator;
  Value zero = createScalar(b, loc, inputType.getElementType(), 0);
  Value bias = ctx.hasInput(2)
                   ? convertElements(b, loc, ctx.getInput(2), accumulator,
                                     false, false)
                   : Value();
  // The result in the output's type.
  auto finish = [&](Value value) {
    ctx.setOutput(0, convertElements(b, loc, value, outputType, false, false));
  };
  Value result;
  if (spatial == 2 && isFloat(resultType)) {
    // NCHW -> NHWC, padded there.
    Value nhwc = transpose(b, loc, input, {0, 2, 3, 1});
    SmallVector<int64_t> low = {0, window->padsBegin[0], window->padsBegin[1],
                                0};
    SmallVector<int64_t> high = {0, window->padsEnd[0], window->padsEnd[1], 0};
    Value padded = padWith(b, loc, nhwc, low, high, zero);
    FailureOr<Value> conv = buildChannelsLastConv2D(b, loc, padded, filter,
                                                    *window, groups,
                                                    resultType);
    if (succeeded(conv)) {
      if (bias)
        *conv = addAlongDimension(b, loc, *conv, bias, 3);
      finish(transpose(b, loc, *conv, {0, 3, 1, 2}));
      return success();
    }
  }
  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  llvm::append_range(low, window->padsBegin);
  llvm::append_range(high, window->padsEnd);
  Value padded = padWith(b, loc, input, low, high, zero);
  result = buildGenericConv(b, loc, padded, filter, *window, groups,
                            resultType);
  if (bias)
    result = addAlongDimension(b, loc, result, bias, 1);
  finish(result);
  return success();
}

} // namespace

void registerLinearConverters(ConverterTable &table) {
  table["MatMul"] = convertMatMul;
  table["Gemm"] = convertGemm;
  table["Conv"] = convertConv;
}

} // namespace mlir::kiln::onnx_import
