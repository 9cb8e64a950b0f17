//===- Normalization.cpp - ONNX normalizations ------------------------------===//
//
// BatchNormalization (inference), InstanceNormalization and LRN.
// LayerNormalization, GroupNormalization, RMSNormalization and
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
}

} // namespace mlir::kiln::onnx_import
