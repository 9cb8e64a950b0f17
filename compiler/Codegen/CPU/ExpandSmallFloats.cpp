//===- ExpandSmallFloats.cpp - floats of at most 8 bits computed in f32 ---===//
//
// Arithmetic on the small float types goes through f32 with upstream's
// patterns; what remains, extf and truncf, becomes integer operations on
// the bits. The rules for values a type cannot hold are those of
// runtime/base/float_convert.h, so that kernels and the runtime's text
// parser agree bit for bit.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_EXPANDSMALLFLOATSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

bool isSmallFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return floatType && floatType.getWidth() <= 8;
}

/// The encoding of a float type of at most 8 bits, read from its APFloat
/// semantics: [sign] exponent mantissa, a normal number being
/// 1.mantissa * 2^(exponent - bias).
struct SmallFloatFormat {
  explicit SmallFloatFormat(FloatType type) {
    const llvm::fltSemantics &semantics = type.getFloatSemantics();
    width = type.getWidth();
    mantissaBits = llvm::APFloat::semanticsPrecision(semantics) - 1;
    hasSign = llvm::APFloat::semanticsHasSignedRepr(semantics);
    // Without a zero (f8E8M0FNU) exponent 0 is a normal number.
    hasZero = llvm::APFloat::semanticsHasZero(semantics);
    int minExponent = llvm::APFloat::semanticsMinExponent(semantics);
    bias = hasZero ? 1 - minExponent : -minExponent;
    hasInf = llvm::APFloat::semanticsHasInf(semantics);
    hasNan = llvm::APFloat::semanticsHasNaN(semantics);
    // FNUZ types have no -0: the sign bit alone is their NaN.
    nanIsNegativeZero =
        hasNan && hasSign && !hasInf &&
        !llvm::APFloat::getZero(semantics, /*Negative=*/true).isNegative();
  }

  uint32_t signMask() const { return hasSign ? 1u << (width - 1) : 0; }
  uint32_t magnitudeMask() const {
    return (1u << (width - (hasSign ? 1 : 0))) - 1;
  }
  uint32_t exponentMask() const {
    return magnitudeMask() & ~((1u << mantissaBits) - 1);
  }
  /// The magnitude bits of the largest finite value.
  uint32_t maxFinite() const {
    if (hasInf)
      return exponentMask() - 1;
    if (hasNan && !nanIsNegativeZero)
      return magnitudeMask() - 1;
    return magnitudeMask();
  }

  unsigned width;
  unsigned mantissaBits;
  int bias;
  bool hasSign;
  bool hasZero;
  bool hasInf;
  bool hasNan;
  bool nanIsNegativeZero;
};

/// Integer and float ops on scalars, or on vectors of the shape of the value
/// being converted.
class LaneBuilder {
public:
  LaneBuilder(PatternRewriter &rewriter, Location loc, Type like)
      : b(loc, rewriter), vectorType(dyn_cast<VectorType>(like)) {}

  Type type(Type element) {
    return vectorType ? Type(VectorType::get(vectorType.getShape(), element))
                      : element;
  }
  Type intType(unsigned width) { return type(b.getIntegerType(width)); }
  Value constant(Type element, TypedAttr attr) {
    if (vectorType)
      return arith::ConstantOp::create(
          b, DenseElementsAttr::get(cast<ShapedType>(type(element)), attr));
    return arith::ConstantOp::create(b, attr);
  }
  Value integer(unsigned width, uint64_t value) {
    Type element = b.getIntegerType(width);
    return constant(element, b.getIntegerAttr(element, value));
  }
  Value f32(float value) {
    return constant(b.getF32Type(), b.getF32FloatAttr(value));
  }
  /// An integer constant of the width of `like`'s elements.
  Value like(Value like, uint64_t value) {
    return integer(getElementTypeOrSelf(like.getType()).getIntOrFloatBitWidth(),
                   value);
  }

  Value bitcast(Value value, Type element) {
    return arith::BitcastOp::create(b, type(element), value);
  }
  Value extui(Value value, unsigned width) {
    return arith::ExtUIOp::create(b, intType(width), value);
  }
  Value trunci(Value value, unsigned width) {
    return arith::TruncIOp::create(b, intType(width), value);
  }
  /// An operand of the ops below: a value, or a constant of the other
  /// operand's type.
  struct Operand {
    Operand(Value value) : value(value) {}
    Operand(uint64_t constant) : constant(constant) {}
    Value value;
    uint64_t constant = 0;
  };
  Value get(Value like, Operand operand) {
    return operand.value ? operand.value : this->like(like, operand.constant);
  }
  Value andi(Value l, Operand r) {
    return arith::AndIOp::create(b, l, get(l, r));
  }
  Value ori(Value l, Operand r) {
    return arith::OrIOp::create(b, l, get(l, r));
  }
  Value addi(Value l, Operand r) {
    return arith::AddIOp::create(b, l, get(l, r));
  }
  Value subi(Value l, Operand r) {
    return arith::SubIOp::create(b, l, get(l, r));
  }
  Value shli(Value l, Operand r) {
    return arith::ShLIOp::create(b, l, get(l, r));
  }
  Value shrui(Value l, Operand r) {
    return arith::ShRUIOp::create(b, l, get(l, r));
  }
  Value minui(Value l, Operand r) {
    return arith::MinUIOp::create(b, l, get(l, r));
  }
  Value cmp(arith::CmpIPredicate predicate, Value l, Operand r) {
    return arith::CmpIOp::create(b, predicate, l, get(l, r));
  }
  /// `t` when `condition`, else `f`.
  Value select(Value condition, Operand t, Value f) {
    return arith::SelectOp::create(b, condition, get(f, t), f);
  }

  /// `value >> shift` rounded to nearest even, for 1 <= shift < width.
  Value roundingShift(Value value, Value shift) {
    Value one = like(value, 1);
    Value half = shli(one, subi(shift, one));
    Value lsb = andi(shrui(value, shift), one);
    return shrui(addi(addi(value, subi(half, one)), lsb), shift);
  }

  ImplicitLocOpBuilder b;

private:
  VectorType vectorType;
};

/// `value` (f32 or f64) rounded to `format`, as the integer of its bits.
Value truncateBits(LaneBuilder &l, Value value, const SmallFloatFormat &f) {
  using P = arith::CmpIPredicate;
  auto sourceType = cast<FloatType>(getElementTypeOrSelf(value.getType()));
  const unsigned width = sourceType.getWidth();
  const unsigned mantissa = sourceType.getFPMantissaWidth() - 1;
  const int64_t sourceBias =
      1 - llvm::APFloat::semanticsMinExponent(sourceType.getFloatSemantics());
  const uint64_t infinity =
      ((uint64_t{1} << (width - 1)) - 1) & ~((uint64_t{1} << mantissa) - 1);

  Value bits = l.bitcast(value, l.b.getIntegerType(width));
  Value sign = l.shrui(bits, width - 1);
  Value magnitude = l.andi(bits, (uint64_t{1} << (width - 1)) - 1);
  Value isNan = l.cmp(P::ugt, magnitude, infinity);
  Value isInf = l.cmp(P::eq, magnitude, infinity);
  Value exponent = l.shrui(magnitude, mantissa);
  Value fraction = l.andi(magnitude, (uint64_t{1} << mantissa) - 1);
  // The source exponent that is the format's exponent 0.
  const int64_t rebias = sourceBias - f.bias;
  Value result;

  if (!f.hasZero) {
    // Powers of two: the exponent, plus one from the midpoint 1.5 * 2^k up.
    // No sign and no zero: negative values are NaN, zero and tiny values
    // the smallest power, 2^-bias.
    Value up =
        l.extui(l.cmp(P::uge, fraction, uint64_t{1} << (mantissa - 1)), width);
    Value code = l.subi(l.addi(exponent, up), rebias);
    code = l.select(l.cmp(P::slt, code, 0), uint64_t{0}, code);
    if (rebias == 0) {
      // Source subnormals reach 2^-bias (code 0) and 2^(1-bias): the
      // midpoint between them is 3/4 of the subnormal range.
      Value nearer = l.extui(
          l.cmp(P::uge, fraction, uint64_t{3} << (mantissa - 2)), width);
      code = l.select(l.cmp(P::eq, exponent, 0), nearer, code);
    }
    Value invalid = l.andi(l.cmp(P::ne, sign, 0), l.cmp(P::ne, magnitude, 0));
    invalid = l.ori(invalid, l.ori(isNan, isInf));
    invalid = l.ori(invalid, l.cmp(P::ugt, code, f.maxFinite()));
    result = l.select(invalid, f.magnitudeMask(), code);
    return result;
  }

  // Normal results (format exponent >= 1) re-bias the exponent in place and
  // round the fraction; the rounding may carry into the exponent. Subnormal
  // results round the significand shifted by one more per exponent below 1;
  // source zeros and subnormals (no implicit bit, but it is set here) are
  // shifted beyond rounding up, to 0.
  Value isNormal = l.cmp(P::sgt, exponent, rebias);
  Value normal = l.subi(magnitude, uint64_t(rebias) << mantissa);
  Value significand = l.ori(fraction, uint64_t{1} << mantissa);
  Value subnormalShift =
      l.minui(l.subi(l.like(exponent, mantissa - f.mantissaBits + 1 + rebias),
                     exponent),
              mantissa + 2);
  Value code = l.roundingShift(
      l.select(isNormal, normal, significand),
      l.select(isNormal, l.like(exponent, mantissa - f.mantissaBits),
               subnormalShift));
  Value overflow = l.ori(isInf, l.cmp(P::ugt, code, f.maxFinite()));
  Value signBit = l.shli(sign, f.width - 1);

  if (f.hasInf) {
    // IEEE: infinities; NaN stays quiet and keeps its payload's top bits.
    Value nan = l.ori(l.shrui(fraction, mantissa - f.mantissaBits),
                      f.exponentMask() | (1u << (f.mantissaBits - 1)));
    result = l.select(overflow, f.exponentMask(), code);
    result = l.select(isNan, nan, result);
    return l.ori(result, signBit);
  }
  if (f.nanIsNegativeZero) {
    // No -0; NaN is the sign bit alone, whatever the sign.
    result = l.select(l.cmp(P::eq, code, 0), code, l.ori(code, signBit));
    return l.select(l.ori(overflow, isNan), f.signMask(), result);
  }
  if (f.hasNan) {
    result = l.select(l.ori(overflow, isNan), f.magnitudeMask(), code);
    return l.ori(result, signBit);
  }
  // Neither: saturate, and make NaN a zero.
  result = l.select(overflow, f.maxFinite(), code);
  result = l.select(isNan, uint64_t{0}, result);
  return l.ori(result, signBit);
}

/// The f32 value of `value`, a small float (exact).
Value extendToF32(LaneBuilder &l, Value value, const SmallFloatFormat &f) {
  using P = arith::CmpIPredicate;
  constexpr unsigned kMantissa = 23;
  constexpr uint64_t kQuietNan = 0x7FC00000;
  Value bits = l.extui(l.bitcast(value, l.b.getIntegerType(f.width)), 32);
  Value result;
  if (!f.hasZero) {
    // 2^(code - bias): code 0 is an f32 subnormal.
    result = l.shli(bits, kMantissa);
    result =
        l.select(l.cmp(P::eq, bits, 0), uint64_t{1} << (kMantissa - 1), result);
    return l.bitcast(
        l.select(l.cmp(P::eq, bits, f.magnitudeMask()), kQuietNan, result),
        l.b.getF32Type());
  }
  Value magnitude = l.andi(bits, f.magnitudeMask());
  Value exponent = l.shrui(magnitude, f.mantissaBits);
  Value fraction = l.andi(magnitude, (1u << f.mantissaBits) - 1);
  Value normal = l.addi(l.shli(magnitude, kMantissa - f.mantissaBits),
                        uint64_t(127 - f.bias) << kMantissa);
  // fraction * 2^(1 - bias - mantissa bits), exact in f32.
  Value subnormal = l.bitcast(
      arith::MulFOp::create(
          l.b, arith::UIToFPOp::create(l.b, l.type(l.b.getF32Type()), fraction),
          l.f32(std::ldexp(1.0f, 1 - f.bias - int(f.mantissaBits)))),
      l.b.getI32Type());
  result = l.select(l.cmp(P::eq, exponent, 0), subnormal, normal);
  Value nan = l.ori(l.shli(fraction, kMantissa - f.mantissaBits), kQuietNan);
  if (f.hasInf) {
    Value special = l.select(l.cmp(P::eq, fraction, 0), 0x7F800000, nan);
    result =
        l.select(l.cmp(P::eq, exponent, f.exponentMask() >> f.mantissaBits),
                 special, result);
  } else if (f.hasNan && !f.nanIsNegativeZero) {
    result = l.select(l.cmp(P::eq, magnitude, f.magnitudeMask()), nan, result);
  }
  if (f.hasSign)
    result = l.ori(result, l.shli(l.andi(bits, f.signMask()), 32 - f.width));
  if (f.nanIsNegativeZero)
    result = l.select(l.cmp(P::eq, bits, f.signMask()), kQuietNan, result);
  return l.bitcast(result, l.b.getF32Type());
}

/// `value` (f32) converted to `type`.
Value convertFromF32(LaneBuilder &l, Value value, FloatType type) {
  if (type.isF32())
    return value;
  if (isSmallFloat(type)) {
    Value bits = truncateBits(l, value, SmallFloatFormat(type));
    return l.bitcast(l.trunci(bits, type.getWidth()), type);
  }
  if (type.getWidth() > 32)
    return arith::ExtFOp::create(l.b, l.type(type), value);
  return arith::TruncFOp::create(l.b, l.type(type), value);
}

struct ExpandSmallExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Value in = op.getIn();
    if (!isSmallFloat(in.getType()))
      return rewriter.notifyMatchFailure(op, "not from a small float");
    LaneBuilder l(rewriter, op.getLoc(), in.getType());
    auto inType = cast<FloatType>(getElementTypeOrSelf(in.getType()));
    Value wide = extendToF32(l, in, SmallFloatFormat(inType));
    rewriter.replaceOp(
        op, convertFromF32(
                l, wide, cast<FloatType>(getElementTypeOrSelf(op.getType()))));
    return success();
  }
};

struct ExpandSmallTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isSmallFloat(op.getType()))
      return rewriter.notifyMatchFailure(op, "not to a small float");
    if (op.getRoundingmode().value_or(arith::RoundingMode::to_nearest_even) !=
        arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not to nearest even");
    Value in = op.getIn();
    LaneBuilder l(rewriter, op.getLoc(), in.getType());
    auto inType = cast<FloatType>(getElementTypeOrSelf(in.getType()));
    // f64 rounds in one step; narrower types widen to f32 exactly first.
    if (isSmallFloat(inType))
      in = extendToF32(l, in, SmallFloatFormat(inType));
    else if (inType.getWidth() < 32)
      in = arith::ExtFOp::create(l.b, l.type(l.b.getF32Type()), in);
    auto type = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    Value bits = truncateBits(l, in, SmallFloatFormat(type));
    rewriter.replaceOp(op, l.bitcast(l.trunci(bits, type.getWidth()), type));
    return success();
  }
};

/// Ops that compute on values of a small float type; after the rewrites
/// none may be left (data movement, selects and bitcasts may).
bool computesOnSmallFloats(Operation *op) {
  if (isa<arith::BitcastOp, arith::ConstantOp, arith::SelectOp>(op))
    return false;
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      !isa<vector::ContractionOp, vector::ReductionOp,
           vector::MultiDimReductionOp, vector::FMAOp, vector::OuterProductOp,
           vector::ScanOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isSmallFloat) ||
         llvm::any_of(op->getResultTypes(), isSmallFloat);
}

} // namespace

void populateExpandSmallFloatConversionPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandSmallExtF, ExpandSmallTruncF>(patterns.getContext());
}

namespace {

struct ExpandSmallFloatsPass
    : impl::ExpandSmallFloatsPassBase<ExpandSmallFloatsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    MLIRContext *context = &getContext();
    bool hasSmallFloats = false;
    funcOp.walk([&](Operation *op) {
      if (llvm::any_of(op->getResultTypes(), isSmallFloat) ||
          llvm::any_of(op->getOperandTypes(), isSmallFloat))
        hasSmallFloats = true;
    });
    if (!hasSmallFloats)
      return;
    Type f32 = Float32Type::get(context);
    SmallVector<Type> smallTypes = {
        Float8E5M2Type::get(context),     Float8E4M3FNType::get(context),
        Float8E5M2FNUZType::get(context), Float8E4M3FNUZType::get(context),
        Float8E8M0FNUType::get(context),  Float4E2M1FNType::get(context)};
    // No folding in between: emulation pairs truncf with extf marked
    // `contract`, which a fold would cancel, skipping the rounding of each
    // result to its type.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    {
      // Scaled conversions: a multiplication or division by the f32 value
      // of the scale, and an extf or truncf.
      RewritePatternSet patterns(context);
      arith::populateExpandScalingExtTruncPatterns(patterns);
      SmallVector<Operation *> ops;
      funcOp.walk([&](Operation *op) {
        if (isa<arith::ScalingExtFOp, arith::ScalingTruncFOp>(op))
          ops.push_back(op);
      });
      if (!ops.empty() &&
          failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
        return signalPassFailure();
    }
    {
      TypeConverter converter;
      arith::populateEmulateUnsupportedFloatsConversions(converter, smallTypes,
                                                         f32);
      RewritePatternSet patterns(context);
      arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
      ConversionTarget target(*context);
      arith::populateEmulateUnsupportedFloatsLegality(target, converter);
      if (failed(applyPartialConversion(funcOp, target, std::move(patterns))))
        return signalPassFailure();
    }
    {
      // Every float type but f64, f32, f16 and bf16 computes math in f32.
      SetVector<Type> supported;
      supported.insert(Float64Type::get(context));
      supported.insert(f32);
      supported.insert(Float16Type::get(context));
      supported.insert(BFloat16Type::get(context));
      TypeConverter converter;
      math::populateExtendToSupportedTypesTypeConverter(converter, supported,
                                                        f32);
      ConversionTarget target(*context);
      math::populateExtendToSupportedTypesConversionTarget(target, converter);
      RewritePatternSet patterns(context);
      math::populateExtendToSupportedTypesPatterns(patterns, converter);
      if (failed(applyPartialConversion(funcOp, target, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      populateExpandSmallFloatConversionPatterns(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns), config)))
        return signalPassFailure();
    }
    WalkResult result = funcOp.walk([&](Operation *op) {
      if (!computesOnSmallFloats(op))
        return WalkResult::advance();
      auto truncOp = dyn_cast<arith::TruncFOp>(op);
      if (truncOp && truncOp.getRoundingmode())
        op->emitError() << "'arith.truncf' to "
                        << getElementTypeOrSelf(truncOp.getType())
                        << " rounds to nearest even only";
      else
        op->emitError() << "kiln cannot compute '" << op->getName()
                        << "' on floats of at most 8 bits";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
