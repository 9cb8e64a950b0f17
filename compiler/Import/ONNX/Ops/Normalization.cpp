//===- Normalization.cpp - ONNX normalizations ------------------------------===//
//
// BatchNormalization (inference), InstanceNormalization, LayerNormalization
// (as the three generics kiln fuses into one dispatch, not ONNX's function
// of a dozen ops), LpNormalization and LRN. GroupNormalization, RMSNormalization and
// MeanVarianceNormalization are functions of other ops in ONNX and are
// expanded into them.
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

/// A generic over `input`'s shape reading `channelInputs` (1-D, along
/// dimension 1) beside it.
Value buildPerChannel(OpBuilder &b, Location loc, Value input,
                      ValueRange channelInputs, ElementBody body) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  AffineMap channel = AffineMap::get(rank, 0, {getAffineDimExpr(1, context)},
                                     context);
  SmallVector<AffineMap> maps = {identity};
  for (Value value : channelInputs) {
    (void)value;
    maps.push_back(channel);
  }
  maps.push_back(identity);
  SmallVector<Value> inputs = {input};
  llvm::append_range(inputs, channelInputs);
  Value empty =
      createEmpty(b, loc, getSizes(b, loc, input), type.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), inputs, empty, maps, iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, body(nb, nl, args.drop_back()));
             })
      .getResult(0);
}

/// (x - mean) / sqrt(var + epsilon) * scale + bias.
Value normalize(OpBuilder &b, Location loc, Value x, Value mean, Value var,
                Value scale, Value bias, double epsilon) {
  Value eps = createScalar(b, loc, x.getType(), epsilon);
  Value deviation = math::SqrtOp::create(
      b, loc, arith::AddFOp::create(b, loc, var, eps));
  Value centered = arith::SubFOp::create(b, loc, x, mean);
  Value scaled = arith::MulFOp::create(
      b, loc, arith::DivFOp::create(b, loc, centered, deviation), scale);
  return arith::AddFOp::create(b, loc, scaled, bias);
}

LogicalResult convertBatchNormalization(NodeContext &ctx) {
  if (ctx.getInt("training_mode", 0) || ctx.hasOutput(1) || ctx.hasOutput(2))
    return ctx.fail("training mode (running statistics) is not supported");
  if (ctx.getInputType(0).getRank() < 2)
    return ctx.fail("needs an input of rank 2 or more");
  double epsilon = ctx.getFloat("epsilon", 1e-5f);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type elementType = ctx.getInputType(0).getElementType();
  // Parameters of another float type are converted to the input's.
  SmallVector<Value> parameters;
  for (unsigned i = 1; i <= 4; ++i)
    parameters.push_back(
        convertElements(b, loc, ctx.getInput(i), elementType, false, false));
  ctx.setOutput(
      0, buildPerChannel(b, loc, ctx.getInput(0), parameters,
                         [&](OpBuilder &nb, Location nl, ValueRange x) {
                           // x, scale, B, mean, var
                           return normalize(nb, nl, x[0], x[3], x[4], x[1],
                                            x[2], epsilon);
                         }));
  return success();
}

LogicalResult convertInstanceNormalization(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  if (rank < 3)
    return ctx.fail("needs an input of rank 3 or more");
  double epsilon = ctx.getFloat("epsilon", 1e-5f);
  Type elementType = type.getElementType();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(2, rank));
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  Value count = convertScalar(
      b, loc,
      getIndexValue(b, loc, getProduct(b, loc, ArrayRef(sizes).drop_front(2))),
      elementType, false, false);
  Value zero = createScalar(b, loc, elementType, 0);
  auto add = [](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
    return arith::AddFOp::create(nb, nl, x, acc);
  };
  auto divide = [&](Value sum) {
    return *buildElementwise(
        b, loc, sum, elementType,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          return arith::DivFOp::create(nb, nl, x[0], count);
        },
        getSizes(b, loc, sum));
  };
  Value mean = insertUnitDims(
      b, loc, divide(buildReduction(b, loc, input, axes, zero, add)), axes);
  Value centered = *buildElementwise(
      b, loc, {input, mean}, elementType,
      [](OpBuilder &nb, Location nl, ValueRange x) -> Value {
        return arith::SubFOp::create(nb, nl, x[0], x[1]);
      },
      sizes);
  Value var = insertUnitDims(
      b, loc,
      divide(buildReduction(
          b, loc, centered, axes, zero,
          [](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
            return arith::AddFOp::create(
                nb, nl, arith::MulFOp::create(nb, nl, x, x), acc);
          })),
      axes);
  // scale and B along the channels, mean and var per instance.
  MLIRContext *context = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  AffineMap channel =
      AffineMap::get(rank, 0, {getAffineDimExpr(1, context)}, context);
  SmallVector<AffineExpr> statExprs = {getAffineDimExpr(0, context),
                                       getAffineDimExpr(1, context)};
  for (int64_t d = 2; d < rank; ++d)
    statExprs.push_back(getAffineConstantExpr(0, context));
  AffineMap stat = AffineMap::get(rank, 0, statExprs, context);
  Value empty = createEmpty(b, loc, sizes, elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value result =
      linalg::GenericOp::create(
          b, loc, empty.getType(),
          ValueRange{centered, var, ctx.getInput(1), ctx.getInput(2)}, empty,
          ArrayRef<AffineMap>{identity, stat, channel, channel, identity},
          iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value zero = createScalar(nb, nl, elementType, 0);
            linalg::YieldOp::create(
                nb, nl,
                normalize(nb, nl, args[0], zero, args[1], args[2], args[3],
                          epsilon));
          })
          .getResult(0);
  ctx.setOutput(0, result);
  return success();
}

/// Over the dimensions from `axis` on, viewed as one: x [outer, inner].
/// mean = sum(x) / n, var = sum((x - mean)^2) / n, then
/// y = (x - mean) * rsqrt(var + epsilon) * scale + bias, in the three
/// generics kiln forms one dispatch of.
LogicalResult convertLayerNormalization(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  double epsilon = ctx.getFloat("epsilon", 1e-5f);
  Type elementType = type.getElementType();
  // stash_type 1: half floats are normalized in f32.
  Type computeType = elementType;
  if (ctx.getInt("stash_type", 1) == 1 && (elementType.isF16() ||
                                           elementType.isBF16()))
    computeType = b.getF32Type();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  ArrayRef<OpFoldResult> normalized = ArrayRef(sizes).drop_front(*axis);
  OpFoldResult outer = getProduct(b, loc, ArrayRef(sizes).take_front(*axis));
  OpFoldResult inner = getProduct(b, loc, normalized);
  Value x = convertElements(b, loc, reshape(b, loc, input, {outer, inner}),
                            computeType, false, false);
  // Scale and bias broadcast to the normalized dimensions, as one.
  auto flatParameter = [&](unsigned i) -> FailureOr<Value> {
    Value parameter =
        convertElements(b, loc, ctx.getInput(i), computeType, false, false);
    FailureOr<Value> wide = broadcastTo(b, loc, parameter, normalized);
    if (failed(wide))
      return ctx.fail("input " + Twine(i) +
                      " does not broadcast to the normalized dimensions");
    return reshape(b, loc, *wide, {inner});
  };
  FailureOr<Value> scale = flatParameter(1);
  if (failed(scale))
    return failure();
  Value bias;
  if (ctx.hasInput(2)) {
    FailureOr<Value> flat = flatParameter(2);
    if (failed(flat))
      return failure();
    bias = *flat;
  }
  Value count = convertScalar(b, loc, getIndexValue(b, loc, inner),
                              computeType, false, false);
  Value zero = createScalar(b, loc, computeType, 0);
  Value sum = buildReduction(
      b, loc, x, {1}, zero,
      [](OpBuilder &nb, Location nl, Value v, Value acc) -> Value {
        return arith::AddFOp::create(nb, nl, v, acc);
      });
  MLIRContext *context = b.getContext();
  AffineMap rows = AffineMap::get(2, 0, {getAffineDimExpr(0, context)},
                                  context);
  AffineMap columns = AffineMap::get(2, 0, {getAffineDimExpr(1, context)},
                                     context);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
  // sum((x - sum / n)^2)
  Value squares = createFilled(b, loc, {outer}, zero);
  Value variance =
      linalg::GenericOp::create(
          b, loc, squares.getType(), ValueRange{x, sum}, squares,
          ArrayRef<AffineMap>{identity, rows, rows},
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                        utils::IteratorType::reduction},
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value mean = arith::DivFOp::create(nb, nl, args[1], count);
            Value centered = arith::SubFOp::create(nb, nl, args[0], mean);
            Value square = arith::MulFOp::create(nb, nl, centered, centered);
            linalg::YieldOp::create(
                nb, nl, arith::AddFOp::create(nb, nl, square, args[2])
                            .getResult());
          })
          .getResult(0);
  Value eps = createScalar(b, loc, computeType, epsilon);
  SmallVector<Value> normalizeInputs = {x, sum, variance, *scale};
  SmallVector<AffineMap> maps = {identity, rows, rows, columns};
  if (bias) {
    normalizeInputs.push_back(bias);
    maps.push_back(columns);
  }
  maps.push_back(identity);
  Value empty = createEmpty(b, loc, {outer, inner}, computeType);
  Value y =
      linalg::GenericOp::create(
          b, loc, empty.getType(), normalizeInputs, empty, maps,
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                        utils::IteratorType::parallel},
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            Value mean = arith::DivFOp::create(nb, nl, args[1], count);
            Value var = arith::DivFOp::create(nb, nl, args[2], count);
            Value inverse = math::RsqrtOp::create(
                nb, nl, arith::AddFOp::create(nb, nl, var, eps));
            Value centered = arith::SubFOp::create(nb, nl, args[0], mean);
            Value value = arith::MulFOp::create(
                nb, nl, arith::MulFOp::create(nb, nl, centered, inverse),
                args[3]);
            if (bias)
              value = arith::AddFOp::create(nb, nl, value, args[4]);
            linalg::YieldOp::create(nb, nl, value);
          })
          .getResult(0);
  y = convertElements(b, loc, y, elementType, false, false);
  ctx.setOutput(0, reshape(b, loc, y, sizes));
  // Mean and InvStdDev keep the normalized dimensions as 1s.
  SmallVector<OpFoldResult> statSizes(sizes.begin(), sizes.begin() + *axis);
  statSizes.append(rank - *axis, b.getIndexAttr(1));
  Type statType = ctx.hasOutput(1) ? ctx.getOutputElementMLIRType(1)
                  : ctx.hasOutput(2) ? ctx.getOutputElementMLIRType(2)
                                     : computeType;
  if (ctx.hasOutput(1)) {
    Value mean = *buildElementwise(
        b, loc, sum, statType,
        [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
          return convertScalar(nb, nl,
                               arith::DivFOp::create(nb, nl, v[0], count),
                               statType, false, false);
        },
        getSizes(b, loc, sum));
    ctx.setOutput(1, reshape(b, loc, mean, statSizes));
  }
  if (ctx.hasOutput(2)) {
    Value inverse = *buildElementwise(
        b, loc, variance, statType,
        [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
          Value var = arith::DivFOp::create(nb, nl, v[0], count);
          return convertScalar(
              nb, nl,
              math::RsqrtOp::create(nb, nl,
                                    arith::AddFOp::create(nb, nl, var, eps)),
              statType, false, false);
        },
        getSizes(b, loc, variance));
    ctx.setOutput(2, reshape(b, loc, inverse, statSizes));
  }
  return success();
}

/// y = x / ||x||_p along `axis` (p 1 or 2), 0 where the norm is.
LogicalResult convertLpNormalization(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  FailureOr<int64_t> axis =
      ctx.normalizeAxis(ctx.getInt("axis", -1), type.getRank());
  if (failed(axis))
    return failure();
  int64_t p = ctx.getInt("p", 2);
  if (p != 1 && p != 2)
    return ctx.fail("p must be 1 or 2, got " + Twine(p));
  Type elementType = type.getElementType();
  Value norm = buildReduction(
      b, loc, input, {*axis}, createScalar(b, loc, elementType, 0),
      [&](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
        Value term = p == 1 ? math::AbsFOp::create(nb, nl, x).getResult()
                            : arith::MulFOp::create(nb, nl, x, x).getResult();
        return arith::AddFOp::create(nb, nl, term, acc);
      });
  norm = insertUnitDims(b, loc, norm, {*axis});
  ctx.setOutput(0, *buildElementwise(
                       b, loc, {input, norm}, elementType,
                       [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                         Value length = x[1];
                         if (p == 2)
                           length = math::SqrtOp::create(nb, nl, length);
                         Value zero = createScalarLike(nb, nl, length, 0);
                         Value isZero = arith::CmpFOp::create(
                             nb, nl, arith::CmpFPredicate::OEQ, length, zero);
                         Value quotient =
                             arith::DivFOp::create(nb, nl, x[0], length);
                         return arith::SelectOp::create(nb, nl, isZero, zero,
                                                        quotient);
                       },
                       getSizes(b, loc, input)));
  return success();
}

/// y = x / (bias + alpha / size * sum of x^2 over the nearby channels)^beta
LogicalResult convertLRN(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  int64_t size = ctx.getInt("size", 0);
  if (size <= 0 || rank < 2)
    return ctx.fail("needs a positive size and an input of rank 2 or more");
  double alpha = ctx.getFloat("alpha", 1e-4f);
  double beta = ctx.getFloat("beta", 0.75f);
  double bias = ctx.getFloat("bias", 1.0f);
  Type elementType = type.getElementType();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  Value channels = getIndexValue(b, loc, sizes[1]);
  int64_t before = (size - 1) / 2;
  // Loops: the input's, then the window offset j in [0, size).
  MLIRContext *context = b.getContext();
  Value windowShape = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{size},
                                              elementType);
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(getAffineDimExpr(d, context));
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, {getAffineDimExpr(rank, context)}, context),
      AffineMap::get(rank + 1, 0, exprs, context)};
  Value filled =
      createFilled(b, loc, sizes, createScalar(b, loc, elementType, 0));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Value squares =
      linalg::GenericOp::create(
          b, loc, filled.getType(), windowShape, filled, maps, iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            SmallVector<Value> indices;
            for (int64_t d = 0; d < rank; ++d)
              indices.push_back(linalg::IndexOp::create(nb, nl, d));
            Value j = linalg::IndexOp::create(nb, nl, rank);
            // channel c - before + j, counted only inside [0, C).
            Value c = arith::SubIOp::create(
                nb, nl, arith::AddIOp::create(nb, nl, indices[1], j),
                arith::ConstantIndexOp::create(nb, nl, before));
            Value zero = arith::ConstantIndexOp::create(nb, nl, 0);
            Value inside = arith::AndIOp::create(
                nb, nl,
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge, c,
                                      zero),
                arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt, c,
                                      channels));
            Value last = arith::SubIOp::create(
                nb, nl, channels, arith::ConstantIndexOp::create(nb, nl, 1));
            indices[1] = arith::MinSIOp::create(
                nb, nl, arith::MaxSIOp::create(nb, nl, c, zero), last);
            Value x = tensor::ExtractOp::create(nb, nl, input, indices);
            Value square = arith::SelectOp::create(
                nb, nl, inside, arith::MulFOp::create(nb, nl, x, x),
                createScalar(nb, nl, elementType, 0));
            linalg::YieldOp::create(
                nb, nl,
                arith::AddFOp::create(nb, nl, square, args[1]).getResult());
          })
          .getResult(0);
  ctx.setOutput(0, *buildElementwise(
                       b, loc, {input, squares}, elementType,
                       [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                         Value scaled = arith::MulFOp::create(
                             nb, nl, x[1],
                             createScalar(nb, nl, elementType, alpha / size));
                         Value base = arith::AddFOp::create(
                             nb, nl, scaled,
                             createScalar(nb, nl, elementType, bias));
                         Value power = math::PowFOp::create(
                             nb, nl, base,
                             createScalar(nb, nl, elementType, beta));
                         return arith::DivFOp::create(nb, nl, x[0], power);
                       },
                       sizes));
  return success();
}

} // namespace

void registerNormalizationConverters(ConverterTable &table) {
  table["BatchNormalization"] = convertBatchNormalization;
  table["InstanceNormalization"] = convertInstanceNormalization;
  table["LRN"] = convertLRN;
  table["LayerNormalization"] = convertLayerNormalization;
  table["LpNormalization"] = convertLpNormalization;
}

} // namespace mlir::kiln::onnx_import
