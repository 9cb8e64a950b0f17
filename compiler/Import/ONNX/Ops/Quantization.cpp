//===- Quantization.cpp - ONNX's linear quantization and BitCast -----------===//
//
// QuantizeLinear and DequantizeLinear, per tensor, per axis and blocked: one
// linalg.generic over the input, the scale and zero point laid out to
// broadcast against it. BitCast reinterprets each element's bits.
// DynamicQuantizeLinear needs nothing here: ONNX expands it into ops
// including QuantizeLinear.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/ModelLoader.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

namespace mlir::kiln::onnx_import {

namespace {

bool isFloat(Type type) { return isa<FloatType>(type); }

/// Why an element type kiln has no MLIR type for (the 4-bit and 2-bit
/// integers, the 6-bit floats) cannot be quantized to or from.
LogicalResult failUnsupportedType(NodeContext &ctx, StringRef what,
                                  int32_t elementType) {
  return ctx.fail(what + " has element type " +
                  getElementTypeName(elementType) +
                  ", which kiln does not support (no 4-bit or 2-bit "
                  "integers, no 6-bit floats)");
}

/// Whether input `i` is a constant of zeros only.
bool isKnownZero(NodeContext &ctx, unsigned i) {
  DenseElementsAttr attr = ctx.getConstantInput(i);
  if (!attr)
    return false;
  if (isFloat(attr.getElementType()))
    return llvm::all_of(attr.getValues<APFloat>(),
                        [](const APFloat &value) { return value.isZero(); });
  return llvm::all_of(attr.getValues<APInt>(),
                      [](const APInt &value) { return value.isZero(); });
}

/// A scale or zero point laid out to broadcast against `x`: per tensor (a
/// scalar or one element) as a 0-d tensor, per axis ([Di]) as [Di, 1, ...],
/// blocked (x's shape with ceil(Di / block) at `axis`) each element repeated
/// `blockSize` times along the axis and cut to Di.
FailureOr<Value> alignParameter(NodeContext &ctx, Value parameter, Value x,
                                int64_t axisAttribute, int64_t blockSize,
                                StringRef what) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  auto type = cast<RankedTensorType>(parameter.getType());
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  if (type.getRank() == 0)
    return parameter;
  if (type.hasStaticShape() && type.getNumElements() == 1)
    return reshape(b, loc, parameter, {});
  FailureOr<int64_t> axis = ctx.normalizeAxis(axisAttribute, rank);
  if (failed(axis))
    return failure();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, parameter);
  if (blockSize <= 0) {
    if (type.getRank() != 1)
      return ctx.fail(what + " must be a scalar or 1-D without block_size");
    if (!type.isDynamicDim(0) && !xType.isDynamicDim(*axis) &&
        type.getDimSize(0) != xType.getDimSize(*axis))
      return ctx.fail(what + " has " + Twine(type.getDimSize(0)) +
                      " elements for axis " + Twine(*axis) + " of size " +
                      Twine(xType.getDimSize(*axis)));
    SmallVector<OpFoldResult> aligned = {sizes[0]};
    aligned.append(rank - *axis - 1, b.getIndexAttr(1));
    return reshape(b, loc, parameter, aligned);
  }
  if (type.getRank() != rank)
    return ctx.fail("with block_size, " + what + " must have x's rank");
  int64_t blocks = type.getDimSize(*axis);
  int64_t length = xType.getDimSize(*axis);
  int64_t needed = (length + blockSize - 1) / blockSize;
  if (!ShapedType::isDynamic(blocks) && !ShapedType::isDynamic(length) &&
      blocks != needed)
    return ctx.fail(what + " has " + Twine(blocks) + " blocks along axis " +
                    Twine(*axis) + "; " + Twine(length) +
                    " elements in blocks of " + Twine(blockSize) + " need " +
                    Twine(needed));
  // [.., S, ..] -> [.., S, 1, ..] -> [.., S, block, ..] -> [.., S * block, ..]
  SmallVector<OpFoldResult> split(sizes);
  split.insert(split.begin() + *axis + 1, b.getIndexAttr(1));
  Value expanded = reshape(b, loc, parameter, split);
  split[*axis + 1] = b.getIndexAttr(blockSize);
  FailureOr<Value> repeated = broadcastTo(b, loc, expanded, split);
  if (failed(repeated))
    return ctx.fail("cannot repeat " + what + " along its blocks");
  SmallVector<OpFoldResult> merged(sizes);
  merged[*axis] = getProduct(b, loc, {sizes[*axis], split[*axis + 1]});
  Value flat = reshape(b, loc, *repeated, merged);
  // The last block may be partial.
  OpFoldResult xLength = getSizes(b, loc, x)[*axis];
  std::optional<int64_t> mergedLength = getConstantIntValue(merged[*axis]);
  if (mergedLength && !ShapedType::isDynamic(length) && *mergedLength == length)
    return flat;
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> cut(merged);
  cut[*axis] = xLength;
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, flat, offsets, cut, strides)
      .getResult();
}

/// The float type the arithmetic of QuantizeLinear is done in: the
/// precision attribute's, else the scale's; f32 for a scale (int32,
/// float8e8m0) that has no arithmetic of its own.
Type getQuantizePrecision(NodeContext &ctx) {
  MLIRContext *context = ctx.builder.getContext();
  Type type = ctx.getInputType(1).getElementType();
  if (int64_t precision = ctx.getInt("precision", 0))
    if (Type given = getMLIRElementType(context, precision))
      type = given;
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return type;
  return Float32Type::get(context);
}

//===----------------------------------------------------------------------===//
// QuantizeLinear, DequantizeLinear
//===----------------------------------------------------------------------===//

/// y = saturate(round(x / scale) + zero_point), rounding halves to even.
/// Integers are computed in floats wide enough for their range (f32, or f64
/// when the precision is), clamped to the type's range before converting;
/// floats add the zero point and convert, clamped to the largest finite
/// value when saturating.
LogicalResult convertQuantizeLinear(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  RankedTensorType outputType = ctx.getOutputType(0);
  if (!outputType)
    return failUnsupportedType(ctx, "y", ctx.getOutputElementType(0));
  Type out = outputType.getElementType();
  bool outUnsigned = isUnsignedType(ctx.getOutputElementType(0));
  if (!isa<IntegerType>(out) && !getSaturationBound(out))
    return ctx.fail("cannot quantize to " +
                    getElementTypeName(ctx.getOutputElementType(0)));
  if (isa<IntegerType>(out) && out.getIntOrFloatBitWidth() > 16)
    return ctx.fail("cannot quantize to " +
                    getElementTypeName(ctx.getOutputElementType(0)));
  Value x = ctx.getInput(0);
  int64_t axis = ctx.getInt("axis", 1);
  int64_t blockSize = ctx.getInt("block_size", 0);
  SmallVector<Value> inputs = {x};
  FailureOr<Value> scale =
      alignParameter(ctx, ctx.getInput(1), x, axis, blockSize, "y_scale");
  if (failed(scale))
    return failure();
  inputs.push_back(*scale);
  bool hasZeroPoint = ctx.hasInput(2) && !isKnownZero(ctx, 2);
  bool zeroPointUnsigned = hasZeroPoint && ctx.isUnsignedInput(2);
  if (hasZeroPoint) {
    FailureOr<Value> zeroPoint = alignParameter(ctx, ctx.getInput(2), x, axis,
                                                blockSize, "y_zero_point");
    if (failed(zeroPoint))
      return failure();
    inputs.push_back(*zeroPoint);
  }
  Type precision = getQuantizePrecision(ctx);
  bool xUnsigned = ctx.isUnsignedInput(0);
  bool saturate = ctx.getInt("saturate", 1) != 0;
  FailureOr<Value> result = buildElementwise(
      b, loc, inputs, out,
      [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        Value value = convertScalar(nb, nl, v[0], precision, xUnsigned, false);
        Value divisor = convertScalar(nb, nl, v[1], precision, false, false);
        Value q = arith::DivFOp::create(nb, nl, value, divisor);
        if (isa<IntegerType>(out)) {
          // f32 holds every integer of 16 bits and their sums exactly.
          Type wide = precision.isF64() ? precision : nb.getF32Type();
          q = math::RoundEvenOp::create(
              nb, nl, convertScalar(nb, nl, q, wide, false, false));
          if (hasZeroPoint)
            q = arith::AddFOp::create(
                nb, nl, q,
                convertScalar(nb, nl, v[2], wide, zeroPointUnsigned, false));
          // maxnumf first: NaN becomes the type's lowest value.
          unsigned width = out.getIntOrFloatBitWidth();
          double lowest = outUnsigned ? 0 : -std::ldexp(1.0, width - 1);
          double highest = std::ldexp(1.0, outUnsigned ? width : width - 1) - 1;
          q = arith::MaxNumFOp::create(nb, nl, q,
                                       createScalar(nb, nl, wide, lowest));
          q = arith::MinNumFOp::create(nb, nl, q,
                                       createScalar(nb, nl, wide, highest));
          return convertScalar(nb, nl, q, out, false, outUnsigned);
        }
        if (hasZeroPoint)
          q = arith::AddFOp::create(
              nb, nl, q, convertScalar(nb, nl, v[2], precision, false, false));
        // FP4 has nothing to overflow to: it always saturates.
        if (std::optional<double> bound = getSaturationBound(out);
            bound && (saturate || isa<Float4E2M1FNType>(out))) {
          q = arith::MinimumFOp::create(
              nb, nl, q, createScalar(nb, nl, q.getType(), *bound));
          q = arith::MaximumFOp::create(
              nb, nl, q, createScalar(nb, nl, q.getType(), -*bound));
        }
        return convertScalar(nb, nl, q, out, false, false);
      },
      getSizes(b, loc, x));
  if (failed(result))
    return ctx.fail("y_scale and y_zero_point do not broadcast to x");
  ctx.setOutput(0, *result);
  return success();
}

/// y = (x - zero_point) * scale, computed in f32 (the integers' difference
/// exactly, in i32 or i64) and converted to the output's type.
LogicalResult convertDequantizeLinear(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  if (!ctx.getInferredInputType(0))
    return ctx.fail("x has an element type kiln does not support (no 4-bit "
                    "or 2-bit integers, no 6-bit floats)");
  if (ctx.hasInput(2) && !ctx.getInferredInputType(2))
    return ctx.fail("x_zero_point has an element type kiln does not support "
                    "(no 4-bit or 2-bit integers, no 6-bit floats)");
  Type out = ctx.getOutputElementMLIRType(0);
  Value x = ctx.getInput(0);
  Type xElement = ctx.getInputType(0).getElementType();
  bool xUnsigned = ctx.isUnsignedInput(0);
  int64_t axis = ctx.getInt("axis", 1);
  int64_t blockSize = ctx.getInt("block_size", 0);
  SmallVector<Value> inputs = {x};
  FailureOr<Value> scale =
      alignParameter(ctx, ctx.getInput(1), x, axis, blockSize, "x_scale");
  if (failed(scale))
    return failure();
  inputs.push_back(*scale);
  bool hasZeroPoint = ctx.hasInput(2) && !isKnownZero(ctx, 2);
  if (hasZeroPoint) {
    FailureOr<Value> zeroPoint = alignParameter(ctx, ctx.getInput(2), x, axis,
                                                blockSize, "x_zero_point");
    if (failed(zeroPoint))
      return failure();
    inputs.push_back(*zeroPoint);
  }
  Type f32 = b.getF32Type();
  FailureOr<Value> result = buildElementwise(
      b, loc, inputs, out,
      [&](OpBuilder &nb, Location nl, ValueRange v) -> Value {
        Value value;
        if (isa<IntegerType>(xElement)) {
          Type wide = xElement.getIntOrFloatBitWidth() < 32 ? nb.getI32Type()
                                                            : nb.getI64Type();
          value = convertScalar(nb, nl, v[0], wide, xUnsigned, false);
          if (hasZeroPoint)
            value = arith::SubIOp::create(
                nb, nl, value,
                convertScalar(nb, nl, v[2], wide, xUnsigned, false));
          value = convertScalar(nb, nl, value, f32, false, false);
        } else {
          value = convertScalar(nb, nl, v[0], f32, false, false);
          if (hasZeroPoint)
            value = arith::SubFOp::create(
                nb, nl, value, convertScalar(nb, nl, v[2], f32, false, false));
        }
        Value factor = convertScalar(nb, nl, v[1], f32, false, false);
        Value y = arith::MulFOp::create(nb, nl, value, factor);
        return convertScalar(nb, nl, y, out, false, false);
      },
      getSizes(b, loc, x));
  if (failed(result))
    return ctx.fail("x_scale and x_zero_point do not broadcast to x");
  ctx.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// BitCast
//===----------------------------------------------------------------------===//

/// The width of an element as ONNX stores it (a bool is a byte).
unsigned getStoredWidth(Type type) {
  return type.isInteger(1) ? 8 : type.getIntOrFloatBitWidth();
}

LogicalResult convertBitCast(NodeContext &ctx) {
  int32_t toType = ctx.getInt("to", 0);
  Type to = getMLIRElementType(ctx.builder.getContext(), toType);
  if (!to)
    return failUnsupportedType(ctx, "'to'", toType);
  Value input = ctx.getInput(0);
  Type from = ctx.getInputType(0).getElementType();
  if (getStoredWidth(from) != getStoredWidth(to))
    return ctx.fail("cannot reinterpret " +
                    getElementTypeName(ctx.getInputElementType(0)) + " (" +
                    Twine(getStoredWidth(from)) + " bits) as " +
                    getElementTypeName(toType) + " (" +
                    Twine(getStoredWidth(to)) + " bits)");
  // Signed and unsigned integers of a width share their MLIR type.
  if (from == to) {
    ctx.setOutput(0, input);
    return success();
  }
  FailureOr<Value> result = buildElementwise(
      ctx.builder, ctx.loc, input, to,
      [&](OpBuilder &b, Location loc, ValueRange v) -> Value {
        Value value = v[0];
        // A bool's byte is 0 or 1; any other byte is a true bool.
        if (from.isInteger(1))
          value = arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
        Type bits = to.isInteger(1) ? b.getI8Type() : to;
        if (value.getType() != bits)
          value = arith::BitcastOp::create(b, loc, bits, value);
        if (to.isInteger(1))
          value = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                        createIntScalar(b, loc, bits, 0));
        return value;
      },
      getSizes(ctx.builder, ctx.loc, input));
  ctx.setOutput(0, *result);
  return success();
}

} // namespace

void registerQuantizationConverters(ConverterTable &table) {
  table["QuantizeLinear"] = convertQuantizeLinear;
  table["DequantizeLinear"] = convertDequantizeLinear;
  table["BitCast"] = convertBitCast;
}

} // namespace mlir::kiln::onnx_import
