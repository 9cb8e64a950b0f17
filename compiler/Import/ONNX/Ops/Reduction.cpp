//===- Reduction.cpp - ONNX ops that reduce along axes --------------------===//
//
// Reduce*, ArgMax and ArgMin, Softmax, LogSoftmax and Hardmax, CumSum and
// CumProd: linalg.generic reductions, with the element maps the ops apply
// before and after reducing fused into elementwise generics.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::kiln::onnx_import {

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

/// The axes a Reduce* node reduces over: known while importing
/// (ascending; empty with noop_with_empty_axes means none, the ops' element
/// maps still applying), or given as a tensor the program reads as it runs
/// (`mask`: 1 for each dimension reduced, 0 for the others).
struct ReduceAxes {
  SmallVector<int64_t> axes;
  std::optional<SmallVector<OpFoldResult>> mask;
};

FailureOr<ReduceAxes> getReduceAxes(NodeContext &ctx, int64_t rank) {
  ReduceAxes result;
  SmallVector<int64_t> &axes = result.axes;
  if (ctx.hasInput(1)) {
    std::optional<SmallVector<int64_t>> values = ctx.getConstantInts(1);
    RankedTensorType type = ctx.getInputType(1);
    if (!values && type.hasStaticShape() && type.getNumElements() == 0)
      values.emplace();
    if (!values && type.hasStaticShape()) {
      FailureOr<SmallVector<OpFoldResult>> read = ctx.getIndexValues(1);
      if (failed(read))
        return failure();
      result.mask = getAxesMask(ctx.builder, ctx.loc, *read, rank);
      return result;
    }
    if (!values)
      return ctx.fail("axes must be a constant or a 1-D tensor of static "
                      "size");
    axes = *values;
  } else if (ctx.hasAttribute("axes")) {
    axes = ctx.getInts("axes");
  }
  if (axes.empty()) {
    if (!ctx.getInt("noop_with_empty_axes", 0))
      axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    return result;
  }
  for (int64_t &axis : axes) {
    FailureOr<int64_t> normalized = ctx.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    axis = *normalized;
  }
  llvm::sort(axes);
  axes.erase(llvm::unique(axes), axes.end());
  return result;
}

enum class Reduce { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp,
                    SumSquare };

Value elementwise(OpBuilder &b, Location loc, Value input, ElementBody body) {
  auto type = cast<RankedTensorType>(input.getType());
  return *buildElementwise(b, loc, input, type.getElementType(), body,
                           getSizes(b, loc, input));
}

template <Reduce kind>
LogicalResult convertReduce(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  Type elementType = type.getElementType();
  bool isUnsigned = ctx.isUnsignedInput(0);
  FailureOr<ReduceAxes> reduceAxes = getReduceAxes(ctx, rank);
  if (failed(reduceAxes))
    return failure();
  ArrayRef<int64_t> axes = reduceAxes->axes;
  const std::optional<SmallVector<OpFoldResult>> &mask = reduceAxes->mask;
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  if ((kind == Reduce::LogSum || kind == Reduce::LogSumExp ||
       kind == Reduce::L2) &&
      !isFloat(elementType))
    return ctx.fail("needs floating-point elements");
  // No axes (noop_with_empty_axes): the reductions without an element map
  // return their input.
  if (!mask && axes.empty() &&
      (kind == Reduce::Sum || kind == Reduce::Mean || kind == Reduce::Max ||
       kind == Reduce::Min || kind == Reduce::Prod)) {
    ctx.setOutput(0, input);
    return success();
  }

  // Axes read as the program runs keep every dimension until the end;
  // `extras` are read at the result's place.
  auto reduce = [&](Value from, Value init, MaskedCombineBody combine,
                    ValueRange extras = {}) -> Value {
    if (mask)
      return buildMaskedReduction(b, loc, from, *mask, init, combine, extras);
    return buildReduction(b, loc, from, axes, init,
                          [&](OpBuilder &nb, Location nl, Value x, Value acc) {
                            return combine(nb, nl, x, {}, acc);
                          });
  };

  // The largest element, which LogSumExp subtracts before exponentiating.
  Value maximum;
  if (kind == Reduce::LogSumExp) {
    Value lowest = createLowest(b, loc, elementType, false);
    maximum = reduce(
        input, lowest,
        [&](OpBuilder &nb, Location nl, Value x, ValueRange,
            Value acc) -> Value {
          // Infinities do not shift the others.
          Value isInf = arith::CmpFOp::create(
              nb, nl, arith::CmpFPredicate::OEQ, math::AbsFOp::create(nb, nl, x),
              createHighest(nb, nl, elementType, false));
          Value value = arith::SelectOp::create(
              nb, nl, isInf, createLowest(nb, nl, elementType, false), x);
          return arith::MaximumFOp::create(nb, nl, value, acc);
        });
    // An all -inf (or empty) slice shifts by 0.
    maximum = elementwise(b, loc, maximum,
                          [&](OpBuilder &nb, Location nl, ValueRange m) -> Value {
                            Value isLowest = arith::CmpFOp::create(
                                nb, nl, arith::CmpFPredicate::OEQ, m[0],
                                createLowest(nb, nl, elementType, false));
                            return arith::SelectOp::create(
                                nb, nl, isLowest,
                                createScalar(nb, nl, elementType, 0), m[0]);
                          });
    if (!mask) {
      // Broadcast back over the reduced axes to shift the input.
      Value shift = insertUnitDims(b, loc, maximum, axes);
      FailureOr<Value> shifted = buildElementwise(
          b, loc, {input, shift}, elementType,
          [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
            return arith::SubFOp::create(nb, nl, x[0], x[1]);
          },
          getSizes(b, loc, input));
      input = *shifted;
    }
  }

  Value init;
  switch (kind) {
  case Reduce::Max:
    init = createLowest(b, loc, elementType, isUnsigned);
    break;
  case Reduce::Min:
    init = createHighest(b, loc, elementType, isUnsigned);
    break;
  case Reduce::Prod:
    init = createScalar(b, loc, elementType, 1);
    break;
  default:
    init = createScalar(b, loc, elementType, 0);
    break;
  }
  // With axes read as the program runs, LogSumExp shifts in the reduction.
  SmallVector<Value> extras;
  if (kind == Reduce::LogSumExp && mask)
    extras.push_back(maximum);
  Value result = reduce(
      input, init,
      [&](OpBuilder &nb, Location nl, Value x, ValueRange shift,
          Value acc) -> Value {
        bool fp = isFloat(elementType);
        switch (kind) {
        case Reduce::Max:
          return combineElements(nb, nl, Combine::Max, x, acc, isUnsigned);
        case Reduce::Min:
          return combineElements(nb, nl, Combine::Min, x, acc, isUnsigned);
        case Reduce::Prod:
          return combineElements(nb, nl, Combine::Mul, x, acc, isUnsigned);
        case Reduce::L1:
          if (fp)
            x = math::AbsFOp::create(nb, nl, x);
          else if (!isUnsigned)
            x = math::AbsIOp::create(nb, nl, x);
          break;
        case Reduce::L2:
        case Reduce::SumSquare:
          x = fp ? arith::MulFOp::create(nb, nl, x, x).getResult()
                 : arith::MulIOp::create(nb, nl, x, x).getResult();
          break;
        case Reduce::LogSumExp:
          if (!shift.empty())
            x = arith::SubFOp::create(nb, nl, x, shift[0]);
          x = math::ExpOp::create(nb, nl, x);
          break;
        default:
          break;
        }
        return combineElements(nb, nl, Combine::Add, x, acc, isUnsigned);
      },
      extras);

  // What follows the sum.
  if (kind == Reduce::Mean) {
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, ctx.getInput(0));
    SmallVector<OpFoldResult> reduced;
    IndexMath math(b, loc);
    if (mask)
      for (auto [size, marked] : llvm::zip(sizes, *mask))
        reduced.push_back(math.select(marked, size, math.constant(1)));
    else
      for (int64_t axis : axes)
        reduced.push_back(sizes[axis]);
    Value count = getIndexValue(b, loc, getProduct(b, loc, reduced));
    // Converted by the kernel: a count known only as the program runs is
    // an index the host passes it.
    result = elementwise(
        b, loc, result, [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          Value countElement =
              convertScalar(nb, nl, count, elementType, false, isUnsigned);
          if (isFloat(elementType))
            return arith::DivFOp::create(nb, nl, x[0], countElement);
          if (isUnsigned)
            return arith::DivUIOp::create(nb, nl, x[0], countElement);
          return arith::DivSIOp::create(nb, nl, x[0], countElement);
        });
  } else if (kind == Reduce::L2) {
    result = elementwise(b, loc, result,
                         [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                           return math::SqrtOp::create(nb, nl, x[0]);
                         });
  } else if (kind == Reduce::LogSum || kind == Reduce::LogSumExp) {
    Value shift = maximum;
    if (shift) {
      FailureOr<Value> shifted = buildElementwise(
          b, loc, {result, shift}, elementType,
          [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
            return arith::AddFOp::create(nb, nl,
                                         math::LogOp::create(nb, nl, x[0]),
                                         x[1]);
          },
          getSizes(b, loc, result));
      result = *shifted;
    } else {
      result = elementwise(b, loc, result,
                           [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                             return math::LogOp::create(nb, nl, x[0]);
                           });
    }
  }
  bool keepDims = ctx.getInt("keepdims", 1);
  if (mask && !keepDims) {
    // The reduced dimensions, of size 1, dropped: as many as axes listed.
    int64_t count = rank - ctx.getInputType(1).getNumElements();
    if (count < 0)
      return ctx.fail("lists more axes than the input has dimensions");
    result = reshape(
        b, loc, result,
        getUnmarkedSizes(b, loc, getSizes(b, loc, input), *mask, count));
  } else if (!mask && keepDims) {
    result = insertUnitDims(b, loc, result, axes);
  }
  ctx.setOutput(0, result);
  return success();
}

/// The index along `axis` of the first (or last) element equal to the
/// reduction `extreme` of its slice: i64, the axis dropped.
Value buildArgExtreme(OpBuilder &b, Location loc, Value input, int64_t axis,
                      Value extreme, bool last) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  Value shift = insertUnitDims(b, loc, extreme, {axis});
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> resultSizes = sizes;
  resultSizes.erase(resultSizes.begin() + axis);
  Type i64 = b.getI64Type();
  // First: the smallest index holding it; last: the largest.
  Value init = last ? createIntScalar(b, loc, i64, -1)
                    : createHighest(b, loc, i64, false);
  Value filled = createFilled(b, loc, resultSizes, init);
  SmallVector<AffineExpr> exprs, shiftExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(d == axis ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
    if (d != axis)
      exprs.push_back(getAffineDimExpr(d, b.getContext()));
    shiftExprs.push_back(d == axis ? getAffineConstantExpr(0, b.getContext())
                                   : getAffineDimExpr(d, b.getContext()));
  }
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, b.getContext()),
      AffineMap::get(rank, 0, shiftExprs, b.getContext()),
      AffineMap::get(rank, 0, exprs, b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, filled.getType(), ValueRange{input, shift}, filled, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value here = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, axis));
        Value equal =
            isFloat(args[0].getType())
                ? arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                        args[0], args[1])
                      .getResult()
                : arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                        args[0], args[1])
                      .getResult();
        Value best =
            last ? arith::MaxSIOp::create(nb, nl, here, args[2]).getResult()
                 : arith::MinSIOp::create(nb, nl, here, args[2]).getResult();
        linalg::YieldOp::create(
            nb, nl, arith::SelectOp::create(nb, nl, equal, best, args[2])
                        .getResult());
      });
  // A slice without a match (NaNs, or empty) points at its first element.
  Value indices = generic.getResult(0);
  return *buildElementwise(
      b, loc, indices, i64,
      [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        Value none = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                           x[0], init);
        return arith::SelectOp::create(nb, nl, none,
                                       createIntScalar(nb, nl, i64, 0), x[0]);
      },
      resultSizes);
}

/// The max (or min) along `axis`, the axis dropped.
Value buildExtreme(OpBuilder &b, Location loc, Value input, int64_t axis,
                   bool max, bool isUnsigned) {
  Type elementType = cast<RankedTensorType>(input.getType()).getElementType();
  Value init = max ? createLowest(b, loc, elementType, isUnsigned)
                   : createHighest(b, loc, elementType, isUnsigned);
  return buildReduction(
      b, loc, input, {axis}, init,
      [&](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
        return combineElements(nb, nl, max ? Combine::Max : Combine::Min, x,
                               acc, isUnsigned);
      });
}

template <bool max>
LogicalResult convertArgExtreme(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t rank = ctx.getInputType(0).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  Value extreme = buildExtreme(ctx.builder, ctx.loc, input, *axis, max,
                               ctx.isUnsignedInput(0));
  Value result =
      buildArgExtreme(ctx.builder, ctx.loc, input, *axis, extreme,
                      ctx.getInt("select_last_index", 0));
  if (ctx.getInt("keepdims", 1))
    result = insertUnitDims(ctx.builder, ctx.loc, result, {*axis});
  ctx.setOutput(0, result);
  return success();
}

LogicalResult convertSoftmax(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  int64_t rank = ctx.getInputType(0).getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Value init = createEmpty(b, ctx.loc, getSizes(b, ctx.loc, input),
                           ctx.getInputType(0).getElementType());
  ctx.setOutput(0, linalg::SoftmaxOp::create(b, ctx.loc, init.getType(),
                                             input, init, *axis)
                       .getResult()[0]);
  return success();
}

LogicalResult convertLogSoftmax(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", -1), type.getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type elementType = type.getElementType();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  // x - max - log(sum(exp(x - max)))
  Value maximum = insertUnitDims(
      b, loc, buildExtreme(b, loc, input, *axis, /*max=*/true, false), {*axis});
  Value shifted = *buildElementwise(
      b, loc, {input, maximum}, elementType,
      [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        return arith::SubFOp::create(nb, nl, x[0], x[1]);
      },
      sizes);
  Value sum = buildReduction(
      b, loc, shifted, {*axis}, createScalar(b, loc, elementType, 0),
      [](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
        return arith::AddFOp::create(nb, nl, math::ExpOp::create(nb, nl, x),
                                     acc);
      });
  sum = insertUnitDims(b, loc, sum, {*axis});
  ctx.setOutput(0, *buildElementwise(
                       b, loc, {shifted, sum}, elementType,
                       [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                         return arith::SubFOp::create(
                             nb, nl, x[0], math::LogOp::create(nb, nl, x[1]));
                       },
                       sizes));
  return success();
}

LogicalResult convertHardmax(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", -1), type.getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value extreme = buildExtreme(b, loc, input, *axis, /*max=*/true,
                               ctx.isUnsignedInput(0));
  Value index = insertUnitDims(
      b, loc, buildArgExtreme(b, loc, input, *axis, extreme, false), {*axis});
  Type elementType = type.getElementType();
  int64_t rank = type.getRank();
  Value empty = createEmpty(b, loc, getSizes(b, loc, input), elementType);
  SmallVector<AffineExpr> indexExprs;
  for (int64_t d = 0; d < rank; ++d)
    indexExprs.push_back(d == *axis ? getAffineConstantExpr(0, b.getContext())
                                    : getAffineDimExpr(d, b.getContext()));
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, indexExprs, b.getContext()),
      AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), index, empty, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value here = arith::IndexCastOp::create(
            nb, nl, nb.getI64Type(), linalg::IndexOp::create(nb, nl, *axis));
        Value hot = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                          here, args[0]);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, hot,
                                    createScalar(nb, nl, elementType, 1),
                                    createScalar(nb, nl, elementType, 0))
                .getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

/// CumSum and CumProd: out[i] folds every in[j] with j before (or after,
/// `reverse`) i along the axis, i itself unless `exclusive`. Each output
/// element reduces its whole slice, which is quadratic in the axis' length.
/// The same over an axis read as the program runs: at each place, a window
/// reduction over the axis' whole length (1 along the others) of the input
/// padded with the identity where the window leaves it, so that the window
/// at i covers the places before i (forward; from i - n + 1 inclusive,
/// i - n exclusive) or after it (reverse).
Value buildCumulativeOverReadAxis(OpBuilder &b, Location loc, Value input,
                                  OpFoldResult axis, Value identity,
                                  bool exclusive, bool reverse,
                                  MaskedCombineBody combine) {
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  int64_t rank = sizes.size();
  SmallVector<OpFoldResult> low, high, windowSizes, offsets, paddedSizes;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult marked = math.namesDimension(axis, d, rank);
    // n along the axis, 0 along the others.
    OpFoldResult extent = math.mul(marked, sizes[d]);
    OpFoldResult padding = exclusive ? extent : math.sub(extent, marked);
    low.push_back(reverse ? math.constant(0) : padding);
    high.push_back(reverse ? padding : math.constant(0));
    windowSizes.push_back(math.select(marked, sizes[d], math.constant(1)));
    // Reverse and exclusive starts one after i: the padded input from 1.
    offsets.push_back(reverse && exclusive ? marked : math.constant(0));
    paddedSizes.push_back(
        math.sub(math.add(sizes[d], padding), offsets.back()));
  }
  Value padded =
      tensor::PadOp::create(b, loc, Type(), input, low, high, identity);
  if (reverse && exclusive)
    padded = tensor::ExtractSliceOp::create(
        b, loc, padded, offsets, paddedSizes,
        SmallVector<OpFoldResult>(rank, math.constant(1)));
  return buildWindowReduction(b, loc, padded, sizes, windowSizes, identity,
                              combine);
}

template <bool product>
LogicalResult convertCumulative(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  bool exclusive = ctx.getInt("exclusive", 0);
  bool reverse = ctx.getInt("reverse", 0);
  bool isUnsigned = ctx.isUnsignedInput(0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type elementType = type.getElementType();
  Value init = createScalar(b, loc, elementType, product ? 1 : 0);
  std::optional<SmallVector<int64_t>> axisValues = ctx.getConstantInts(1);
  if (!axisValues) {
    FailureOr<SmallVector<OpFoldResult>> read = ctx.getIndexValues(1);
    if (failed(read))
      return failure();
    if (read->size() != 1)
      return ctx.fail("axis must hold one value");
    ctx.setOutput(
        0, buildCumulativeOverReadAxis(
               b, loc, input, read->front(), init, exclusive, reverse,
               [&](OpBuilder &nb, Location nl, Value x, ValueRange, Value acc) {
                 return combineElements(nb, nl,
                                        product ? Combine::Mul : Combine::Add,
                                        x, acc, isUnsigned);
               }));
    return success();
  }
  if (axisValues->size() != 1)
    return ctx.fail("axis must hold one value");
  FailureOr<int64_t> axis = ctx.normalizeAxis((*axisValues)[0], rank);
  if (failed(axis))
    return failure();
  Value filled = createFilled(b, loc, getSizes(b, loc, input), init);
  // Loops: the output's dims, then j along the axis.
  SmallVector<AffineExpr> inputExprs, outputExprs;
  for (int64_t d = 0; d < rank; ++d) {
    outputExprs.push_back(getAffineDimExpr(d, b.getContext()));
    inputExprs.push_back(getAffineDimExpr(d == *axis ? rank : d,
                                          b.getContext()));
  }
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, inputExprs, b.getContext()),
      AffineMap::get(rank + 1, 0, outputExprs, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  arith::CmpIPredicate predicate =
      reverse ? (exclusive ? arith::CmpIPredicate::ugt
                           : arith::CmpIPredicate::uge)
              : (exclusive ? arith::CmpIPredicate::ult
                           : arith::CmpIPredicate::ule);
  auto generic = linalg::GenericOp::create(
      b, loc, filled.getType(), input, filled, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value i = linalg::IndexOp::create(nb, nl, *axis);
        Value j = linalg::IndexOp::create(nb, nl, rank);
        Value counted = arith::CmpIOp::create(nb, nl, predicate, j, i);
        Value value = arith::SelectOp::create(
            nb, nl, counted, args[0],
            createScalar(nb, nl, elementType, product ? 1 : 0));
        Value result;
        if (isFloat(elementType))
          result = product
                       ? arith::MulFOp::create(nb, nl, value, args[1])
                             .getResult()
                       : arith::AddFOp::create(nb, nl, value, args[1])
                             .getResult();
        else
          result = product
                       ? arith::MulIOp::create(nb, nl, value, args[1])
                             .getResult()
                       : arith::AddIOp::create(nb, nl, value, args[1])
                             .getResult();
        linalg::YieldOp::create(nb, nl, result);
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

} // namespace

void registerReductionConverters(ConverterTable &table) {
  table["ReduceSum"] = convertReduce<Reduce::Sum>;
  table["ReduceMean"] = convertReduce<Reduce::Mean>;
  table["ReduceMax"] = convertReduce<Reduce::Max>;
  table["ReduceMin"] = convertReduce<Reduce::Min>;
  table["ReduceProd"] = convertReduce<Reduce::Prod>;
  table["ReduceL1"] = convertReduce<Reduce::L1>;
  table["ReduceL2"] = convertReduce<Reduce::L2>;
  table["ReduceLogSum"] = convertReduce<Reduce::LogSum>;
  table["ReduceLogSumExp"] = convertReduce<Reduce::LogSumExp>;
  table["ReduceSumSquare"] = convertReduce<Reduce::SumSquare>;
  table["ArgMax"] = convertArgExtreme<true>;
  table["ArgMin"] = convertArgExtreme<false>;
  table["Softmax"] = convertSoftmax;
  table["LogSoftmax"] = convertLogSoftmax;
  table["Hardmax"] = convertHardmax;
  table["CumSum"] = convertCumulative<false>;
  table["CumProd"] = convertCumulative<true>;
}

} // namespace mlir::kiln::onnx_import
