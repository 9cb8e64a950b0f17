//===- Spectral.cpp - ONNX DFT --------------------------------------------===//
//
// DFT as one linalg.generic over the output and the sum's index: each
// output element sums its whole signal (quadratic in the signal's length,
// as a matmul by the DFT matrix would be), reading the input where the
// signal lies and 0 past it. The angle's integer part, k * n mod N, and
// its quarter turns are computed exactly before they become floats, so
// that cos and sin are exact at each quarter turn. The axis may be known only
// as the program runs: each dimension's flag (is it the axis) is then an
// index the host computes, and the kernel picks its indices by it.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::kiln::onnx_import {

namespace {

LogicalResult convertDFT(NodeContext &ctx) {
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  Type elementType = type.getElementType();
  if (!isa<FloatType>(elementType))
    return ctx.fail("needs floating-point elements");
  int64_t components = type.getDimSize(rank - 1);
  if (rank < 2 || (components != 1 && components != 2))
    return ctx.fail("the input's last dimension must be 1 (real) or 2 "
                    "(complex)");
  bool inverse = ctx.getInt("inverse", 0);
  bool onesided = ctx.getInt("onesided", 0);
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  IndexMath math(b, loc);

  // The axis: an input since opset 20 (models are converted to the newest).
  OpFoldResult axis = math.constant(-2);
  if (ctx.hasInput(2)) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(2);
    if (failed(values))
      return failure();
    if (values->size() != 1)
      return ctx.fail("axis must hold one value");
    axis = values->front();
  }
  if (std::optional<int64_t> known = getConstantIntValue(axis)) {
    FailureOr<int64_t> normalized = ctx.normalizeAxis(*known, rank);
    if (failed(normalized))
      return failure();
    if (*normalized == rank - 1)
      return ctx.fail("the axis cannot be the last (components) dimension");
    axis = math.constant(*normalized);
  }
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> isAxis;
  OpFoldResult signalSize = math.constant(0);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    isAxis.push_back(math.namesDimension(axis, d, rank));
    signalSize = math.add(signalSize, math.mul(isAxis.back(), sizes[d]));
  }

  // A one-sided inverse (irfft) takes the first half of a Hermitian
  // spectrum and gives a real signal.
  bool halfSpectrumIn = inverse && onesided;
  OpFoldResult length =
      halfSpectrumIn
          ? math.mul(math.sub(signalSize, math.constant(1)), math.constant(2))
          : signalSize;
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<OpFoldResult>> values = ctx.getIndexValues(1);
    if (failed(values))
      return failure();
    if (values->size() != 1)
      return ctx.fail("dft_length must hold one value");
    length = values->front();
  }
  if (std::optional<int64_t> known = getConstantIntValue(length);
      known && *known < 1)
    return ctx.fail("dft_length must be at least 1");
  OpFoldResult outputLength =
      onesided && !inverse
          ? math.add(math.floorDiv(length, math.constant(2)), math.constant(1))
          : length;
  SmallVector<OpFoldResult> outputSizes;
  for (int64_t d = 0; d + 1 < rank; ++d)
    outputSizes.push_back(math.select(isAxis[d], outputLength, sizes[d]));
  outputSizes.push_back(math.constant(halfSpectrumIn ? 1 : 2));

  // Narrower floats compute in f32.
  Type computeType = elementType.getIntOrFloatBitWidth() < 32
                         ? Type(b.getF32Type())
                         : elementType;
  Value init =
      createFilled(b, loc, outputSizes, createScalar(b, loc, computeType, 0));
  Value sums = buildTrailingReduction(
      b, loc, init, length, [&](OpBuilder &nb, Location nl, ValueRange args) {
        auto indexConstant = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, nl, v);
        };
        auto indexValue = [&](OpFoldResult v) {
          return getIndexValue(nb, nl, v);
        };
        auto add = [&](Value l, Value r) -> Value {
          return arith::AddIOp::create(nb, nl, l, r);
        };
        auto mul = [&](Value l, Value r) -> Value {
          return arith::MulIOp::create(nb, nl, l, r);
        };
        Value zero = indexConstant(0), one = indexConstant(1);
        Value n = indexValue(length);
        // Place along the axis in the output (out) and of the term (term).
        Value out = zero;
        for (int64_t d = 0; d + 1 < rank; ++d)
          out = add(out, mul(indexValue(isAxis[d]),
                             linalg::IndexOp::create(nb, nl, d)));
        Value term = linalg::IndexOp::create(nb, nl, rank);
        // The input's place along the axis: the term's, or for a half
        // spectrum the frequency term stands for (k and N - k mirror).
        Value source = term;
        if (halfSpectrumIn)
          source = arith::MinSIOp::create(
              nb, nl, term, arith::SubIOp::create(nb, nl, n, term));
        Value axisSize = indexValue(signalSize);
        Value inside = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt,
                                             source, axisSize);
        Value clamped = arith::MinSIOp::create(
            nb, nl, source,
            arith::MaxSIOp::create(
                nb, nl, arith::SubIOp::create(nb, nl, axisSize, one), zero));
        SmallVector<Value> indices;
        for (int64_t d = 0; d + 1 < rank; ++d) {
          // d is the axis: the source place; else the output's.
          Value own = linalg::IndexOp::create(nb, nl, d);
          Value flag = indexValue(isAxis[d]);
          indices.push_back(
              add(own, mul(flag, arith::SubIOp::create(nb, nl, clamped, own))));
        }
        Value zeroElement = createScalar(nb, nl, computeType, 0);
        auto read = [&](int64_t component) -> Value {
          SmallVector<Value> at = indices;
          at.push_back(indexConstant(component));
          Value element = tensor::ExtractOp::create(nb, nl, input, at);
          element = convertScalar(nb, nl, element, computeType, false, false);
          return arith::SelectOp::create(nb, nl, inside, element, zeroElement);
        };
        Value real = read(0);
        Value imaginary = components == 2 ? read(1) : zeroElement;
        // angle = ±2π (k n mod N) / N, + for the inverse.
        Value product = halfSpectrumIn ? mul(source, out) : mul(term, out);
        Value turns = arith::RemUIOp::create(nb, nl, product, n);
        auto toFloat = [&](Value index) {
          Value wide =
              arith::IndexCastUIOp::create(nb, nl, nb.getI64Type(), index);
          return arith::UIToFPOp::create(nb, nl, computeType, wide);
        };
        // The turn's quadrant q and the angle θ within it, r / N of a
        // quarter turn: cos and sin of q quarter turns plus θ are those of
        // θ swapped and negated, exact at each quarter turn.
        Value four = indexConstant(4);
        Value quarters = mul(turns, four);
        Value quadrant = arith::DivUIOp::create(nb, nl, quarters, n);
        Value rest = arith::SubIOp::create(nb, nl, quarters, mul(quadrant, n));
        Value theta = arith::MulFOp::create(
            nb, nl, arith::DivFOp::create(nb, nl, toFloat(rest), toFloat(n)),
            createScalar(nb, nl, computeType, llvm::numbers::pi / 2));
        Value c = math::CosOp::create(nb, nl, theta);
        Value s = math::SinOp::create(nb, nl, theta);
        Value minusC = arith::NegFOp::create(nb, nl, c);
        Value minusS = arith::NegFOp::create(nb, nl, s);
        auto inQuadrant = [&](int64_t q) {
          return arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                       quadrant, indexConstant(q));
        };
        auto byQuadrant = [&](Value q0, Value q1, Value q2, Value q3) -> Value {
          return arith::SelectOp::create(
              nb, nl, inQuadrant(0), q0,
              arith::SelectOp::create(
                  nb, nl, inQuadrant(1), q1,
                  arith::SelectOp::create(nb, nl, inQuadrant(2), q2, q3)));
        };
        Value cos = byQuadrant(c, minusS, minusC, s);
        Value sin = byQuadrant(s, c, minusS, minusC);
        // The forward transform turns the other way.
        if (!inverse)
          sin = arith::NegFOp::create(nb, nl, sin);
        // (re + i im)(cos + i sin)
        Value outReal = arith::SubFOp::create(
            nb, nl, arith::MulFOp::create(nb, nl, real, cos),
            arith::MulFOp::create(nb, nl, imaginary, sin));
        Value outImaginary = arith::AddFOp::create(
            nb, nl, arith::MulFOp::create(nb, nl, real, sin),
            arith::MulFOp::create(nb, nl, imaginary, cos));
        Value isImaginary = arith::CmpIOp::create(
            nb, nl, arith::CmpIPredicate::eq,
            linalg::IndexOp::create(nb, nl, rank - 1), one);
        Value value =
            arith::SelectOp::create(nb, nl, isImaginary, outImaginary, outReal);
        if (inverse)
          value = arith::DivFOp::create(nb, nl, value, toFloat(n));
        linalg::YieldOp::create(
            nb, nl, arith::AddFOp::create(nb, nl, args[1], value).getResult());
      });
  Value result = sums;
  if (computeType != elementType)
    result = *buildElementwise(
        b, loc, result, elementType,
        [&](OpBuilder &nb, Location nl, ValueRange x) -> Value {
          return convertScalar(nb, nl, x[0], elementType, false, false);
        },
        outputSizes);
  ctx.setOutput(0, result);
  return success();
}

} // namespace

void registerSpectralConverters(ConverterTable &table) {
  table["DFT"] = convertDFT;
}

} // namespace mlir::kiln::onnx_import
