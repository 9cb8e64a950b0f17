//===- Elementwise.cpp - ONNX ops computed element by element -------------===//
//
// Unary and binary math, comparisons, logic, conversions and activations:
// each one linalg.generic over its inputs broadcast numpy-style, whose body
// computes one element.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

namespace mlir::kiln::onnx_import {

namespace {

/// Output 0 computed from every given input by `body`, as `resultType`
/// elements (by default the inferred output's).
LogicalResult convertElementwise(NodeContext &ctx, ElementBody body,
                                 Type resultType = nullptr) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < ctx.getNumInputs(); ++i)
    if (ctx.hasInput(i))
      inputs.push_back(ctx.getInput(i));
  if (!resultType)
    resultType = ctx.getOutputElementMLIRType(0);
  FailureOr<Value> result =
      buildElementwise(ctx.builder, ctx.loc, inputs, resultType, body);
  if (failed(result))
    return ctx.fail("its inputs do not broadcast");
  ctx.setOutput(0, *result);
  return success();
}

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

//===----------------------------------------------------------------------===//
// Unary math
//===----------------------------------------------------------------------===//

/// A unary op of floats only, as one math or arith op.
template <typename OpTy>
LogicalResult convertFloatUnary(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return OpTy::create(b, loc, x[0]);
  });
}

LogicalResult convertAbs(NodeContext &ctx) {
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    if (isFloat(x[0]))
      return math::AbsFOp::create(b, loc, x[0]);
    if (isUnsigned)
      return x[0];
    return math::AbsIOp::create(b, loc, x[0]);
  });
}

LogicalResult convertNeg(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    if (isFloat(x[0]))
      return arith::NegFOp::create(b, loc, x[0]);
    return arith::SubIOp::create(b, loc, createScalarLike(b, loc, x[0], 0), x[0]);
  });
}

LogicalResult convertReciprocal(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return arith::DivFOp::create(b, loc, createScalarLike(b, loc, x[0], 1.0),
                                 x[0]);
  });
}

LogicalResult convertSigmoid(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc, ValueRange x) {
    return buildSigmoid(b, loc, x[0]);
  });
}

LogicalResult convertSign(NodeContext &ctx) {
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value zero = createScalarLike(b, loc, x[0], 0);
    Value one = createScalarLike(b, loc, x[0], 1);
    if (isFloat(x[0])) {
      Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                             x[0], zero);
      Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                             x[0], zero);
      // 0, -0 and NaN stay as they are.
      Value rest = arith::SelectOp::create(
          b, loc, negative, createScalarLike(b, loc, x[0], -1), x[0]);
      return arith::SelectOp::create(b, loc, positive, one, rest);
    }
    Value positive = arith::CmpIOp::create(
        b, loc, isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
        x[0], zero);
    if (isUnsigned)
      return arith::SelectOp::create(b, loc, positive, one, zero);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x[0], zero);
    Value rest = arith::SelectOp::create(
        b, loc, negative, createIntScalar(b, loc, x[0].getType(), -1), zero);
    return arith::SelectOp::create(b, loc, positive, one, rest);
  });
}

LogicalResult convertIsNaN(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x[0], x[0]);
  });
}

LogicalResult convertIsInf(NodeContext &ctx) {
  bool positive = ctx.getInt("detect_positive", 1);
  bool negative = ctx.getInt("detect_negative", 1);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value result = createIntScalar(b, loc, b.getI1Type(), 0);
    for (bool sign : {false, true}) {
      if (!(sign ? negative : positive))
        continue;
      const llvm::fltSemantics &semantics =
          cast<FloatType>(x[0].getType()).getFloatSemantics();
      Value inf = arith::ConstantOp::create(
          b, loc,
          b.getFloatAttr(x[0].getType(), APFloat::getInf(semantics, sign)));
      result = arith::OrIOp::create(
          b, loc, result,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x[0], inf));
    }
    return result;
  });
}

LogicalResult convertNot(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return arith::XOrIOp::create(b, loc, x[0],
                                 createIntScalar(b, loc, x[0].getType(), -1));
  });
}

LogicalResult convertIdentity(NodeContext &ctx) {
  ctx.setOutput(0, ctx.getInput(0));
  return success();
}

/// Inference, or a ratio of 0 in either mode: the input passes through;
/// the mask, if asked for, is all true.
LogicalResult convertDropout(NodeContext &ctx) {
  std::optional<SmallVector<double>> ratio =
      ctx.hasInput(1) ? ctx.getConstantFloats(1) : std::nullopt;
  bool dropsNothing = ratio && ratio->size() == 1 && (*ratio)[0] == 0;
  if (std::optional<SmallVector<int64_t>> training = ctx.getConstantInts(2);
      training && !training->empty() && (*training)[0] && !dropsNothing)
    return ctx.fail("training mode (a random mask) is not supported");
  if (ctx.hasInput(2) && !ctx.getConstantInts(2) && !dropsNothing)
    return ctx.fail("training_mode must be a constant, or the ratio a "
                    "constant 0");
  ctx.setOutput(0, ctx.getInput(0));
  if (ctx.hasOutput(1)) {
    Value one = createIntScalar(ctx.builder, ctx.loc, ctx.builder.getI1Type(), 1);
    ctx.setOutput(1, createFilled(ctx.builder, ctx.loc,
                                  getSizes(ctx.builder, ctx.loc,
                                           ctx.getInput(0)),
                                  one));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

LogicalResult convertRelu(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    Value zero = createScalarLike(b, loc, x[0], 0);
    if (isFloat(x[0]))
      return arith::MaximumFOp::create(b, loc, x[0], zero);
    return arith::MaxSIOp::create(b, loc, x[0], zero);
  });
}

LogicalResult convertLeakyRelu(NodeContext &ctx) {
  double alpha = ctx.getFloat("alpha", 0.01f);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value zero = createScalarLike(b, loc, x[0], 0);
    Value negative =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x[0], zero);
    Value scaled = arith::MulFOp::create(
        b, loc, x[0], createScalarLike(b, loc, x[0], alpha));
    return arith::SelectOp::create(b, loc, negative, scaled, x[0]);
  });
}

LogicalResult convertPRelu(NodeContext &ctx) {
  // The slope broadcasts to X (unidirectionally).
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value zero = createScalarLike(b, loc, x[0], 0);
    if (isFloat(x[0])) {
      Value negative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x[0], zero);
      return arith::SelectOp::create(
          b, loc, negative, arith::MulFOp::create(b, loc, x[0], x[1]), x[0]);
    }
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x[0], zero);
    return arith::SelectOp::create(
        b, loc, negative, arith::MulIOp::create(b, loc, x[0], x[1]), x[0]);
  });
}

/// alpha * (exp(x) - 1).
Value expMinusOne(OpBuilder &b, Location loc, Value x, double alpha) {
  Value expm1 = arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x),
                                      createScalarLike(b, loc, x, 1.0));
  return arith::MulFOp::create(b, loc, expm1, createScalarLike(b, loc, x, alpha));
}

LogicalResult convertElu(NodeContext &ctx) {
  double alpha = ctx.getFloat("alpha", 1.0f);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value negative = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OLT, x[0], createScalarLike(b, loc, x[0], 0));
    return arith::SelectOp::create(b, loc, negative,
                                   expMinusOne(b, loc, x[0], alpha), x[0]);
  });
}

LogicalResult convertSelu(NodeContext &ctx) {
  double alpha = ctx.getFloat("alpha", 1.67326319217681884765625f);
  double gamma = ctx.getFloat("gamma", 1.05070102214813232421875f);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value positive = arith::CmpFOp::create(
        b, loc, arith::CmpFPredicate::OGT, x[0], createScalarLike(b, loc, x[0], 0));
    Value value = arith::SelectOp::create(b, loc, positive, x[0],
                                          expMinusOne(b, loc, x[0], alpha));
    return arith::MulFOp::create(b, loc, value,
                                 createScalarLike(b, loc, x[0], gamma));
  });
}

LogicalResult convertCelu(NodeContext &ctx) {
  double alpha = ctx.getFloat("alpha", 1.0f);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value zero = createScalarLike(b, loc, x[0], 0);
    Value scaled = arith::DivFOp::create(b, loc, x[0],
                                         createScalarLike(b, loc, x[0], alpha));
    Value negativePart = arith::MinimumFOp::create(
        b, loc, zero, expMinusOne(b, loc, scaled, alpha));
    return arith::AddFOp::create(
        b, loc, arith::MaximumFOp::create(b, loc, zero, x[0]), negativePart);
  });
}

Value softplus(OpBuilder &b, Location loc, Value x) {
  return math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
}

LogicalResult convertSoftplus(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc, ValueRange x) {
    return softplus(b, loc, x[0]);
  });
}

LogicalResult convertSoftsign(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    Value denominator = arith::AddFOp::create(
        b, loc, createScalarLike(b, loc, x[0], 1.0),
        math::AbsFOp::create(b, loc, x[0]));
    return arith::DivFOp::create(b, loc, x[0], denominator);
  });
}

/// max(0, min(1, alpha * x + beta)).
Value hardSigmoid(OpBuilder &b, Location loc, Value x, double alpha,
                  double beta) {
  Value linear = arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, x, createScalarLike(b, loc, x, alpha)),
      createScalarLike(b, loc, x, beta));
  Value upper =
      arith::MinimumFOp::create(b, loc, linear, createScalarLike(b, loc, x, 1.0));
  return arith::MaximumFOp::create(b, loc, upper, createScalarLike(b, loc, x, 0.0));
}

LogicalResult convertHardSigmoid(NodeContext &ctx) {
  double alpha = ctx.getFloat("alpha", 0.2f);
  double beta = ctx.getFloat("beta", 0.5f);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) {
    return hardSigmoid(b, loc, x[0], alpha, beta);
  });
}

LogicalResult convertHardSwish(NodeContext &ctx) {
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    return arith::MulFOp::create(b, loc, x[0],
                                 hardSigmoid(b, loc, x[0], 1.0 / 6, 0.5));
  });
}

LogicalResult convertThresholdedRelu(NodeContext &ctx) {
  double alpha = ctx.getFloat("alpha", 1.0f);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                        x[0], createScalarLike(b, loc, x[0], alpha));
    return arith::SelectOp::create(b, loc, above, x[0],
                                   createScalarLike(b, loc, x[0], 0));
  });
}

LogicalResult convertShrink(NodeContext &ctx) {
  double bias = ctx.getFloat("bias", 0.0f);
  double lambd = ctx.getFloat("lambd", 0.5f);
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value value = x[0];
    if (!isFloat(value)) {
      // Computed in f64, the result converted back.
      value = convertScalar(b, loc, value, b.getF64Type(), isUnsigned, false);
    }
    Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                        value,
                                        createScalarLike(b, loc, value, -lambd));
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                        value,
                                        createScalarLike(b, loc, value, lambd));
    Value plus = arith::AddFOp::create(b, loc, value,
                                       createScalarLike(b, loc, value, bias));
    Value minus = arith::SubFOp::create(b, loc, value,
                                        createScalarLike(b, loc, value, bias));
    Value result = arith::SelectOp::create(
        b, loc, above, minus, createScalarLike(b, loc, value, 0));
    result = arith::SelectOp::create(b, loc, below, plus, result);
    return convertScalar(b, loc, result, x[0].getType(), false, isUnsigned);
  });
}

LogicalResult convertMish(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return arith::MulFOp::create(
        b, loc, x[0], math::TanhOp::create(b, loc, softplus(b, loc, x[0])));
  });
}

LogicalResult convertGelu(NodeContext &ctx) {
  std::string approximate = ctx.getString("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return ctx.fail("approximate must be none or tanh, got '" + approximate +
                    "'");
  bool useTanh = approximate == "tanh";
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value v = x[0];
    Value inner;
    if (useTanh) {
      // sqrt(2 / pi) * (x + 0.044715 x^3)
      Value cube = arith::MulFOp::create(
          b, loc, v, arith::MulFOp::create(b, loc, v, v));
      Value sum = arith::AddFOp::create(
          b, loc, v,
          arith::MulFOp::create(b, loc, cube,
                                createScalarLike(b, loc, v, 0.044715)));
      inner = math::TanhOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, sum,
                                createScalarLike(b, loc, v, std::sqrt(2 / M_PI))));
    } else {
      inner = math::ErfOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, v, createScalarLike(b, loc, v, M_SQRT1_2)));
    }
    Value onePlus =
        arith::AddFOp::create(b, loc, inner, createScalarLike(b, loc, v, 1.0));
    return arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, v, createScalarLike(b, loc, v, 0.5)),
        onePlus);
  });
}

//===----------------------------------------------------------------------===//
// Binary and variadic math
//===----------------------------------------------------------------------===//

/// A binary op whose float and integer forms are one op each.
template <typename FloatOp, typename SignedOp, typename UnsignedOp = SignedOp>
LogicalResult convertArithmetic(NodeContext &ctx) {
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    if (isFloat(x[0]))
      return FloatOp::create(b, loc, x[0], x[1]);
    if (isUnsigned)
      return UnsignedOp::create(b, loc, x[0], x[1]);
    return SignedOp::create(b, loc, x[0], x[1]);
  });
}

/// Max, Min, Sum and Mean: any number of inputs, folded left to right.
template <typename FloatOp, typename SignedOp, typename UnsignedOp>
LogicalResult convertVariadic(NodeContext &ctx, bool mean = false) {
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value result = x[0];
    for (Value next : x.drop_front()) {
      if (isFloat(result))
        result = FloatOp::create(b, loc, result, next);
      else if (isUnsigned)
        result = UnsignedOp::create(b, loc, result, next);
      else
        result = SignedOp::create(b, loc, result, next);
    }
    if (mean)
      result = arith::DivFOp::create(
          b, loc, result, createScalarLike(b, loc, result, x.size()));
    return result;
  });
}

LogicalResult convertMax(NodeContext &ctx) {
  return convertVariadic<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>(
      ctx);
}
LogicalResult convertMin(NodeContext &ctx) {
  return convertVariadic<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>(
      ctx);
}
LogicalResult convertSum(NodeContext &ctx) {
  return convertVariadic<arith::AddFOp, arith::AddIOp, arith::AddIOp>(ctx);
}
LogicalResult convertMean(NodeContext &ctx) {
  return convertVariadic<arith::AddFOp, arith::AddIOp, arith::AddIOp>(
      ctx, /*mean=*/true);
}

/// base ** exponent for integers of one type, as math.ipowi defines it (a
/// negative exponent gives 0, but 1 and -1 for bases 1 and -1): square and
/// multiply over the exponent's bits, without branches.
Value buildIntegerPower(OpBuilder &b, Location loc, Value base, Value exponent,
                        bool isUnsigned) {
  Type type = base.getType();
  Value zero = createIntScalar(b, loc, type, 0);
  Value one = createIntScalar(b, loc, type, 1);
  Value result = one, square = base, bits = exponent;
  for (unsigned i = 0, e = type.getIntOrFloatBitWidth(); i < e; ++i) {
    Value isSet =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                              arith::AndIOp::create(b, loc, bits, one), zero);
    result = arith::SelectOp::create(
        b, loc, isSet, arith::MulIOp::create(b, loc, result, square), result);
    square = arith::MulIOp::create(b, loc, square, square);
    bits = arith::ShRUIOp::create(b, loc, bits, one);
  }
  if (isUnsigned)
    return result;
  auto equals = [&](Value l, Value r) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, l, r);
  };
  Value minusOne = createIntScalar(b, loc, type, -1);
  Value isOdd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exponent, one), zero);
  Value forNegative = arith::SelectOp::create(
      b, loc, equals(base, one), one,
      arith::SelectOp::create(
          b, loc, equals(base, minusOne),
          arith::SelectOp::create(b, loc, isOdd, minusOne, one), zero));
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  return arith::SelectOp::create(b, loc, isNegative, forNegative, result);
}

LogicalResult convertPow(NodeContext &ctx) {
  bool baseUnsigned = ctx.isUnsignedInput(0);
  bool exponentUnsigned = ctx.isUnsignedInput(1);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value base = x[0], exponent = x[1];
    Type type = base.getType();
    if (isFloat(base)) {
      exponent =
          convertScalar(b, loc, exponent, type, exponentUnsigned, false);
      return math::PowFOp::create(b, loc, base, exponent);
    }
    if (!isFloat(exponent)) {
      exponent =
          convertScalar(b, loc, exponent, type, exponentUnsigned, false);
      return buildIntegerPower(b, loc, base, exponent, baseUnsigned);
    }
    // An integer to a float power: computed in f64, truncated back.
    Value wide = convertScalar(b, loc, base, b.getF64Type(), baseUnsigned,
                               false);
    Value power = math::PowFOp::create(
        b, loc, wide,
        convertScalar(b, loc, exponent, b.getF64Type(), false, false));
    return convertScalar(b, loc, power, type, false, baseUnsigned);
  });
}

LogicalResult convertMod(NodeContext &ctx) {
  bool fmod = ctx.getInt("fmod", 0);
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    if (isFloat(x[0])) {
      Value remainder = arith::RemFOp::create(b, loc, x[0], x[1]);
      if (fmod)
        return remainder;
      // The divisor's sign, as Python's %.
      Value zero = createScalarLike(b, loc, x[0], 0);
      Value nonzero = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                            remainder, zero);
      Value signsDiffer = arith::XOrIOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, remainder,
                                zero),
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x[1], zero));
      Value adjust = arith::AndIOp::create(b, loc, nonzero, signsDiffer);
      return arith::SelectOp::create(
          b, loc, adjust, arith::AddFOp::create(b, loc, remainder, x[1]),
          remainder);
    }
    if (isUnsigned)
      return arith::RemUIOp::create(b, loc, x[0], x[1]);
    Value remainder = arith::RemSIOp::create(b, loc, x[0], x[1]);
    if (fmod)
      return remainder;
    Value zero = createScalarLike(b, loc, x[0], 0);
    Value nonzero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          remainder, zero);
    Value signsDiffer = arith::XOrIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, remainder,
                              zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x[1], zero));
    Value adjust = arith::AndIOp::create(b, loc, nonzero, signsDiffer);
    return arith::SelectOp::create(
        b, loc, adjust, arith::AddIOp::create(b, loc, remainder, x[1]),
        remainder);
  });
}

LogicalResult convertBitShift(NodeContext &ctx) {
  std::string direction = ctx.getString("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return ctx.fail("direction must be LEFT or RIGHT, got '" + direction +
                    "'");
  bool left = direction == "LEFT";
  bool isSigned = !ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Type type = x[0].getType();
    Value zero = createIntScalar(b, loc, type, 0);
    Value shifted =
        left ? arith::ShLIOp::create(b, loc, x[0], x[1]).getResult()
        : isSigned ? arith::ShRSIOp::create(b, loc, x[0], x[1]).getResult()
                   : arith::ShRUIOp::create(b, loc, x[0], x[1]).getResult();
    // Shifts by a negative amount or by the width or more: every bit goes
    // (a negative value shifted right keeps its sign).
    Value width =
        createIntScalar(b, loc, type, type.getIntOrFloatBitWidth());
    Value outOfRange = arith::CmpIOp::create(
        b, loc, isSigned ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge,
        x[1], width);
    if (isSigned)
      outOfRange = arith::OrIOp::create(
          b, loc, outOfRange,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x[1], zero));
    Value emptied = zero;
    if (isSigned && !left) {
      Value negative =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x[0], zero);
      emptied = arith::SelectOp::create(b, loc, negative,
                                        createIntScalar(b, loc, type, -1), zero);
    }
    return arith::SelectOp::create(b, loc, outOfRange, emptied, shifted);
  });
}

//===----------------------------------------------------------------------===//
// Comparisons, logic, selection
//===----------------------------------------------------------------------===//

LogicalResult convertComparison(NodeContext &ctx, arith::CmpFPredicate floatPredicate,
                                arith::CmpIPredicate signedPredicate,
                                arith::CmpIPredicate unsignedPredicate) {
  bool isUnsigned = ctx.isUnsignedInput(0);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    if (isFloat(x[0]))
      return arith::CmpFOp::create(b, loc, floatPredicate, x[0], x[1]);
    return arith::CmpIOp::create(
        b, loc, isUnsigned ? unsignedPredicate : signedPredicate, x[0], x[1]);
  });
}

LogicalResult convertEqual(NodeContext &ctx) {
  return convertComparison(ctx, arith::CmpFPredicate::OEQ,
                           arith::CmpIPredicate::eq, arith::CmpIPredicate::eq);
}
LogicalResult convertLess(NodeContext &ctx) {
  return convertComparison(ctx, arith::CmpFPredicate::OLT,
                           arith::CmpIPredicate::slt,
                           arith::CmpIPredicate::ult);
}
LogicalResult convertLessOrEqual(NodeContext &ctx) {
  return convertComparison(ctx, arith::CmpFPredicate::OLE,
                           arith::CmpIPredicate::sle,
                           arith::CmpIPredicate::ule);
}
LogicalResult convertGreater(NodeContext &ctx) {
  return convertComparison(ctx, arith::CmpFPredicate::OGT,
                           arith::CmpIPredicate::sgt,
                           arith::CmpIPredicate::ugt);
}
LogicalResult convertGreaterOrEqual(NodeContext &ctx) {
  return convertComparison(ctx, arith::CmpFPredicate::OGE,
                           arith::CmpIPredicate::sge,
                           arith::CmpIPredicate::uge);
}

template <typename OpTy>
LogicalResult convertBitwise(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return OpTy::create(b, loc, x[0], x[1]);
  });
}

LogicalResult convertWhere(NodeContext &ctx) {
  return convertElementwise(ctx, [](OpBuilder &b, Location loc,
                                    ValueRange x) -> Value {
    return arith::SelectOp::create(b, loc, x[0], x[1], x[2]);
  });
}

LogicalResult convertClip(NodeContext &ctx) {
  bool isUnsigned = ctx.isUnsignedInput(0);
  bool hasMin = ctx.hasInput(1), hasMax = ctx.hasInput(2);
  return convertElementwise(ctx, [&](OpBuilder &b, Location loc,
                                     ValueRange x) -> Value {
    Value result = x[0];
    unsigned next = 1;
    if (hasMin) {
      Value low = x[next++];
      result = isFloat(result)
                   ? arith::MaximumFOp::create(b, loc, result, low).getResult()
               : isUnsigned
                   ? arith::MaxUIOp::create(b, loc, result, low).getResult()
                   : arith::MaxSIOp::create(b, loc, result, low).getResult();
    }
    if (hasMax) {
      Value high = x[next++];
      result = isFloat(result)
                   ? arith::MinimumFOp::create(b, loc, result, high).getResult()
               : isUnsigned
                   ? arith::MinUIOp::create(b, loc, result, high).getResult()
                   : arith::MinSIOp::create(b, loc, result, high).getResult();
    }
    return result;
  });
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

/// A positive finite f32 rounded to a power of two as Cast to float8e8m0
/// does (`round_mode` up, down or nearest with ties up), built on its bits;
/// zero, negative, NaN and infinite values as convertScalar makes them.
Value roundToE8M0(OpBuilder &b, Location loc, Value value, StringRef mode,
                  bool saturate, Type to) {
  Value wide = convertScalar(b, loc, value, b.getF32Type(), false, false);
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, wide);
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, createIntScalar(b, loc, i32, 23)),
      createIntScalar(b, loc, i32, 0xff));
  Value mantissa =
      arith::AndIOp::create(b, loc, bits, createIntScalar(b, loc, i32, 0x7fffff));
  Value rounded = exponent;
  if (mode != "down") {
    Value carry = arith::CmpIOp::create(
        b, loc,
        mode == "up" ? arith::CmpIPredicate::ne : arith::CmpIPredicate::uge,
        mantissa, createIntScalar(b, loc, i32, mode == "up" ? 0 : 0x400000));
    rounded = arith::AddIOp::create(
        b, loc, exponent, arith::ExtUIOp::create(b, loc, i32, carry));
  }
  // Past 2^127: the largest, or NaN (0xff) without saturation.
  Value largest = createIntScalar(b, loc, i32, saturate ? 254 : 255);
  rounded = arith::MinUIOp::create(b, loc, rounded, largest);
  Value power = arith::BitcastOp::create(
      b, loc, b.getF32Type(),
      arith::ShLIOp::create(b, loc, rounded, createIntScalar(b, loc, i32, 23)));
  // Positive, finite and normal: the sign bit clear, exponent in [1, 254].
  Value positive = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                         bits, createIntScalar(b, loc, i32, 0));
  Value normal = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, exponent,
                            createIntScalar(b, loc, i32, 1)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, exponent,
                            createIntScalar(b, loc, i32, 254)));
  Value chosen = arith::SelectOp::create(
      b, loc, arith::AndIOp::create(b, loc, positive, normal), power, wide);
  return convertScalar(b, loc, chosen, to, false, false);
}

LogicalResult castTo(NodeContext &ctx, int32_t toType) {
  Type to = ctx.getOutputElementMLIRType(0);
  bool fromUnsigned = ctx.isUnsignedInput(0);
  bool toUnsigned = isUnsignedType(toType);
  bool saturate = ctx.getInt("saturate", 1);
  std::optional<double> bound =
      saturate ? getSaturationBound(to) : std::nullopt;
  std::string roundMode = ctx.getString("round_mode", "up");
  if (isa<Float8E8M0FNUType>(to) && roundMode != "up" &&
      roundMode != "down" && roundMode != "nearest")
    return ctx.fail("round_mode must be up, down or nearest, got '" +
                    roundMode + "'");
  return convertElementwise(
      ctx,
      [&](OpBuilder &b, Location loc, ValueRange x) -> Value {
        Value value = x[0];
        if (isa<Float8E8M0FNUType>(to) && isFloat(value))
          return roundToE8M0(b, loc, value, roundMode, saturate, to);
        if (bound && isFloat(value)) {
          value = arith::MinimumFOp::create(
              b, loc, value, createScalarLike(b, loc, value, *bound));
          value = arith::MaximumFOp::create(
              b, loc, value, createScalarLike(b, loc, value, -*bound));
        }
        return convertScalar(b, loc, value, to, fromUnsigned, toUnsigned);
      },
      to);
}

LogicalResult convertCast(NodeContext &ctx) {
  return castTo(ctx, ctx.getOutputElementType(0));
}

LogicalResult convertCastLike(NodeContext &ctx) {
  // Only the first input's elements are converted.
  Type to = ctx.getOutputElementMLIRType(0);
  bool fromUnsigned = ctx.isUnsignedInput(0);
  bool toUnsigned = isUnsignedType(ctx.getOutputElementType(0));
  std::optional<double> bound =
      ctx.getInt("saturate", 1) ? getSaturationBound(to) : std::nullopt;
  Value input = ctx.getInput(0);
  FailureOr<Value> result = buildElementwise(
      ctx.builder, ctx.loc, input, to,
      [&](OpBuilder &b, Location loc, ValueRange x) -> Value {
        Value value = x[0];
        if (bound && isFloat(value)) {
          value = arith::MinimumFOp::create(
              b, loc, value, createScalarLike(b, loc, value, *bound));
          value = arith::MaximumFOp::create(
              b, loc, value, createScalarLike(b, loc, value, -*bound));
        }
        return convertScalar(b, loc, value, to, fromUnsigned, toUnsigned);
      },
      getSizes(ctx.builder, ctx.loc, input));
  ctx.setOutput(0, *result);
  return success();
}

} // namespace

void registerElementwiseConverters(ConverterTable &table) {
  table["Abs"] = convertAbs;
  table["Neg"] = convertNeg;
  table["Exp"] = convertFloatUnary<math::ExpOp>;
  table["Log"] = convertFloatUnary<math::LogOp>;
  table["Sqrt"] = convertFloatUnary<math::SqrtOp>;
  table["Sin"] = convertFloatUnary<math::SinOp>;
  table["Cos"] = convertFloatUnary<math::CosOp>;
  table["Tan"] = convertFloatUnary<math::TanOp>;
  table["Asin"] = convertFloatUnary<math::AsinOp>;
  table["Acos"] = convertFloatUnary<math::AcosOp>;
  table["Atan"] = convertFloatUnary<math::AtanOp>;
  table["Sinh"] = convertFloatUnary<math::SinhOp>;
  table["Cosh"] = convertFloatUnary<math::CoshOp>;
  table["Asinh"] = convertFloatUnary<math::AsinhOp>;
  table["Acosh"] = convertFloatUnary<math::AcoshOp>;
  table["Atanh"] = convertFloatUnary<math::AtanhOp>;
  table["Tanh"] = convertFloatUnary<math::TanhOp>;
  table["Erf"] = convertFloatUnary<math::ErfOp>;
  table["Floor"] = convertFloatUnary<math::FloorOp>;
  table["Ceil"] = convertFloatUnary<math::CeilOp>;
  // ONNX rounds halves to even.
  table["Round"] = convertFloatUnary<math::RoundEvenOp>;
  table["Reciprocal"] = convertReciprocal;
  table["Sigmoid"] = convertSigmoid;
  table["Sign"] = convertSign;
  table["IsNaN"] = convertIsNaN;
  table["IsInf"] = convertIsInf;
  table["Not"] = convertNot;
  table["BitwiseNot"] = convertNot;
  table["Identity"] = convertIdentity;
  table["Dropout"] = convertDropout;

  table["Relu"] = convertRelu;
  table["LeakyRelu"] = convertLeakyRelu;
  table["PRelu"] = convertPRelu;
  table["Elu"] = convertElu;
  table["Selu"] = convertSelu;
  table["Celu"] = convertCelu;
  table["Softplus"] = convertSoftplus;
  table["Softsign"] = convertSoftsign;
  table["HardSigmoid"] = convertHardSigmoid;
  table["HardSwish"] = convertHardSwish;
  table["ThresholdedRelu"] = convertThresholdedRelu;
  table["Shrink"] = convertShrink;
  table["Mish"] = convertMish;
  table["Gelu"] = convertGelu;

  table["Add"] = convertArithmetic<arith::AddFOp, arith::AddIOp>;
  table["Sub"] = convertArithmetic<arith::SubFOp, arith::SubIOp>;
  table["Mul"] = convertArithmetic<arith::MulFOp, arith::MulIOp>;
  // Integer division rounds toward zero.
  table["Div"] = convertArithmetic<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>;
  table["Max"] = convertMax;
  table["Min"] = convertMin;
  table["Sum"] = convertSum;
  table["Mean"] = convertMean;
  table["Pow"] = convertPow;
  table["Mod"] = convertMod;
  table["BitShift"] = convertBitShift;

  table["Equal"] = convertEqual;
  table["Less"] = convertLess;
  table["LessOrEqual"] = convertLessOrEqual;
  table["Greater"] = convertGreater;
  table["GreaterOrEqual"] = convertGreaterOrEqual;
  table["And"] = convertBitwise<arith::AndIOp>;
  table["Or"] = convertBitwise<arith::OrIOp>;
  table["Xor"] = convertBitwise<arith::XOrIOp>;
  table["BitwiseAnd"] = convertBitwise<arith::AndIOp>;
  table["BitwiseOr"] = convertBitwise<arith::OrIOp>;
  table["BitwiseXor"] = convertBitwise<arith::XOrIOp>;
  table["Where"] = convertWhere;
  table["Clip"] = convertClip;

  table["Cast"] = convertCast;
  table["CastLike"] = convertCastLike;
}

} // namespace mlir::kiln::onnx_import
