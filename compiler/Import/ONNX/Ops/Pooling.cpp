//===- Pooling.cpp - ONNX pools ---------------------------------------------===//
//
// MaxPool, AveragePool and LpPool over any number of spatial dimensions in
// ONNX's channels-first layout: a linalg.generic reducing each window (its
// extent given by an empty tensor of the kernel's shape, as linalg's named
// pools do); the global pools are reductions over the spatial dimensions.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"
#include "Import/ONNX/Ops/Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln::onnx_import {

namespace {

enum class Pool { Max, Average, Lp };

/// The output sizes of a pool, and the pads its windows need at the end of
/// each spatial dimension for them (more than given with ceil_mode).
struct PoolShape {
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> padsEnd;
};

FailureOr<PoolShape> getPoolShape(NodeContext &ctx, Value input,
                                  const Window &window, bool ceilMode) {
  OpBuilder &b = ctx.builder;
  SmallVector<OpFoldResult> inputSizes = getSizes(b, ctx.loc, input);
  PoolShape shape;
  shape.sizes = {inputSizes[0], inputSizes[1]};
  for (size_t d = 0; d < window.kernel.size(); ++d) {
    int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
    int64_t pads = window.padsBegin[d] + window.padsEnd[d];
    int64_t padEnd = window.padsEnd[d];
    std::optional<int64_t> in = getConstantIntValue(inputSizes[2 + d]);
    if (!ceilMode || !in) {
      if (ceilMode)
        return ctx.fail("ceil_mode needs static spatial sizes");
      shape.sizes.push_back(getWindowOutputSize(b, ctx.loc, inputSizes[2 + d],
                                                pads, extent,
                                                window.strides[d]));
      shape.padsEnd.push_back(padEnd);
      continue;
    }
    int64_t stride = window.strides[d];
    int64_t out = (*in + pads - extent + stride - 1) / stride + 1;
    // A last window starting past the input and its leading pad is
    // dropped.
    if ((out - 1) * stride >= *in + window.padsBegin[d])
      --out;
    shape.sizes.push_back(b.getIndexAttr(out));
    shape.padsEnd.push_back(std::max<int64_t>(
        padEnd, (out - 1) * stride + extent - *in - window.padsBegin[d]));
  }
  return shape;
}

/// Reduces each window of `padded` (already padded) with `combine` from
/// `init`, into a tensor of `sizes`.
Value buildWindowReduction(OpBuilder &b, Location loc, Value padded,
                           const Window &window, ArrayRef<OpFoldResult> sizes,
                           Value init, CombineBody combine) {
  MLIRContext *context = b.getContext();
  int64_t spatial = window.kernel.size();
  int64_t loops = 2 + 2 * spatial;
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };
  SmallVector<AffineExpr> inputExprs = {dim(0), dim(1)};
  SmallVector<AffineExpr> windowExprs, outputExprs = {dim(0), dim(1)};
  for (int64_t d = 0; d < spatial; ++d) {
    AffineExpr o = dim(2 + d), k = dim(2 + spatial + d);
    inputExprs.push_back(o * window.strides[d] + k * window.dilations[d]);
    windowExprs.push_back(k);
    outputExprs.push_back(o);
  }
  Type elementType = init.getType();
  Value windowShape = tensor::EmptyOp::create(b, loc, window.kernel,
                                              elementType);
  Value filled = createFilled(b, loc, sizes, init);
  SmallVector<AffineMap> maps = {
      AffineMap::get(loops, 0, inputExprs, context),
      AffineMap::get(loops, 0, windowExprs, context),
      AffineMap::get(loops, 0, outputExprs, context)};
  SmallVector<utils::IteratorType> iterators(2 + spatial,
                                             utils::IteratorType::parallel);
  iterators.append(spatial, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, filled.getType(), ValueRange{padded, windowShape}, filled, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, combine(nb, nl, args[0], args[2]));
      });
  return generic.getResult(0);
}

/// How many elements of the window at each output position count for an
/// average: those inside the input, or also those in the given pads.
Value countWindowElements(OpBuilder &b, Location loc,
                          ArrayRef<OpFoldResult> inputSizes,
                          const Window &window, bool includePads,
                          ValueRange outputIndices, Type elementType) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (size_t d = 0; d < window.kernel.size(); ++d) {
    // Positions start + k * dilation, k in [0, kernel), inside [low, high).
    Value start = arith::SubIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, outputIndices[d],
            arith::ConstantIndexOp::create(b, loc, window.strides[d])),
        arith::ConstantIndexOp::create(b, loc, window.padsBegin[d]));
    Value in = getIndexValue(b, loc, inputSizes[2 + d]);
    Value low = includePads ? arith::ConstantIndexOp::create(
                                  b, loc, -window.padsBegin[d])
                                  .getResult()
                            : zero;
    Value high = includePads ? arith::AddIOp::create(
                                   b, loc, in,
                                   arith::ConstantIndexOp::create(
                                       b, loc, window.padsEnd[d]))
                                   .getResult()
                             : in;
    Value dilation =
        arith::ConstantIndexOp::create(b, loc, window.dilations[d]);
    // First k with start + k*dil >= low: ceil((low - start) / dil), >= 0.
    Value first = arith::MaxSIOp::create(
        b, loc,
        arith::CeilDivSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, low, start), dilation),
        zero);
    // One past the last k with start + k*dil < high, <= kernel.
    Value end = arith::MinSIOp::create(
        b, loc,
        arith::CeilDivSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, high, start), dilation),
        arith::ConstantIndexOp::create(b, loc, window.kernel[d]));
    Value inside = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, end, first), zero);
    count = arith::MulIOp::create(b, loc, count, inside);
  }
  return convertScalar(b, loc, count, elementType, false, false);
}

template <Pool kind>
LogicalResult convertPool(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  if (type.getRank() < 3)
    return ctx.fail("needs an input of rank 3 or more");
  if (kind == Pool::Max && ctx.hasOutput(1))
    return ctx.fail("the Indices output is not supported");
  Type elementType = type.getElementType();
  FailureOr<Window> window =
      getWindow(ctx, type.getShape().drop_front(2), {});
  if (failed(window))
    return failure();
  if (window->kernel.size() + 2 != static_cast<size_t>(type.getRank()))
    return ctx.fail("kernel_shape must cover the spatial dimensions");
  bool ceilMode = ctx.getInt("ceil_mode", 0);
  FailureOr<PoolShape> shape = getPoolShape(ctx, input, *window, ceilMode);
  if (failed(shape))
    return failure();
  bool isUnsigned = ctx.isUnsignedInput(0);
  // Max pads with the lowest value, the others with 0.
  Value padValue = kind == Pool::Max
                       ? createLowest(b, loc, elementType, isUnsigned)
                       : createScalar(b, loc, elementType, 0);
  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  llvm::append_range(low, window->padsBegin);
  llvm::append_range(high, shape->padsEnd);
  Value padded = padWith(b, loc, input, low, high, padValue);
  int64_t p = ctx.getInt("p", 2);
  Value result = buildWindowReduction(
      b, loc, padded, *window, shape->sizes, padValue,
      [&](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
        if (kind == Pool::Max)
          return combineElements(nb, nl, Combine::Max, x, acc, isUnsigned);
        if (kind == Pool::Lp)
          x = math::PowFOp::create(nb, nl, math::AbsFOp::create(nb, nl, x),
                                   createScalar(nb, nl, elementType, p));
        return arith::AddFOp::create(nb, nl, x, acc);
      });
  if (kind == Pool::Lp) {
    result = *buildElementwise(
        b, loc, result, elementType,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          return math::PowFOp::create(nb, nl, x[0],
                                      createScalar(nb, nl, elementType,
                                                   1.0 / p));
        },
        shape->sizes);
  } else if (kind == Pool::Average) {
    bool includePads = ctx.getInt("count_include_pad", 0);
    SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
    int64_t rank = type.getRank();
    Value empty = createEmpty(b, loc, shape->sizes, elementType);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank,
                                                           b.getContext());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    result = linalg::GenericOp::create(
                 b, loc, empty.getType(), result, empty,
                 ArrayRef<AffineMap>{identity, identity}, iterators,
                 [&](OpBuilder &nb, Location nl, ValueRange args) {
                   SmallVector<Value> indices;
                   for (int64_t d = 2; d < rank; ++d)
                     indices.push_back(linalg::IndexOp::create(nb, nl, d));
                   Value count = countWindowElements(
                       nb, nl, inputSizes, *window, includePads, indices,
                       elementType);
                   linalg::YieldOp::create(
                       nb, nl,
                       arith::DivFOp::create(nb, nl, args[0], count)
                           .getResult());
                 })
                 .getResult(0);
  }
  ctx.setOutput(0, result);
  return success();
}

template <Pool kind>
LogicalResult convertGlobalPool(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  if (rank < 3)
    return ctx.fail("needs an input of rank 3 or more");
  Type elementType = type.getElementType();
  bool isUnsigned = ctx.isUnsignedInput(0);
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
  Value init = kind == Pool::Max
                   ? createLowest(b, loc, elementType, isUnsigned)
                   : createScalar(b, loc, elementType, 0);
  int64_t p = ctx.getInt("p", 2);
  Value result = buildReduction(
      b, loc, input, axes, init,
      [&](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
        if (kind == Pool::Max)
          return combineElements(nb, nl, Combine::Max, x, acc, isUnsigned);
        if (kind == Pool::Lp)
          x = math::PowFOp::create(nb, nl, math::AbsFOp::create(nb, nl, x),
                                   createScalar(nb, nl, elementType, p));
        return arith::AddFOp::create(nb, nl, x, acc);
      });
  if (kind != Pool::Max) {
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
    Value count = getIndexValue(
        b, loc, getProduct(b, loc, ArrayRef(sizes).drop_front(2)));
    Value divisor = convertScalar(b, loc, count, elementType, false, false);
    result = *buildElementwise(
        b, loc, result, elementType,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          if (kind == Pool::Lp)
            return math::PowFOp::create(nb, nl, x[0],
                                        createScalar(nb, nl, elementType,
                                                     1.0 / p));
          return arith::DivFOp::create(nb, nl, x[0], divisor);
        },
        getSizes(b, loc, result));
  }
  ctx.setOutput(0, insertUnitDims(b, loc, result, axes));
  return success();
}

} // namespace

void registerPoolingConverters(ConverterTable &table) {
  table["MaxPool"] = convertPool<Pool::Max>;
  table["AveragePool"] = convertPool<Pool::Average>;
  table["LpPool"] = convertPool<Pool::Lp>;
  table["GlobalMaxPool"] = convertGlobalPool<Pool::Max>;
  table["GlobalAveragePool"] = convertGlobalPool<Pool::Average>;
  table["GlobalLpPool"] = convertGlobalPool<Pool::Lp>;
}

} // namespace mlir::kiln::onnx_import
