//===- Indexing.cpp - ONNX ops that read or write at computed indices -----===//
//
// Scatters (ScatterElements, ScatterND, TensorScatter), GatherND, TopK,
// ReverseSequence, Compress, NonZero and Col2Im. linalg cannot write at
// computed positions, so every op is written as each output element
// gathering what lands on it: a linalg.generic over the output's dimensions
// whose body reads its sources with tensor.extract at computed indices,
// with a reduction dimension where several sources may land on one
// element. Where the output's size depends on tensor contents (NonZero,
// Compress by a computed condition), a kernel counts it and the host reads
// the count; Unique is refused.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln::onnx_import {

namespace {

Value index(OpBuilder &b, Location loc, OpFoldResult value) {
  return getIndexValue(b, loc, value);
}

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The linalg.index of each of the first `count` loops.
SmallVector<Value> loopIndices(OpBuilder &b, Location loc, int64_t count) {
  SmallVector<Value> indices;
  for (int64_t d = 0; d < count; ++d)
    indices.push_back(linalg::IndexOp::create(b, loc, d));
  return indices;
}

Value andAll(OpBuilder &b, Location loc, ArrayRef<Value> conditions) {
  Value result;
  for (Value condition : conditions)
    result = result
                 ? arith::AndIOp::create(b, loc, result, condition).getResult()
                 : condition;
  return result ? result
                : arith::ConstantOp::create(b, loc, b.getBoolAttr(true))
                      .getResult();
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate predicate, Value lhs,
          Value rhs) {
  return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Scatters
//===----------------------------------------------------------------------===//

enum class Reduction { None, Add, Mul, Max, Min };

FailureOr<Reduction> getReduction(NodeContext &ctx) {
  std::string name = ctx.getString("reduction", "none");
  if (name == "none")
    return Reduction::None;
  if (name == "add")
    return Reduction::Add;
  if (name == "mul")
    return Reduction::Mul;
  if (name == "max")
    return Reduction::Max;
  if (name == "min")
    return Reduction::Min;
  return ctx.fail("reduction must be none, add, mul, max or min, got '" + name +
                  "'");
}

/// Folds `value` into `acc` as `kind` does (none: `value` replaces it).
Value combine(OpBuilder &b, Location loc, Reduction kind, Value acc,
              Value value, bool isUnsigned) {
  switch (kind) {
  case Reduction::None:
    return value;
  case Reduction::Add:
    return combineElements(b, loc, Combine::Add, acc, value, isUnsigned);
  case Reduction::Mul:
    return combineElements(b, loc, Combine::Mul, acc, value, isUnsigned);
  case Reduction::Max:
    return combineElements(b, loc, Combine::Max, acc, value, isUnsigned);
  case Reduction::Min:
    return combineElements(b, loc, Combine::Min, acc, value, isUnsigned);
  }
  llvm_unreachable("unknown reduction");
}

/// For an output position and an update (numbered from 0 in the order the
/// reference applies them): whether the update lands there, or its value
/// there (read only where it lands).
using UpdateBody = function_ref<Value(OpBuilder &b, Location loc,
                                      ValueRange outputIndices, Value update)>;

/// A scatter of `updates` updates into a copy of `data`, written as each
/// output element gathering the updates that land on it: a linalg.generic
/// over the output's dimensions and a reduction dimension over the updates.
/// That is quadratic (output size times update count) where a scatter is
/// linear, which is the price of staying in linalg.
Value buildScatter(OpBuilder &b, Location loc, Value data, OpFoldResult updates,
                   Reduction kind, bool isUnsigned, UpdateBody lands,
                   UpdateBody valueAt) {
  auto type = cast<RankedTensorType>(data.getType());
  int64_t rank = type.getRank();
  if (getConstantIntValue(updates) == 0)
    return data;
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, data);

  if (kind != Reduction::None) {
    // Every update landing here folds into the data's element, in order.
    Value scattered = buildTrailingReduction(
        b, loc, data, updates,
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          SmallVector<Value> indices = loopIndices(nb, nl, rank);
          Value update = linalg::IndexOp::create(nb, nl, rank);
          Value hit = lands(nb, nl, indices, update);
          Value combined =
              combine(nb, nl, kind, args[1], valueAt(nb, nl, indices, update),
                      isUnsigned);
          linalg::YieldOp::create(
              nb, nl,
              arith::SelectOp::create(nb, nl, hit, combined, args[1])
                  .getResult());
        });
    return scattered;
  }

  // Without a reduction the last update landing here wins, as in the
  // reference's order: find its number by a max reduction (which does not
  // depend on the order linalg visits the updates), then read it.
  Type i64 = b.getI64Type();
  Value none = createFilled(b, loc, sizes, createIntScalar(b, loc, i64, -1));
  Value last = buildTrailingReduction(
      b, loc, none, updates, [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> indices = loopIndices(nb, nl, rank);
        Value update = linalg::IndexOp::create(nb, nl, rank);
        Value hit = lands(nb, nl, indices, update);
        Value number = arith::IndexCastOp::create(nb, nl, i64, update);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(
                nb, nl, hit, arith::MaxSIOp::create(nb, nl, number, args[1]),
                args[1])
                .getResult());
      });
  Value empty = createEmpty(b, loc, sizes, type.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{data, last}, empty,
      ArrayRef<AffineMap>{identity, identity, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> indices = loopIndices(nb, nl, rank);
        Value zero = createIntScalar(nb, nl, i64, 0);
        Value found = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sge,
                                            args[1], zero);
        // Update 0 stands in where none lands, its value then unused.
        Value number = arith::IndexCastOp::create(
            nb, nl, nb.getIndexType(),
            arith::MaxSIOp::create(nb, nl, args[1], zero));
        Value value = valueAt(nb, nl, indices, number);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, found, value, args[0]).getResult());
      });
  return generic.getResult(0);
}

LogicalResult convertScatterElements(NodeContext &ctx) {
  Value data = ctx.getInput(0);
  Value indices = ctx.getInput(1);
  Value updates = ctx.getInput(2);
  int64_t rank = ctx.getInputType(0).getRank();
  if (ctx.getInputType(1).getRank() != rank ||
      ctx.getInputType(2).getRank() != rank)
    return ctx.fail("data, indices and updates must have the same rank");
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", 0), rank);
  if (failed(axis))
    return failure();
  FailureOr<Reduction> kind = getReduction(ctx);
  if (failed(kind))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> dataSizes = getSizes(b, loc, data);
  SmallVector<OpFoldResult> updateSizes = getSizes(b, loc, updates);
  // No update at all.
  for (OpFoldResult size : updateSizes)
    if (getConstantIntValue(size) == 0) {
      ctx.setOutput(0, data);
      return success();
    }
  Value axisSize = index(b, loc, dataSizes[*axis]);
  bool isUnsigned = ctx.isUnsignedInput(1);
  // Update u lands on u with its axis index replaced by indices[u]: an
  // output element can only receive the updates sharing its other indices,
  // so only the axis of the updates is reduced over. The updates may cover
  // less than the data along the other dimensions: where they do not reach,
  // a condition is added to `inside` and the position clamped to read in
  // bounds.
  auto positionOf = [&](OpBuilder &nb, Location nl, ValueRange out,
                        Value update, SmallVectorImpl<Value> &inside) {
    SmallVector<Value> position(out.begin(), out.end());
    position[*axis] = update;
    for (int64_t d = 0; d < rank; ++d) {
      std::optional<int64_t> have = getConstantIntValue(updateSizes[d]);
      if (d == *axis || (have && have == getConstantIntValue(dataSizes[d])))
        continue;
      Value size = index(nb, nl, updateSizes[d]);
      inside.push_back(cmp(nb, nl, arith::CmpIPredicate::ult, out[d], size));
      position[d] = arith::MinUIOp::create(
          nb, nl, out[d],
          arith::SubIOp::create(nb, nl, size, constantIndex(nb, nl, 1)));
    }
    return position;
  };
  Value result = buildScatter(
      b, loc, data, updateSizes[*axis], *kind, ctx.isUnsignedInput(0),
      [&](OpBuilder &nb, Location nl, ValueRange out, Value update) {
        SmallVector<Value> conditions;
        SmallVector<Value> position =
            positionOf(nb, nl, out, update, conditions);
        Value target = normalizeIndex(
            nb, nl, tensor::ExtractOp::create(nb, nl, indices, position),
            axisSize, isUnsigned);
        conditions.push_back(
            cmp(nb, nl, arith::CmpIPredicate::eq, target, out[*axis]));
        return andAll(nb, nl, conditions);
      },
      [&](OpBuilder &nb, Location nl, ValueRange out, Value update) -> Value {
        SmallVector<Value> unused;
        return tensor::ExtractOp::create(
            nb, nl, updates, positionOf(nb, nl, out, update, unused));
      });
  ctx.setOutput(0, result);
  return success();
}

LogicalResult convertScatterND(NodeContext &ctx) {
  Value data = ctx.getInput(0);
  Value indices = ctx.getInput(1);
  Value updates = ctx.getInput(2);
  RankedTensorType indicesType = ctx.getInputType(1);
  int64_t rank = ctx.getInputType(0).getRank();
  int64_t indexRank = indicesType.getRank();
  if (indexRank < 1)
    return ctx.fail("indices must have rank 1 or more");
  int64_t depth = indicesType.getDimSize(indexRank - 1);
  if (ShapedType::isDynamic(depth))
    return ctx.fail("the last dimension of indices must be static");
  if (depth > rank)
    return ctx.fail("indices index " + Twine(depth) + " dimensions of a rank-" +
                    Twine(rank) + " tensor");
  if (ctx.getInputType(2).getRank() != indexRank - 1 + rank - depth)
    return ctx.fail("updates must have rank " +
                    Twine(indexRank - 1 + rank - depth));
  FailureOr<Reduction> kind = getReduction(ctx);
  if (failed(kind))
    return failure();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> dataSizes = getSizes(b, loc, data);
  // The updates in one dimension: indices [n, depth], updates [n, slice...].
  SmallVector<OpFoldResult> indexSizes = getSizes(b, loc, indices);
  OpFoldResult count = getProduct(b, loc, ArrayRef(indexSizes).drop_back());
  indices = reshape(b, loc, indices, {count, b.getIndexAttr(depth)});
  SmallVector<OpFoldResult> sliceSizes = {count};
  llvm::append_range(sliceSizes, ArrayRef(dataSizes).drop_front(depth));
  updates = reshape(b, loc, updates, sliceSizes);
  bool isUnsigned = ctx.isUnsignedInput(1);
  Value result = buildScatter(
      b, loc, data, count, *kind, ctx.isUnsignedInput(0),
      [&](OpBuilder &nb, Location nl, ValueRange out, Value update) {
        // Update n lands on the slice its index tuple names.
        SmallVector<Value> equal;
        for (int64_t m = 0; m < depth; ++m) {
          Value element = tensor::ExtractOp::create(
              nb, nl, indices, ValueRange{update, constantIndex(nb, nl, m)});
          Value target = normalizeIndex(
              nb, nl, element, index(nb, nl, dataSizes[m]), isUnsigned);
          equal.push_back(
              cmp(nb, nl, arith::CmpIPredicate::eq, target, out[m]));
        }
        return andAll(nb, nl, equal);
      },
      [&](OpBuilder &nb, Location nl, ValueRange out, Value update) -> Value {
        SmallVector<Value> position = {update};
        position.append(out.begin() + depth, out.end());
        return tensor::ExtractOp::create(nb, nl, updates, position);
      });
  ctx.setOutput(0, result);
  return success();
}

/// TensorScatter writes `update` into the cache along `axis` from each
/// batch's write index (wrapping around in circular mode): each cache
/// element reads the update element that lands on it, if any.
LogicalResult convertTensorScatter(NodeContext &ctx) {
  Value cache = ctx.getInput(0);
  Value update = ctx.getInput(1);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  if (ctx.getInputType(1).getRank() != rank)
    return ctx.fail("past_cache and update must have the same rank");
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -2), rank);
  if (failed(axis))
    return failure();
  std::string mode = ctx.getString("mode", "linear");
  if (mode != "linear" && mode != "circular")
    return ctx.fail("mode must be linear or circular, got '" + mode + "'");
  bool circular = mode == "circular";
  bool hasWriteIndices = ctx.hasInput(2);
  if (hasWriteIndices && *axis == 0)
    return ctx.fail("write_indices index the batch, which axis must not be");
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, cache);
  OpFoldResult length = getSizes(b, loc, update)[*axis];
  if (getConstantIntValue(length) == 0) {
    ctx.setOutput(0, cache);
    return success();
  }
  MLIRContext *context = b.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<Value> inputs = {cache};
  SmallVector<AffineMap> maps = {identity};
  bool isUnsigned = false;
  if (hasWriteIndices) {
    inputs.push_back(ctx.getInput(2));
    maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(0, context)));
    isUnsigned = ctx.isUnsignedInput(2);
  }
  maps.push_back(identity);
  Value empty = createEmpty(b, loc, sizes, type.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), inputs, empty, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> indices = loopIndices(nb, nl, rank);
        Value zero = constantIndex(nb, nl, 0);
        Value start =
            hasWriteIndices
                ? (isUnsigned ? arith::IndexCastUIOp::create(
                                    nb, nl, nb.getIndexType(), args[1])
                                    .getResult()
                              : arith::IndexCastOp::create(
                                    nb, nl, nb.getIndexType(), args[1])
                                    .getResult())
                : zero;
        // The update element landing here: this index minus the start.
        Value source = arith::SubIOp::create(nb, nl, indices[*axis], start);
        if (circular) {
          Value size = index(nb, nl, sizes[*axis]);
          Value remainder = arith::RemSIOp::create(nb, nl, source, size);
          source = arith::SelectOp::create(
              nb, nl, cmp(nb, nl, arith::CmpIPredicate::slt, remainder, zero),
              arith::AddIOp::create(nb, nl, remainder, size), remainder);
        }
        Value written =
            andAll(nb, nl,
                   {cmp(nb, nl, arith::CmpIPredicate::sge, source, zero),
                    cmp(nb, nl, arith::CmpIPredicate::slt, source,
                        index(nb, nl, length))});
        SmallVector<Value> position = indices;
        position[*axis] =
            arith::SelectOp::create(nb, nl, written, source, zero);
        Value value = tensor::ExtractOp::create(nb, nl, update, position);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, written, value, args[0])
                .getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

LogicalResult convertGatherND(NodeContext &ctx) {
  Value data = ctx.getInput(0);
  Value indices = ctx.getInput(1);
  RankedTensorType indicesType = ctx.getInputType(1);
  int64_t rank = ctx.getInputType(0).getRank();
  int64_t indexRank = indicesType.getRank();
  int64_t batch = ctx.getInt("batch_dims", 0);
  if (indexRank < 1)
    return ctx.fail("indices must have rank 1 or more");
  int64_t depth = indicesType.getDimSize(indexRank - 1);
  if (ShapedType::isDynamic(depth))
    return ctx.fail("the last dimension of indices must be static");
  if (batch < 0 || batch >= std::min(rank, indexRank))
    return ctx.fail("batch_dims must be below the ranks of data and indices");
  if (batch + depth > rank)
    return ctx.fail("indices index " + Twine(depth) + " dimensions past " +
                    Twine(batch) + " batch dimensions of a rank-" +
                    Twine(rank) + " tensor");
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> dataSizes = getSizes(b, loc, data);
  SmallVector<OpFoldResult> indexSizes = getSizes(b, loc, indices);
  // result[i..., s...] = data[i[:batch]..., indices[i...], s...]
  SmallVector<OpFoldResult> resultSizes(indexSizes.begin(),
                                        indexSizes.end() - 1);
  resultSizes.append(dataSizes.begin() + batch + depth, dataSizes.end());
  int64_t resultRank = resultSizes.size();
  bool isUnsigned = ctx.isUnsignedInput(1);
  Value empty =
      createEmpty(b, loc, resultSizes, ctx.getInputType(0).getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), ValueRange{}, empty,
      AffineMap::getMultiDimIdentityMap(resultRank, b.getContext()),
      SmallVector<utils::IteratorType>(resultRank,
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange) {
        SmallVector<Value> out = loopIndices(nb, nl, resultRank);
        SmallVector<Value> position(out.begin(), out.begin() + batch);
        SmallVector<Value> tuple(out.begin(), out.begin() + indexRank - 1);
        tuple.push_back(Value());
        for (int64_t m = 0; m < depth; ++m) {
          tuple.back() = constantIndex(nb, nl, m);
          Value element = tensor::ExtractOp::create(nb, nl, indices, tuple);
          position.push_back(normalizeIndex(nb, nl, element,
                                            index(nb, nl, dataSizes[batch + m]),
                                            isUnsigned));
        }
        position.append(out.begin() + indexRank - 1, out.end());
        linalg::YieldOp::create(
            nb, nl,
            tensor::ExtractOp::create(nb, nl, data, position).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

/// Whether `lhs` comes strictly before `rhs` in TopK's order on values: the
/// larger first (the smaller with `largest` off), NaN larger than any
/// number, as numpy sorts.
Value isAhead(OpBuilder &b, Location loc, Value lhs, Value rhs, bool largest,
              bool isUnsigned) {
  if (!largest)
    std::swap(lhs, rhs);
  if (!isa<FloatType>(lhs.getType()))
    return cmp(b, loc,
               isUnsigned ? arith::CmpIPredicate::ugt
                          : arith::CmpIPredicate::sgt,
               lhs, rhs);
  Value greater =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, lhs, rhs);
  Value lhsNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, lhs, lhs);
  Value rhsNumber =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, rhs, rhs);
  return arith::OrIOp::create(b, loc, greater,
                              arith::AndIOp::create(b, loc, lhsNaN, rhsNumber));
}

/// Whether two values tie in TopK's order (NaNs tie with each other).
Value isTied(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!isa<FloatType>(lhs.getType()))
    return cmp(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  Value equal =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lhs, rhs);
  Value bothNaN = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, lhs, lhs),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, rhs, rhs));
  return arith::OrIOp::create(b, loc, equal, bothNaN);
}

/// TopK as counting and gathering, which linalg can express where a sort
/// it cannot: each element's place in the sorted order is the number of
/// elements of its slice ahead of it (ties broken by the lower index, as
/// the reference does), and output k gathers the element whose place is k.
/// Counting is quadratic in the axis' length.
LogicalResult convertTopK(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  FailureOr<int64_t> axis = ctx.normalizeAxis(ctx.getInt("axis", -1), rank);
  if (failed(axis))
    return failure();
  bool largest = ctx.getInt("largest", 1);
  bool isUnsigned = ctx.isUnsignedInput(0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  MLIRContext *context = b.getContext();
  // K: the outputs' size along the axis where inference knows it, else the
  // value of the K input.
  std::optional<OpFoldResult> k;
  for (unsigned i = 0; i < 2 && !k; ++i)
    if (ctx.hasOutput(i))
      if (auto known = ctx.getKnownOutputSizes(i))
        k = (*known)[*axis];
  if (!k) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(1);
    if (failed(values))
      return failure();
    if (values->size() != 1)
      return ctx.fail("K must hold one value");
    k = (*values)[0];
  }
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  // A K beyond the axis is an error: the host finds the outputs' size
  // negative (n - (K - n) * (K + 1)) and stops the call.
  if (!getConstantIntValue(*k) || !getConstantIntValue(sizes[*axis])) {
    IndexMath math(b, loc);
    OpFoldResult excess =
        math.max(math.sub(*k, sizes[*axis]), math.constant(0));
    k = math.sub(math.min(*k, sizes[*axis]),
                 math.mul(excess, math.add(*k, math.constant(1))));
  } else if (*getConstantIntValue(*k) > *getConstantIntValue(sizes[*axis])) {
    return ctx.fail("K (" + Twine(*getConstantIntValue(*k)) +
                    ") is larger than the axis (" +
                    Twine(*getConstantIntValue(sizes[*axis])) + ")");
  }
  Type i64 = b.getI64Type();
  Value zero = createIntScalar(b, loc, i64, 0);

  // place[i] = #{j : x[j] ahead of x[i], or tied with j < i}
  SmallVector<AffineExpr> exprs, otherExprs;
  for (int64_t d = 0; d < rank; ++d) {
    exprs.push_back(getAffineDimExpr(d, context));
    otherExprs.push_back(getAffineDimExpr(d == *axis ? rank : d, context));
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Value places = createFilled(b, loc, sizes, zero);
  auto count = linalg::GenericOp::create(
      b, loc, places.getType(), ValueRange{input, input}, places,
      ArrayRef<AffineMap>{AffineMap::get(rank + 1, 0, exprs, context),
                          AffineMap::get(rank + 1, 0, otherExprs, context),
                          AffineMap::get(rank + 1, 0, exprs, context)},
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value i = linalg::IndexOp::create(nb, nl, *axis);
        Value j = linalg::IndexOp::create(nb, nl, rank);
        Value earlier = cmp(nb, nl, arith::CmpIPredicate::ult, j, i);
        Value ahead = arith::OrIOp::create(
            nb, nl, isAhead(nb, nl, args[1], args[0], largest, isUnsigned),
            arith::AndIOp::create(nb, nl, isTied(nb, nl, args[1], args[0]),
                                  earlier));
        Value one = arith::ExtUIOp::create(nb, nl, i64, ahead);
        linalg::YieldOp::create(
            nb, nl, arith::AddIOp::create(nb, nl, args[2], one).getResult());
      });

  // indices[k] = the i whose place is k, as a sum over i of exactly one hit.
  SmallVector<OpFoldResult> resultSizes = sizes;
  resultSizes[*axis] = *k;
  Value found = createFilled(b, loc, resultSizes, zero);
  auto select = linalg::GenericOp::create(
      b, loc, found.getType(), count.getResult(0), found,
      ArrayRef<AffineMap>{AffineMap::get(rank + 1, 0, otherExprs, context),
                          AffineMap::get(rank + 1, 0, exprs, context)},
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value place = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, *axis));
        Value i = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, rank));
        Value hit = cmp(nb, nl, arith::CmpIPredicate::eq, args[0], place);
        Value term = arith::SelectOp::create(nb, nl, hit, i,
                                             createIntScalar(nb, nl, i64, 0));
        linalg::YieldOp::create(
            nb, nl, arith::AddIOp::create(nb, nl, args[1], term).getResult());
      });
  Value indices = select.getResult(0);

  // values[k] = x[indices[k]]
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  Value empty = createEmpty(b, loc, resultSizes, type.getElementType());
  auto gather = linalg::GenericOp::create(
      b, loc, empty.getType(), indices, empty,
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> position = loopIndices(nb, nl, rank);
        position[*axis] =
            arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[0]);
        linalg::YieldOp::create(
            nb, nl,
            tensor::ExtractOp::create(nb, nl, input, position).getResult());
      });
  if (ctx.hasOutput(0))
    ctx.setOutput(0, gather.getResult(0));
  if (ctx.hasOutput(1))
    ctx.setOutput(1, indices);
  return success();
}

//===----------------------------------------------------------------------===//
// Reversing, selecting, folding
//===----------------------------------------------------------------------===//

LogicalResult convertReverseSequence(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  Value lengths = ctx.getInput(1);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  if (rank < 2)
    return ctx.fail("needs an input of rank 2 or more");
  FailureOr<int64_t> batchAxis =
      ctx.normalizeAxis(ctx.getInt("batch_axis", 1), rank);
  FailureOr<int64_t> timeAxis =
      ctx.normalizeAxis(ctx.getInt("time_axis", 0), rank);
  if (failed(batchAxis) || failed(timeAxis))
    return failure();
  if (*batchAxis == *timeAxis)
    return ctx.fail("batch_axis and time_axis must differ");
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  MLIRContext *context = b.getContext();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  bool isUnsigned = ctx.isUnsignedInput(1);
  Value empty = createEmpty(b, loc, sizes, type.getElementType());
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), lengths, empty,
      ArrayRef<AffineMap>{
          AffineMap::get(rank, 0, getAffineDimExpr(*batchAxis, context)),
          identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> position = loopIndices(nb, nl, rank);
        Value t = position[*timeAxis];
        // Lengths beyond the time axis reverse all of it.
        Value length =
            isUnsigned
                ? arith::IndexCastUIOp::create(nb, nl, nb.getIndexType(),
                                               args[0])
                      .getResult()
                : arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[0])
                      .getResult();
        length = arith::MinSIOp::create(nb, nl, length,
                                        index(nb, nl, sizes[*timeAxis]));
        Value reversed = cmp(nb, nl, arith::CmpIPredicate::slt, t, length);
        Value mirror = arith::SubIOp::create(
            nb, nl, arith::SubIOp::create(nb, nl, length, t),
            constantIndex(nb, nl, 1));
        position[*timeAxis] =
            arith::SelectOp::create(nb, nl, reversed, mirror, t);
        linalg::YieldOp::create(
            nb, nl,
            tensor::ExtractOp::create(nb, nl, input, position).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

/// The positions of the true elements of `condition` (1-D, i1) among its
/// first `length`: their count (computed by a kernel, read by the host)
/// and an i64 tensor of them. Position i is the number of places whose
/// inclusive count of trues is at most i; both counts sum a whole prefix,
/// quadratic in the length.
std::pair<OpFoldResult, Value> buildTruePositions(OpBuilder &b, Location loc,
                                                  Value condition,
                                                  OpFoldResult length) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  auto toI64 = [&](OpBuilder &nb, Location nl, Value flag) -> Value {
    return arith::ExtUIOp::create(nb, nl, i64, flag);
  };
  auto sum = [&](OpBuilder &nb, Location nl, Value l, Value r) -> Value {
    return arith::AddIOp::create(nb, nl, l, r);
  };
  Value zero = createIntScalar(b, loc, i64, 0);
  auto iterators = [](int64_t parallel) {
    SmallVector<utils::IteratorType> result(parallel,
                                            utils::IteratorType::parallel);
    result.push_back(utils::IteratorType::reduction);
    return result;
  };
  if (!isEqualConstantIntOrValue(length, getSizes(b, loc, condition).front()))
    condition = createSlice(b, loc, condition, {b.getIndexAttr(0)}, {length},
                            {b.getIndexAttr(1)});
  // The count of trues.
  Value countInit = createFilled(b, loc, {}, zero);
  auto counted = linalg::GenericOp::create(
      b, loc, countInit.getType(), condition, countInit,
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(1, context),
                          AffineMap::get(1, 0, {}, context)},
      iterators(0), [&](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl,
                                sum(nb, nl, args[1], toI64(nb, nl, args[0])));
      });
  OpFoldResult count =
      arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          tensor::ExtractOp::create(b, loc, counted.getResult(0), ValueRange{}))
          .getResult();
  // Each place's inclusive count of trues.
  Value prefixInit = createFilled(b, loc, {length}, zero);
  auto prefix = linalg::GenericOp::create(
      b, loc, prefixInit.getType(), condition, prefixInit,
      ArrayRef<AffineMap>{AffineMap::get(2, 0, getAffineDimExpr(1, context)),
                          AffineMap::get(2, 0, getAffineDimExpr(0, context))},
      iterators(1), [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value before =
            arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ule,
                                  linalg::IndexOp::create(nb, nl, 1),
                                  linalg::IndexOp::create(nb, nl, 0));
        Value counts = arith::AndIOp::create(nb, nl, before, args[0]);
        linalg::YieldOp::create(nb, nl,
                                sum(nb, nl, args[1], toI64(nb, nl, counts)));
      });
  // Position i: the places whose inclusive count is at most i.
  Value positionsInit = createFilled(b, loc, {count}, zero);
  auto positions = linalg::GenericOp::create(
      b, loc, positionsInit.getType(), prefix.getResult(0), positionsInit,
      ArrayRef<AffineMap>{AffineMap::get(2, 0, getAffineDimExpr(1, context)),
                          AffineMap::get(2, 0, getAffineDimExpr(0, context))},
      iterators(1), [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value i = arith::IndexCastOp::create(
            nb, nl, i64, linalg::IndexOp::create(nb, nl, 0));
        Value before = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sle,
                                             args[0], i);
        linalg::YieldOp::create(nb, nl,
                                sum(nb, nl, args[1], toI64(nb, nl, before)));
      });
  return {count, positions.getResult(0)};
}

/// Compress: the slices along the axis where the condition is true. A
/// constant condition keeps slices known while importing (a slice where
/// they are contiguous, else a gather of constant indices); one known only
/// as the program runs is counted by a kernel the host reads, then
/// gathered by the positions of its trues.
LogicalResult convertCompress(NodeContext &ctx) {
  std::optional<SmallVector<int64_t>> condition = ctx.getConstantInts(1);
  Value input = ctx.getInput(0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  int64_t axis = 0;
  if (ctx.hasAttribute("axis")) {
    FailureOr<int64_t> normalized =
        ctx.normalizeAxis(ctx.getInt("axis", 0), ctx.getInputType(0).getRank());
    if (failed(normalized))
      return failure();
    axis = *normalized;
  } else {
    // Without an axis, the flattened input.
    input =
        reshape(b, loc, input, {getProduct(b, loc, getSizes(b, loc, input))});
  }
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> resultSizes = sizes;
  Value keptIndices;
  if (!condition) {
    IndexMath math(b, loc);
    OpFoldResult length =
        math.min(getSizes(b, loc, ctx.getInput(1)).front(), sizes[axis]);
    auto [count, positions] =
        buildTruePositions(b, loc, ctx.getInput(1), length);
    resultSizes[axis] = count;
    keptIndices = positions;
  } else {
    std::optional<int64_t> axisSize = getConstantIntValue(sizes[axis]);
    SmallVector<int64_t> kept;
    for (auto [i, value] : llvm::enumerate(*condition)) {
      if (!value)
        continue;
      if (axisSize && static_cast<int64_t>(i) >= *axisSize)
        return ctx.fail("the condition selects index " + Twine(i) +
                        " of a dimension of size " + Twine(*axisSize));
      kept.push_back(i);
    }
    resultSizes[axis] = b.getIndexAttr(kept.size());
    if (kept.empty()) {
      ctx.setOutput(0, createEmpty(b, loc, resultSizes, type.getElementType()));
      return success();
    }
    if (kept.back() - kept.front() + 1 == static_cast<int64_t>(kept.size())) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      offsets[axis] = b.getIndexAttr(kept.front());
      ctx.setOutput(
          0, createSlice(b, loc, input, offsets, resultSizes,
                         SmallVector<OpFoldResult>(rank, b.getIndexAttr(1))));
      return success();
    }
    auto keptType = RankedTensorType::get({static_cast<int64_t>(kept.size())},
                                          b.getI64Type());
    keptIndices = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(keptType, ArrayRef<int64_t>(kept)));
  }
  MLIRContext *context = b.getContext();
  Value empty = createEmpty(b, loc, resultSizes, type.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), keptIndices, empty,
      ArrayRef<AffineMap>{
          AffineMap::get(rank, 0, getAffineDimExpr(axis, context)),
          AffineMap::getMultiDimIdentityMap(rank, context)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> position = loopIndices(nb, nl, rank);
        position[axis] =
            arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[0]);
        linalg::YieldOp::create(
            nb, nl,
            tensor::ExtractOp::create(nb, nl, input, position).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

/// Col2Im sums the columns of `input` ([N, C * prod(block), L]) into an
/// image: each image element gathers, for every position in the block,
/// the one column (if any) whose block covers it there. The block shape
/// may be known only when the program runs; it is read in the body.
LogicalResult convertCol2Im(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  if (type.getRank() != 3)
    return ctx.fail("needs an input of rank 3");
  RankedTensorType outputType = ctx.getOutputType(0);
  int64_t spatial = outputType ? outputType.getRank() - 2 : 0;
  if (spatial < 1)
    return ctx.fail("needs the image's rank");
  SmallVector<int64_t> dilations = ctx.getInts("dilations");
  SmallVector<int64_t> pads = ctx.getInts("pads");
  SmallVector<int64_t> strides = ctx.getInts("strides");
  if (dilations.empty())
    dilations.assign(spatial, 1);
  if (pads.empty())
    pads.assign(2 * spatial, 0);
  if (strides.empty())
    strides.assign(spatial, 1);
  if (static_cast<int64_t>(dilations.size()) != spatial ||
      static_cast<int64_t>(pads.size()) != 2 * spatial ||
      static_cast<int64_t>(strides.size()) != spatial)
    return ctx.fail("dilations, strides and pads must have one entry per "
                    "image dimension (two for pads)");
  if (llvm::any_of(strides, [](int64_t s) { return s <= 0; }))
    return ctx.fail("strides must be positive");
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  std::optional<SmallVector<int64_t>> block = ctx.getConstantInts(2);
  if (block && static_cast<int64_t>(block->size()) != spatial)
    return ctx.fail("block_shape must have one entry per image dimension");
  // The output's sizes: the image's from inference or image_shape; the
  // channels from inference or the block's size.
  // (The output's rank is known: spatial was taken from it.)
  SmallVector<std::optional<OpFoldResult>> known = *ctx.getKnownOutputSizes(0);
  SmallVector<OpFoldResult> sizes = {inputSizes[0]};
  if (known[1]) {
    sizes.push_back(*known[1]);
  } else if (block) {
    int64_t volume = 1;
    for (int64_t size : *block)
      volume *= size;
    if (volume <= 0)
      return ctx.fail("block_shape must be positive");
    if (std::optional<int64_t> planes = getConstantIntValue(inputSizes[1]))
      sizes.push_back(b.getIndexAttr(*planes / volume));
    else
      sizes.push_back(arith::DivUIOp::create(b, loc,
                                             index(b, loc, inputSizes[1]),
                                             constantIndex(b, loc, volume))
                          .getResult());
  } else {
    return ctx.fail("block_shape must be a constant where the output's "
                    "channel count is not known");
  }
  if (llvm::all_of(ArrayRef(known).drop_front(2),
                   [](auto &size) { return size.has_value(); })) {
    for (auto &size : ArrayRef(known).drop_front(2))
      sizes.push_back(*size);
  } else {
    FailureOr<SmallVector<OpFoldResult>> image = ctx.getIndexValues(1);
    if (failed(image))
      return failure();
    if (static_cast<int64_t>(image->size()) != spatial)
      return ctx.fail("image_shape must have one entry per image dimension");
    llvm::append_range(sizes, *image);
  }
  // The block's volume: the input's planes per output channel.
  OpFoldResult volume;
  std::optional<int64_t> planes = getConstantIntValue(inputSizes[1]);
  std::optional<int64_t> channels = getConstantIntValue(sizes[1]);
  if (planes && channels) {
    if (*channels <= 0 || *planes % *channels)
      return ctx.fail("the input's " + Twine(*planes) +
                      " planes do not divide into " + Twine(*channels) +
                      " channels");
    volume = b.getIndexAttr(*planes / *channels);
  } else {
    volume = arith::DivUIOp::create(b, loc, index(b, loc, inputSizes[1]),
                                    index(b, loc, sizes[1]))
                 .getResult();
  }
  Value blockShape = ctx.getInput(2);
  bool blockUnsigned = ctx.isUnsignedInput(2);
  Type elementType = type.getElementType();
  int64_t rank = 2 + spatial;
  Value filled =
      createFilled(b, loc, sizes, createScalar(b, loc, elementType, 0));
  Value image = buildTrailingReduction(
      b, loc, filled, volume, [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> out = loopIndices(nb, nl, rank);
        Value offset = linalg::IndexOp::create(nb, nl, rank);
        // Index arithmetic, folded where the block and image are constants.
        auto c = [&](int64_t value) { return constantIndex(nb, nl, value); };
        auto add = [&](Value x, Value y) {
          return nb.createOrFold<arith::AddIOp>(nl, x, y);
        };
        auto sub = [&](Value x, Value y) {
          return nb.createOrFold<arith::SubIOp>(nl, x, y);
        };
        auto mul = [&](Value x, Value y) {
          return nb.createOrFold<arith::MulIOp>(nl, x, y);
        };
        auto compare = [&](arith::CmpIPredicate predicate, Value x, Value y) {
          return nb.createOrFold<arith::CmpIOp>(nl, predicate, x, y);
        };
        Value zero = c(0);
        SmallVector<Value> blockSizes;
        for (int64_t d = 0; d < spatial; ++d) {
          if (block) {
            blockSizes.push_back(c((*block)[d]));
            continue;
          }
          Value element =
              tensor::ExtractOp::create(nb, nl, blockShape, ValueRange{c(d)});
          blockSizes.push_back(blockUnsigned
                                   ? arith::IndexCastUIOp::create(
                                         nb, nl, nb.getIndexType(), element)
                                         .getResult()
                                   : arith::IndexCastOp::create(
                                         nb, nl, nb.getIndexType(), element)
                                         .getResult());
        }
        // The position in the block, row-major.
        SmallVector<Value> kernel(spatial);
        Value rest = offset;
        for (int64_t d = spatial - 1; d >= 0; --d) {
          kernel[d] = nb.createOrFold<arith::RemUIOp>(nl, rest, blockSizes[d]);
          rest = nb.createOrFold<arith::DivUIOp>(nl, rest, blockSizes[d]);
        }
        // The column whose block covers this element at that position:
        // column * stride - pad_begin + kernel * dilation = image index.
        SmallVector<Value> valid;
        Value column = zero;
        for (int64_t d = 0; d < spatial; ++d) {
          Value stride = c(strides[d]);
          Value dilation = c(dilations[d]);
          // Columns along d: (image + pads - extent) / stride + 1.
          Value extent = add(mul(sub(blockSizes[d], c(1)), dilation), c(1));
          Value span = sub(
              add(index(nb, nl, sizes[2 + d]), c(pads[d] + pads[spatial + d])),
              extent);
          Value columns =
              add(nb.createOrFold<arith::DivSIOp>(nl, span, stride), c(1));
          Value position =
              sub(add(out[2 + d], c(pads[d])), mul(kernel[d], dilation));
          Value along = nb.createOrFold<arith::DivSIOp>(nl, position, stride);
          valid.push_back(compare(arith::CmpIPredicate::sge, position, zero));
          if (strides[d] != 1)
            valid.push_back(compare(
                arith::CmpIPredicate::eq,
                nb.createOrFold<arith::RemSIOp>(nl, position, stride), zero));
          valid.push_back(compare(arith::CmpIPredicate::slt, along, columns));
          column = add(mul(column, columns), along);
        }
        Value covered = andAll(nb, nl, valid);
        Value plane = arith::AddIOp::create(
            nb, nl,
            arith::MulIOp::create(nb, nl, out[1], index(nb, nl, volume)),
            offset);
        column = arith::SelectOp::create(nb, nl, covered, column, zero);
        Value element = tensor::ExtractOp::create(
            nb, nl, input, ValueRange{out[0], plane, column});
        Value term = arith::SelectOp::create(
            nb, nl, covered, element, createScalar(nb, nl, elementType, 0));
        linalg::YieldOp::create(nb, nl,
                                combine(nb, nl, Reduction::Add, args[1], term,
                                        /*isUnsigned=*/false));
      });
  ctx.setOutput(0, image);
  return success();
}

/// NonZero: the indices of the input's nonzero elements in row-major
/// order, a row per dimension: the flat positions of the input's nonzero
/// elements (counted by a kernel, read by the host), each split into its
/// indices.
LogicalResult convertNonZero(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Type i64 = b.getI64Type();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  OpFoldResult total = getProduct(b, loc, sizes);
  Value flat = reshape(b, loc, input, {total});
  Value isNonZero =
      *buildElementwise(b, loc, flat, b.getI1Type(),
                        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
                          Value zero = createScalarLike(nb, nl, x[0], 0);
                          if (isa<FloatType>(x[0].getType()))
                            return arith::CmpFOp::create(
                                nb, nl, arith::CmpFPredicate::UNE, x[0], zero);
                          return arith::CmpIOp::create(
                              nb, nl, arith::CmpIPredicate::ne, x[0], zero);
                        },
                        {total});
  auto [count, positions] = buildTruePositions(b, loc, isNonZero, total);
  Value empty = createEmpty(b, loc, {b.getIndexAttr(rank), count}, i64);
  if (rank == 0) {
    ctx.setOutput(0, empty);
    return success();
  }
  // Each dimension's stride in the flat order.
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> strides(rank, math.constant(1));
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = math.mul(strides[d + 1], sizes[d + 1]);
  MLIRContext *context = b.getContext();
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), positions, empty,
      ArrayRef<AffineMap>{AffineMap::get(2, 0, getAffineDimExpr(1, context)),
                          AffineMap::getMultiDimIdentityMap(2, context)},
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value row = linalg::IndexOp::create(nb, nl, 0);
        Value position =
            arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[0]);
        Value result = arith::ConstantIndexOp::create(nb, nl, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value index = arith::RemUIOp::create(
              nb, nl,
              arith::DivUIOp::create(nb, nl, position,
                                     getIndexValue(nb, nl, strides[d])),
              getIndexValue(nb, nl, sizes[d]));
          Value isRow =
              arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, row,
                                    arith::ConstantIndexOp::create(nb, nl, d));
          result = arith::SelectOp::create(nb, nl, isRow, index, result);
        }
        linalg::YieldOp::create(
            nb, nl,
            arith::IndexCastOp::create(nb, nl, i64, result).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

/// Ops whose output sizes depend on the contents of their inputs, which
/// kiln must know when it compiles.
LogicalResult refuseDataDependentSize(NodeContext &ctx) {
  return ctx.fail("the output's size depends on the input's contents, "
                  "known only when the program runs; kiln needs sizes known "
                  "while importing or computed from the sizes of tensors");
}

} // namespace

void registerIndexingConverters(ConverterTable &table) {
  table["ScatterElements"] = convertScatterElements;
  table["ScatterND"] = convertScatterND;
  table["TensorScatter"] = convertTensorScatter;
  table["GatherND"] = convertGatherND;
  table["TopK"] = convertTopK;
  table["ReverseSequence"] = convertReverseSequence;
  table["Compress"] = convertCompress;
  table["Col2Im"] = convertCol2Im;
  table["NonZero"] = convertNonZero;
  table["Unique"] = refuseDataDependentSize;
}

} // namespace mlir::kiln::onnx_import
