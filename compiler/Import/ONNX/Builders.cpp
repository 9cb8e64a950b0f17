//===- Builders.cpp - IR the ONNX op converters share ---------------------===//

#include "Import/ONNX/Builders.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace mlir::kiln::onnx_import {

SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

Value createEmpty(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

Value createSlice(OpBuilder &b, Location loc, Value source,
                  ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                  ArrayRef<OpFoldResult> strides) {
  auto type = cast<RankedTensorType>(source.getType());
  // A slice of an empty dimension is empty along it.
  SmallVector<OpFoldResult> resultSizes(sizes);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) == 0)
      resultSizes[d] = b.getIndexAttr(0);
  if (llvm::any_of(resultSizes, [](OpFoldResult size) {
        return isConstantIntValue(size, 0);
      }))
    return createEmpty(b, loc, resultSizes, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, source, offsets, sizes,
                                        strides);
}

Value createScalar(OpBuilder &b, Location loc, Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat converted(value);
    bool losesInfo = false;
    converted.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, converted));
  }
  return createIntScalar(b, loc, type, static_cast<int64_t>(value));
}

Value createIntScalar(OpBuilder &b, Location loc, Type type, int64_t value) {
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, value);
  if (isa<FloatType>(type))
    return createScalar(b, loc, type, static_cast<double>(value));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt bits(64, static_cast<uint64_t>(value), /*isSigned=*/true);
  return arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, bits.trunc(width)));
}

Value createScalarLike(OpBuilder &b, Location loc, Value like, double value) {
  return createScalar(b, loc, like.getType(), value);
}

Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Value value) {
  Value empty = createEmpty(b, loc, sizes, value.getType());
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value createZeros(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType) {
  return createFilled(b, loc, sizes, createScalar(b, loc, elementType, 0));
}

Value combineElements(OpBuilder &b, Location loc, Combine kind, Value lhs,
                      Value rhs, bool isUnsigned) {
  Type type = lhs.getType();
  if (isa<FloatType>(type)) {
    switch (kind) {
    case Combine::Add:
      return arith::AddFOp::create(b, loc, lhs, rhs);
    case Combine::Mul:
      return arith::MulFOp::create(b, loc, lhs, rhs);
    case Combine::Max:
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    case Combine::Min:
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    }
  }
  bool isBool = type.isInteger(1);
  switch (kind) {
  case Combine::Add:
    if (isBool)
      return arith::OrIOp::create(b, loc, lhs, rhs);
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case Combine::Mul:
    if (isBool)
      return arith::AndIOp::create(b, loc, lhs, rhs);
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case Combine::Max:
    if (isUnsigned || isBool)
      return arith::MaxUIOp::create(b, loc, lhs, rhs);
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  case Combine::Min:
    if (isUnsigned || isBool)
      return arith::MinUIOp::create(b, loc, lhs, rhs);
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("every combination is handled");
}

Value buildSigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = createScalarLike(b, loc, x, 1.0);
  Value negated = arith::NegFOp::create(b, loc, x);
  Value negExp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, negExp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

std::optional<double> getSaturationBound(Type type) {
  if (!isa<Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type,
           Float8E5M2FNUZType, Float4E2M1FNType>(type))
    return std::nullopt;
  const llvm::fltSemantics &semantics =
      cast<FloatType>(type).getFloatSemantics();
  return APFloat::getLargest(semantics).convertToDouble();
}

Value normalizeIndex(OpBuilder &b, Location loc, Value element, Value size,
                     bool isUnsigned) {
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), element);
  Value value = arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, zero);
  Value fromEnd = arith::AddIOp::create(b, loc, value, size);
  return arith::SelectOp::create(b, loc, negative, fromEnd, value);
}

Value addAlongDimension(OpBuilder &b, Location loc, Value value, Value vector,
                        int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, context),
      AffineMap::get(rank, 0, {getAffineDimExpr(dim, context)}, context),
      AffineMap::getMultiDimIdentityMap(rank, context)};
  Value init = createEmpty(b, loc, getSizes(b, loc, value),
                           type.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{value, vector}, init, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value sum = combineElements(nb, nl, Combine::Add, args[0], args[1],
                                    /*isUnsigned=*/false);
        linalg::YieldOp::create(nb, nl, sum);
      });
  return generic.getResult(0);
}

Value createLowest(OpBuilder &b, Location loc, Type type, bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value = APFloat::semanticsHasInf(semantics)
                        ? APFloat::getInf(semantics, /*Negative=*/true)
                        : APFloat::getLargest(semantics, /*Negative=*/true);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsigned || width == 1 ? APInt::getMinValue(width)
                                         : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value createHighest(OpBuilder &b, Location loc, Type type, bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value = APFloat::semanticsHasInf(semantics)
                        ? APFloat::getInf(semantics, /*Negative=*/false)
                        : APFloat::getLargest(semantics, /*Negative=*/false);
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsigned || width == 1 ? APInt::getMaxValue(width)
                                         : APInt::getSignedMaxValue(width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

FailureOr<SmallVector<OpFoldResult>>
getBroadcastSizes(OpBuilder &b, Location loc, ValueRange inputs) {
  int64_t rank = 0;
  for (Value input : inputs)
    rank = std::max(rank, cast<RankedTensorType>(input.getType()).getRank());
  SmallVector<OpFoldResult> sizes(rank);
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> staticSize;
    Value dynamicInput;
    int64_t dynamicDim = 0;
    for (Value input : inputs) {
      auto type = cast<RankedTensorType>(input.getType());
      int64_t dim = d - (rank - type.getRank());
      if (dim < 0)
        continue;
      int64_t size = type.getDimSize(dim);
      if (ShapedType::isDynamic(size)) {
        if (!dynamicInput) {
          dynamicInput = input;
          dynamicDim = dim;
        }
        continue;
      }
      if (size == 1)
        continue;
      if (staticSize && *staticSize != size)
        return failure();
      staticSize = size;
    }
    if (staticSize)
      sizes[d] = b.getIndexAttr(*staticSize);
    else if (dynamicInput)
      sizes[d] = tensor::DimOp::create(b, loc, dynamicInput, dynamicDim)
                     .getResult();
    else
      sizes[d] = b.getIndexAttr(1);
  }
  return sizes;
}

FailureOr<Value> buildElementwise(OpBuilder &b, Location loc,
                                  ValueRange inputs, Type resultElementType,
                                  ElementBody body,
                                  ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> resultSizes(sizes);
  if (resultSizes.empty() && !inputs.empty()) {
    FailureOr<SmallVector<OpFoldResult>> broadcast =
        getBroadcastSizes(b, loc, inputs);
    if (failed(broadcast))
      return failure();
    resultSizes = *broadcast;
  }
  int64_t rank = resultSizes.size();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getRank() > rank)
      return failure();
    SmallVector<AffineExpr> exprs;
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      int64_t d = dim + rank - type.getRank();
      std::optional<int64_t> resultSize = getConstantIntValue(resultSizes[d]);
      // A static 1 stretched over a larger (or unknown) size.
      if (type.getDimSize(dim) == 1 && resultSize != 1)
        exprs.push_back(getAffineConstantExpr(0, context));
      else
        exprs.push_back(getAffineDimExpr(d, context));
    }
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  Value init = createEmpty(b, loc, resultSizes, resultElementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto isHalf = [](Type type) { return type.isF16() || type.isBF16(); };
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        // Half floats compute in f32 and round once, as ONNX Runtime does
        // (and ONNX's reference, in numpy): the op's result, not each step
        // of it, is rounded.
        SmallVector<Value> elements;
        for (Value arg : args.drop_back())
          elements.push_back(
              isHalf(arg.getType())
                  ? arith::ExtFOp::create(nested, nestedLoc,
                                          nested.getF32Type(), arg)
                        .getResult()
                  : arg);
        Value result = body(nested, nestedLoc, elements);
        if (isHalf(resultElementType) && result.getType().isF32())
          result = arith::TruncFOp::create(nested, nestedLoc,
                                           resultElementType, result);
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Value init, CombineBody combine) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> resultSizes;
  SmallVector<AffineExpr> resultExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(axes, d)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    resultSizes.push_back(sizes[d]);
    resultExprs.push_back(getAffineDimExpr(d, b.getContext()));
  }
  Value filled = createFilled(b, loc, resultSizes, init);
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, b.getContext()),
      AffineMap::get(rank, 0, resultExprs, b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, filled.getType(), input, filled, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                combine(nested, nestedLoc, args[0], args[1]));
      });
  return generic.getResult(0);
}

Value buildMaskedReduction(OpBuilder &b, Location loc, Value input,
                           ArrayRef<OpFoldResult> mask, Value init,
                           MaskedCombineBody combine, ValueRange extras) {
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> resultSizes, windowSizes;
  for (auto [size, reduced] : llvm::zip(sizes, mask)) {
    resultSizes.push_back(math.select(reduced, math.constant(1), size));
    windowSizes.push_back(math.select(reduced, size, math.constant(1)));
  }
  return buildWindowReduction(b, loc, input, resultSizes, windowSizes, init,
                              combine, extras);
}

SmallVector<OpFoldResult> getAxesMask(OpBuilder &b, Location loc,
                                      ArrayRef<OpFoldResult> axes,
                                      int64_t rank) {
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> mask;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult hits = math.constant(0);
    for (OpFoldResult axis : axes)
      hits = math.add(hits, math.namesDimension(axis, d, rank));
    mask.push_back(math.min(hits, math.constant(1)));
  }
  return mask;
}

SmallVector<OpFoldResult> getUnmarkedSizes(OpBuilder &b, Location loc,
                                           ArrayRef<OpFoldResult> sizes,
                                           ArrayRef<OpFoldResult> mask,
                                           int64_t count) {
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> kept(count, math.constant(0));
  OpFoldResult before = math.constant(0);
  for (auto [size, marked] : llvm::zip(sizes, mask)) {
    OpFoldResult unmarked = math.sub(math.constant(1), marked);
    for (int64_t k = 0; k < count; ++k) {
      OpFoldResult isK =
          math.mul(unmarked, math.compare(arith::CmpIPredicate::eq, before,
                                          math.constant(k)));
      kept[k] = math.add(kept[k], math.mul(isK, size));
    }
    before = math.add(before, unmarked);
  }
  return kept;
}

SmallVector<OpFoldResult> getSizesAroundMarked(OpBuilder &b, Location loc,
                                               ArrayRef<OpFoldResult> sizes,
                                               ArrayRef<OpFoldResult> mask) {
  IndexMath math(b, loc);
  SmallVector<OpFoldResult> result;
  OpFoldResult before = math.constant(0);
  for (auto [d, marked] : llvm::enumerate(mask)) {
    // Unmarked, dimension d takes sizes[d - before].
    OpFoldResult size = marked;
    OpFoldResult unmarked = math.sub(math.constant(1), marked);
    for (auto [k, given] : llvm::enumerate(sizes)) {
      if (k > d)
        break;
      OpFoldResult isK =
          math.compare(arith::CmpIPredicate::eq,
                       math.sub(math.constant(d), before), math.constant(k));
      size = math.add(size, math.mul(math.mul(unmarked, isK), given));
    }
    result.push_back(size);
    before = math.add(before, marked);
  }
  return result;
}

Value buildTrailingReduction(
    OpBuilder &b, Location loc, Value init, OpFoldResult extent,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  MLIRContext *context = b.getContext();
  int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
  Value steps = createEmpty(b, loc, {extent}, b.getI8Type());
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, context)),
      AffineMap::getMultiDimIdentityMap(rank + 1, context)
          .getMajorSubMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(b, loc, init.getType(), steps, init, maps,
                                   iterators, body)
      .getResult(0);
}

Value buildWindowReduction(OpBuilder &b, Location loc, Value input,
                           ArrayRef<OpFoldResult> resultSizes,
                           ArrayRef<OpFoldResult> windowSizes, Value init,
                           MaskedCombineBody combine, ValueRange extras) {
  MLIRContext *context = b.getContext();
  int64_t rank = resultSizes.size();
  // Loops 0..rank-1 walk the result, rank..2*rank-1 the window.
  SmallVector<AffineExpr> inputExprs, resultExprs, windowExprs;
  for (int64_t d = 0; d < rank; ++d) {
    resultExprs.push_back(getAffineDimExpr(d, context));
    windowExprs.push_back(getAffineDimExpr(rank + d, context));
    inputExprs.push_back(resultExprs.back() + windowExprs.back());
  }
  auto resultMap = AffineMap::get(2 * rank, 0, resultExprs, context);
  SmallVector<AffineMap> maps = {
      AffineMap::get(2 * rank, 0, inputExprs, context),
      AffineMap::get(2 * rank, 0, windowExprs, context)};
  maps.append(extras.size(), resultMap);
  maps.push_back(resultMap);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(rank, utils::IteratorType::reduction);
  // The window's extents, read by no computation.
  Value window = createEmpty(b, loc, windowSizes, b.getI8Type());
  SmallVector<Value> inputs = {input, window};
  llvm::append_range(inputs, extras);
  Value filled = createFilled(b, loc, resultSizes, init);
  auto generic = linalg::GenericOp::create(
      b, loc, filled.getType(), inputs, filled, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                combine(nested, nestedLoc, args[0],
                                        args.drop_front(2).drop_back(),
                                        args.back()));
      });
  return generic.getResult(0);
}

Value insertUnitDims(OpBuilder &b, Location loc, Value tensor,
                     ArrayRef<int64_t> axes) {
  if (axes.empty())
    return tensor;
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, tensor);
  for (int64_t axis : axes)
    sizes.insert(sizes.begin() + axis, b.getIndexAttr(1));
  return reshape(b, loc, tensor, sizes);
}

FailureOr<Value> broadcastTo(OpBuilder &b, Location loc, Value tensor,
                             ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(tensor.getType());
  return buildElementwise(
      b, loc, tensor, type.getElementType(),
      [](OpBuilder &, Location, ValueRange elements) { return elements[0]; },
      sizes);
}

Value convertScalar(OpBuilder &b, Location loc, Value value, Type to,
                    bool fromUnsigned, bool toUnsigned) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (to.isIndex() || from.isIndex()) {
    if (isa<FloatType>(from))
      value = convertScalar(b, loc, value, b.getI64Type(), false, false);
    else if (isa<FloatType>(to))
      return convertScalar(
          b, loc, convertScalar(b, loc, value, b.getI64Type(), fromUnsigned,
                                false),
          to, false, toUnsigned);
    if (fromUnsigned)
      return arith::IndexCastUIOp::create(b, loc, to, value);
    return arith::IndexCastOp::create(b, loc, to, value);
  }
  if (to.isInteger(1)) {
    if (isa<FloatType>(from)) {
      Value zero = createScalar(b, loc, from, 0.0);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    }
    Value zero = createIntScalar(b, loc, from, 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 zero);
  }
  if (from.isInteger(1))
    fromUnsigned = true;
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    if (auto fromFloat = dyn_cast<FloatType>(from)) {
      if (fromFloat.getWidth() < toFloat.getWidth())
        return arith::ExtFOp::create(b, loc, to, value);
      if (fromFloat.getWidth() > toFloat.getWidth())
        return arith::TruncFOp::create(b, loc, to, value);
      // Same width, other format (f16 and bf16): through f32.
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
      return arith::TruncFOp::create(b, loc, to, wide);
    }
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  if (isa<FloatType>(from)) {
    if (toUnsigned)
      return arith::FPToUIOp::create(b, loc, to, value);
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth < toWidth) {
    if (fromUnsigned)
      return arith::ExtUIOp::create(b, loc, to, value);
    return arith::ExtSIOp::create(b, loc, to, value);
  }
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, to, value);
  return value;
}

Value convertElements(OpBuilder &b, Location loc, Value tensor, Type to,
                      bool fromUnsigned, bool toUnsigned) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == to)
    return tensor;
  return *buildElementwise(
      b, loc, tensor, to,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange elements) {
        return convertScalar(nested, nestedLoc, elements[0], to, fromUnsigned,
                             toUnsigned);
      },
      getSizes(b, loc, tensor));
}

std::optional<ArrayRef<char>> getConstantBytes(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!constant || !type || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue())) {
    if (dense.isSplat())
      return std::nullopt;
    return dense.getRawData();
  }
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

namespace {

/// A constant `tensor` transposed while importing: weights stored in one
/// layout and computed on in another cost nothing when the program runs.
Value transposeConstant(OpBuilder &b, Location loc, Value tensor,
                        ArrayRef<char> bytes, ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(tensor.getType());
  int64_t rank = type.getRank();
  int64_t elementBytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> resultShape;
  for (int64_t dim : permutation)
    resultShape.push_back(shape[dim]);
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  int64_t count = type.getNumElements();
  auto blob = HeapAsmResourceBlob::allocate(count * elementBytes,
                                            /*align=*/64,
                                            /*dataIsMutable=*/true);
  MutableArrayRef<char> output = blob.getMutableData();
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[permutation[d]];
    std::memcpy(output.data() + linear * elementBytes,
                bytes.data() + offset * elementBytes, elementBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < resultShape[d])
        break;
      index[d] = 0;
    }
  }
  auto resultType = RankedTensorType::get(resultShape, type.getElementType());
  auto constant = tensor.getDefiningOp<arith::ConstantOp>();
  Attribute attr;
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    attr = DenseResourceElementsAttr::get(
        resultType, (resource.getRawHandle().getKey() + ".t").str(),
        std::move(blob));
  else
    attr = DenseElementsAttr::getFromRawBuffer(resultType, blob.getData());
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(attr));
}

} // namespace

Value transpose(OpBuilder &b, Location loc, Value tensor,
                ArrayRef<int64_t> permutation) {
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return tensor;
  if (std::optional<ArrayRef<char>> bytes = getConstantBytes(tensor))
    return transposeConstant(b, loc, tensor, *bytes, permutation);
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, tensor);
  SmallVector<OpFoldResult> permuted;
  for (int64_t dim : permutation)
    permuted.push_back(sizes[dim]);
  Value init = createEmpty(
      b, loc, permuted,
      cast<RankedTensorType>(tensor.getType()).getElementType());
  return linalg::TransposeOp::create(b, loc, tensor, init, permutation)
      .getResult()[0];
}

OpFoldResult getProduct(OpBuilder &b, Location loc,
                        ArrayRef<OpFoldResult> sizes) {
  int64_t staticProduct = 1;
  Value dynamicProduct;
  for (OpFoldResult size : sizes) {
    if (std::optional<int64_t> value = getConstantIntValue(size)) {
      staticProduct *= *value;
      continue;
    }
    Value v = getIndexValue(b, loc, size);
    dynamicProduct =
        dynamicProduct ? arith::MulIOp::create(b, loc, dynamicProduct, v)
                             .getResult()
                       : v;
  }
  if (!dynamicProduct)
    return b.getIndexAttr(staticProduct);
  if (staticProduct == 1)
    return dynamicProduct;
  return arith::MulIOp::create(
             b, loc, dynamicProduct,
             arith::ConstantIndexOp::create(b, loc, staticProduct))
      .getResult();
}

Value getIndexValue(OpBuilder &b, Location loc, OpFoldResult value) {
  return getValueOrCreateConstantIndexOp(b, loc, value);
}

Value extractScalar(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> indices(type.getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, tensor, indices);
}

namespace {

/// Whether a collapse or expand along `groups` between `collapsed` and
/// `expanded` types verifies: a collapsed size is static exactly when all
/// its expanded sizes are.
bool areGroupsConsistent(ArrayRef<ReassociationIndices> groups,
                         RankedTensorType collapsed,
                         RankedTensorType expanded) {
  for (auto [i, group] : llvm::enumerate(groups)) {
    bool allStatic = llvm::none_of(group, [&](int64_t d) {
      return expanded.isDynamicDim(d);
    });
    if (allStatic == collapsed.isDynamicDim(i))
      return false;
  }
  return true;
}

} // namespace

Value reshape(OpBuilder &b, Location loc, Value tensor,
              ArrayRef<OpFoldResult> sizes) {
  auto sourceType = cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> folded;
  for (OpFoldResult size : sizes) {
    std::optional<int64_t> value = getConstantIntValue(size);
    shape.push_back(value ? *value : ShapedType::kDynamic);
    folded.push_back(value ? OpFoldResult(b.getIndexAttr(*value)) : size);
  }
  auto resultType = RankedTensorType::get(shape, sourceType.getElementType());
  if (resultType == sourceType && sourceType.hasStaticShape())
    return tensor;
  int64_t sourceRank = sourceType.getRank();
  int64_t resultRank = resultType.getRank();
  // The sizes agree where both are static; one tensor.cast makes the source
  // as static as the result.
  auto castTo = [&](Value value, RankedTensorType type) -> Value {
    return value.getType() == type
               ? value
               : tensor::CastOp::create(b, loc, type, value).getResult();
  };
  // To or from a scalar: every dimension is 1.
  if (resultRank == 0)
    return tensor::CollapseShapeOp::create(
        b, loc, resultType,
        castTo(tensor, RankedTensorType::get(
                           SmallVector<int64_t>(sourceRank, 1),
                           sourceType.getElementType())),
        ArrayRef<ReassociationIndices>{});
  if (sourceRank == 0)
    return tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get(SmallVector<int64_t>(resultRank, 1),
                              sourceType.getElementType()),
        tensor, ArrayRef<ReassociationIndices>{},
        SmallVector<OpFoldResult>(resultRank, b.getIndexAttr(1)));
  if (sourceRank != resultRank)
    if (std::optional<SmallVector<ReassociationIndices>> groups =
            getReassociationIndicesForReshape(sourceType, resultType)) {
      if (sourceRank > resultRank &&
          areGroupsConsistent(*groups, resultType, sourceType))
        return tensor::CollapseShapeOp::create(b, loc, resultType, tensor,
                                               *groups);
      if (sourceRank < resultRank &&
          areGroupsConsistent(*groups, sourceType, resultType))
        return tensor::ExpandShapeOp::create(b, loc, resultType, tensor,
                                             *groups, folded);
    }
  // Through one dimension, static when the result is.
  Value flat = tensor;
  if (sourceRank != 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, sourceRank));
    flat = tensor::CollapseShapeOp::create(b, loc, flat,
                                           ArrayRef<ReassociationIndices>{all});
  }
  auto flatType = RankedTensorType::get(
      {resultType.hasStaticShape() ? resultType.getNumElements()
                                   : ShapedType::kDynamic},
      sourceType.getElementType());
  flat = castTo(flat, flatType);
  if (resultRank == 1)
    return castTo(flat, resultType);
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, resultRank));
  return tensor::ExpandShapeOp::create(b, loc, resultType, flat,
                                       ArrayRef<ReassociationIndices>{all},
                                       folded);
}

} // namespace mlir::kiln::onnx_import
