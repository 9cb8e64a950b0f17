//===- Resize.cpp - ONNX Resize and GridSample ----------------------------===//
//
// Both read each output element's neighbours in the input with tensor.extract
// at computed indices inside a linalg.generic (a gather) and weight them by
// the interpolation's coefficients. Resize computes where an output position
// falls in the input in f64, with the reference's formulas in the
// reference's order, so that it picks the reference's neighbours and
// weights; the weighted sums are in the input's float type (in f64 for
// integers, rounded back as the reference's saturating cast does).
// GridSample computes its coordinates in the grid's type, at least f32, as
// the reference does.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <functional>

namespace mlir::kiln::onnx_import {

namespace {

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

/// Float arithmetic on scalars of `type` at one place, so that formulas read
/// as formulas.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type type;

  Value c(double value) const { return createScalar(b, loc, type, value); }
  // Folded where the operands are constants, so that what is known while
  // importing leaves no arithmetic.
  template <typename OpTy, typename... Args>
  Value fold(Args &&...args) const {
    return b.createOrFold<OpTy>(loc, std::forward<Args>(args)...);
  }
  Value add(Value x, Value y) const { return fold<arith::AddFOp>(x, y); }
  Value sub(Value x, Value y) const { return fold<arith::SubFOp>(x, y); }
  Value mul(Value x, Value y) const { return fold<arith::MulFOp>(x, y); }
  Value div(Value x, Value y) const { return fold<arith::DivFOp>(x, y); }
  Value floor(Value x) const { return fold<math::FloorOp>(x); }
  Value abs(Value x) const { return fold<math::AbsFOp>(x); }
  // The NaN-ignoring min and max: a clamp gives a bound, never NaN.
  Value min(Value x, Value y) const { return fold<arith::MinNumFOp>(x, y); }
  Value max(Value x, Value y) const { return fold<arith::MaxNumFOp>(x, y); }
  Value clamp(Value x, Value low, Value high) const {
    return min(max(x, low), high);
  }
  Value lt(Value x, Value y) const {
    return cmp(arith::CmpFPredicate::OLT, x, y);
  }
  Value le(Value x, Value y) const {
    return cmp(arith::CmpFPredicate::OLE, x, y);
  }
  Value gt(Value x, Value y) const {
    return cmp(arith::CmpFPredicate::OGT, x, y);
  }
  Value ge(Value x, Value y) const {
    return cmp(arith::CmpFPredicate::OGE, x, y);
  }
  Value eq(Value x, Value y) const {
    return cmp(arith::CmpFPredicate::OEQ, x, y);
  }
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) const {
    return fold<arith::CmpFOp>(predicate, x, y);
  }
  Value select(Value condition, Value x, Value y) const {
    return fold<arith::SelectOp>(condition, x, y);
  }
  Value both(Value x, Value y) const { return fold<arith::AndIOp>(x, y); }
  Value either(Value x, Value y) const { return fold<arith::OrIOp>(x, y); }
  /// An index value as a float of `type`.
  Value fromIndex(Value index) const {
    return fold<arith::SIToFPOp>(
        type, fold<arith::IndexCastOp>(b.getI64Type(), index));
  }
  /// A float holding an integer (clamped so that it fits) as an index value.
  Value toIndex(Value x) const {
    Value wide = arith::FPToSIOp::create(b, loc, b.getI64Type(), x);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), wide);
  }
  /// `x` converted to this math's type.
  Value convert(Value x) const {
    return convertScalar(b, loc, x, type, false, false);
  }
};

/// Keys' cubic convolution weights of the four neighbours floor(x) - 1 ..
/// floor(x) + 2 of x, for ratio = x - floor(x), as the reference writes them.
SmallVector<Value> getCubicWeights(const FloatMath &m, Value ratio, double a) {
  Value one = m.c(1);
  auto outer = [&](Value t) {
    // ((a * t - 5a) * t + 8a) * t - 4a, for t in [1, 2]
    Value v = m.sub(m.mul(m.c(a), t), m.c(5 * a));
    v = m.add(m.mul(v, t), m.c(8 * a));
    return m.sub(m.mul(v, t), m.c(4 * a));
  };
  auto inner = [&](Value t) {
    // ((a + 2) * t - (a + 3)) * t * t + 1, for t in [0, 1]
    Value v = m.sub(m.mul(m.c(a + 2), t), m.c(a + 3));
    return m.add(m.mul(m.mul(v, t), t), one);
  };
  Value rest = m.sub(one, ratio);
  return {outer(m.add(ratio, one)), inner(ratio), inner(rest),
          outer(m.add(rest, one))};
}

/// The linear weights of the neighbours floor(x) and floor(x) + 1.
SmallVector<Value> getLinearWeights(const FloatMath &m, Value ratio) {
  return {m.sub(m.c(1), ratio), ratio};
}

/// A scalar computed in a float type as an element of `elementType`: floats
/// rounded to it, integers rounded half to even and saturated, as the
/// reference's saturating cast does.
Value toElement(OpBuilder &b, Location loc, Value value, Type elementType,
                bool isUnsigned) {
  if (isa<FloatType>(elementType))
    return convertScalar(b, loc, value, elementType, false, false);
  FloatMath m{b, loc, value.getType()};
  unsigned width = elementType.getIntOrFloatBitWidth();
  // The extremes of the integer type, the upper one the largest double not
  // above it (2^63 - 1 and 2^64 - 1 have none).
  double low = isUnsigned ? 0 : -std::ldexp(1.0, width - 1);
  double high =
      isUnsigned ? std::ldexp(1.0, width) : std::ldexp(1.0, width - 1);
  high = width < 53 ? high - 1 : std::nextafter(high, 0.0);
  Value rounded = math::RoundEvenOp::create(b, loc, value);
  rounded = m.clamp(rounded, m.c(low), m.c(high));
  return convertScalar(b, loc, rounded, elementType, false, isUnsigned);
}

/// The float type interpolation computes in: the input's, f64 for integers.
Type getComputeType(Type elementType) {
  if (isa<FloatType>(elementType))
    return elementType;
  return Float64Type::get(elementType.getContext());
}

//===----------------------------------------------------------------------===//
// Resize
//===----------------------------------------------------------------------===//

/// An f64 scalar the kernels read: known while importing, else built where
/// it is needed, from sizes the host knows or from a tensor's elements
/// (which only a kernel can read).
struct Real {
  std::optional<double> known;
  std::function<Value(OpBuilder &, Location)> build;

  static Real of(double value) { return {value, nullptr}; }
  Value get(OpBuilder &b, Location loc) const {
    return known ? createScalar(b, loc, b.getF64Type(), *known) : build(b, loc);
  }
};

/// A size as a Real.
Real getReal(OpBuilder &b, Location loc, OpFoldResult size) {
  if (std::optional<int64_t> value = getConstantIntValue(size))
    return Real::of(static_cast<double>(*value));
  Value index = getIndexValue(b, loc, size);
  return {std::nullopt, [index](OpBuilder &nb, Location nl) {
            return FloatMath{nb, nl, nb.getF64Type()}.fromIndex(index);
          }};
}

/// Element `position` of the 1-D `tensor`, read by the kernel that uses it.
Real readElement(Value tensor, int64_t position, bool isUnsigned) {
  return {std::nullopt, [=](OpBuilder &b, Location loc) {
            Value index = arith::ConstantIndexOp::create(b, loc, position);
            Value element = tensor::ExtractOp::create(b, loc, tensor, index);
            return convertScalar(b, loc, element, b.getF64Type(), isUnsigned,
                                 false);
          }};
}

/// `fold(lhs, rhs)` where both are known, else `build`'s where needed.
Real combine(const Real &lhs, const Real &rhs, double (*fold)(double, double),
             Value (*build)(const FloatMath &, Value, Value)) {
  if (lhs.known && rhs.known)
    return Real::of(fold(*lhs.known, *rhs.known));
  return {std::nullopt, [=](OpBuilder &b, Location loc) {
            FloatMath m{b, loc, b.getF64Type()};
            return build(m, lhs.get(b, loc), rhs.get(b, loc));
          }};
}

Real divide(const Real &lhs, const Real &rhs) {
  return combine(
      lhs, rhs, [](double x, double y) { return x / y; },
      [](const FloatMath &m, Value x, Value y) { return m.div(x, y); });
}

Real multiply(const Real &lhs, const Real &rhs) {
  return combine(
      lhs, rhs, [](double x, double y) { return x * y; },
      [](const FloatMath &m, Value x, Value y) { return m.mul(x, y); });
}

Real minimum(const Real &lhs, const Real &rhs) {
  return combine(
      lhs, rhs, [](double x, double y) { return std::min(x, y); },
      [](const FloatMath &m, Value x, Value y) { return m.min(x, y); });
}

Real maximum(const Real &lhs, const Real &rhs) {
  return combine(
      lhs, rhs, [](double x, double y) { return std::max(x, y); },
      [](const FloatMath &m, Value x, Value y) { return m.max(x, y); });
}

/// floor(size * scale), the output's size for a scale: by the host's
/// integer arithmetic where the size is known only when the program runs,
/// exact as the scale is a binary fraction; failure where its digits are
/// too many for that.
FailureOr<OpFoldResult> getScaledSize(OpBuilder &b, Location loc,
                                      OpFoldResult size, double scale) {
  if (std::optional<int64_t> value = getConstantIntValue(size))
    return OpFoldResult(b.getIndexAttr(
        static_cast<int64_t>(std::floor(static_cast<double>(*value) * scale))));
  // scale = numerator * 2^exponent, the numerator odd.
  int exponent = 0;
  double mantissa = std::frexp(scale, &exponent);
  if (!(scale > 0) || !std::isfinite(scale))
    return failure();
  auto numerator = static_cast<int64_t>(std::ldexp(mantissa, 53));
  exponent -= 53;
  while (numerator % 2 == 0) {
    numerator /= 2;
    ++exponent;
  }
  if (numerator >= (int64_t{1} << 32) || exponent > 16 || exponent < -62)
    return failure();
  Value index = getIndexValue(b, loc, size);
  if (exponent >= 0)
    return OpFoldResult(
        arith::MulIOp::create(
            b, loc, index,
            arith::ConstantIndexOp::create(b, loc, numerator << exponent))
            .getResult());
  Value product = arith::MulIOp::create(
      b, loc, index, arith::ConstantIndexOp::create(b, loc, numerator));
  return OpFoldResult(
      arith::FloorDivSIOp::create(
          b, loc, product,
          arith::ConstantIndexOp::create(b, loc, int64_t{1} << -exponent))
          .getResult());
}

/// The output's size along an axis of input size `in` under
/// keep_aspect_ratio_policy: round(scale * in), rounding halves up, where
/// scale is the least (not_larger) or greatest (not_smaller) of sizes[i] /
/// ins[i]. By the host's integer arithmetic where a size is known only
/// when the program runs, as the least (greatest) of the rounded products:
/// rounding keeps order.
OpFoldResult getAspectSize(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> sizes,
                           ArrayRef<OpFoldResult> ins, OpFoldResult in,
                           bool larger) {
  auto isStatic = [](OpFoldResult size) {
    return getConstantIntValue(size).has_value();
  };
  if (llvm::all_of(sizes, isStatic) && llvm::all_of(ins, isStatic) &&
      isStatic(in)) {
    // In f64, as the reference.
    std::optional<double> scale;
    for (auto [size, inSize] : llvm::zip(sizes, ins)) {
      double ratio = static_cast<double>(*getConstantIntValue(size)) /
                     static_cast<double>(*getConstantIntValue(inSize));
      scale =
          !scale ? ratio
                 : (larger ? std::max(*scale, ratio) : std::min(*scale, ratio));
    }
    double out = *scale * static_cast<double>(*getConstantIntValue(in)) + 0.5;
    return b.getIndexAttr(static_cast<int64_t>(std::floor(out)));
  }
  // floor(sizes[i] * in / ins[i] + 1/2) = (2 sizes[i] in + ins[i]) floordiv
  // (2 ins[i]).
  Value result;
  Value two = arith::ConstantIndexOp::create(b, loc, 2);
  Value inValue = getIndexValue(b, loc, in);
  for (auto [size, inSize] : llvm::zip(sizes, ins)) {
    Value divisor = getIndexValue(b, loc, inSize);
    Value twice = arith::MulIOp::create(
        b, loc, arith::MulIOp::create(b, loc, getIndexValue(b, loc, size), two),
        inValue);
    Value value = arith::FloorDivSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, twice, divisor),
        arith::MulIOp::create(b, loc, divisor, two));
    result = !result ? value
             : larger
                 ? arith::MaxSIOp::create(b, loc, result, value).getResult()
                 : arith::MinSIOp::create(b, loc, result, value).getResult();
  }
  return result;
}

enum class Mode { Nearest, Linear, Cubic };

struct ResizeOptions {
  Mode mode;
  std::string transform;
  std::string nearestMode;
  double cubicA;
  bool excludeOutside;
  double extrapolation;
  bool cropAndResize() const { return transform == "tf_crop_and_resize"; }
};

/// How Resize reads one axis it resizes.
struct ResizeAxis {
  int64_t dim;
  OpFoldResult inSize, outSize;
  Real in, out, scale;
  /// scale * in: the output's length before flooring, which the coordinate
  /// transformations take.
  Real width;
  Real roiStart = Real::of(0), roiEnd = Real::of(1);
  /// The filter's stretch, min(scale, 1) with antialiasing, else 1; and its
  /// first tap, relative to floor(x) (it has 2 - 2 * firstTap taps).
  Real filterScale = Real::of(1);
  int64_t firstTap = 0;
};

/// Where output position `y` (f64) of `axis` lies in the input: the spec's
/// transformations, in the reference's order of operations.
Value getSourceCoordinate(const FloatMath &m, const ResizeAxis &axis,
                          const ResizeOptions &options, Value y) {
  auto get = [&](const Real &value) { return value.get(m.b, m.loc); };
  Value half = m.c(0.5), one = m.c(1);
  auto scaled = [&] { return m.div(m.add(y, half), get(axis.scale)); };
  StringRef transform = options.transform;
  if (transform == "half_pixel")
    return m.sub(scaled(), half);
  if (transform == "half_pixel_symmetric") {
    // The input's centre maps to the output's, also where flooring the
    // output's length shortened it.
    Value adjustment = m.div(get(axis.out), get(axis.width));
    Value offset = m.mul(m.div(get(axis.in), m.c(2)), m.sub(one, adjustment));
    return m.sub(m.add(offset, scaled()), half);
  }
  if (transform == "pytorch_half_pixel")
    return m.select(m.gt(get(axis.width), one), m.sub(scaled(), half), m.c(0));
  if (transform == "align_corners") {
    Value width = get(axis.width);
    Value x = m.div(m.mul(y, m.sub(get(axis.in), one)), m.sub(width, one));
    return m.select(m.eq(width, one), m.c(0), x);
  }
  if (transform == "asymmetric")
    return m.div(y, get(axis.scale));
  // tf_crop_and_resize: the region of interest spread over the output; a
  // single output position at its centre.
  Value start = get(axis.roiStart);
  Value span = m.sub(get(axis.roiEnd), start);
  Value last = m.sub(get(axis.in), one);
  Value width = get(axis.width);
  Value x = m.div(m.mul(m.mul(y, span), last), m.sub(width, one));
  Value centre = m.div(m.mul(span, last), m.c(2));
  x = m.select(m.eq(width, one), centre, x);
  return m.add(x, m.mul(start, last));
}

/// Whether coordinate `x` of `axis` lies outside the input, where
/// tf_crop_and_resize gives the extrapolation value.
Value isOutside(const FloatMath &m, const ResizeAxis &axis, Value x) {
  Value last = m.sub(axis.in.get(m.b, m.loc), m.c(1));
  return m.either(m.lt(x, m.c(0)), m.gt(x, last));
}

/// The input index nearest to coordinate `x` as nearest_mode rounds,
/// clamped into the input; and, if `outside` is given, whether it was
/// outside (where exclude_outside takes its weight and leaves 0).
Value getNearestIndex(const FloatMath &m, const ResizeAxis &axis,
                      StringRef nearestMode, Value x, Value *outside) {
  Value floor = m.floor(x);
  Value ratio = m.sub(x, floor);
  Value up;
  if (nearestMode == "round_prefer_floor")
    up = m.gt(ratio, m.c(0.5));
  else if (nearestMode == "round_prefer_ceil")
    up = m.ge(ratio, m.c(0.5));
  else if (nearestMode == "ceil")
    up = m.gt(ratio, m.c(0));
  Value index = up ? m.select(up, m.add(floor, m.c(1)), floor) : floor;
  Value last = m.sub(axis.in.get(m.b, m.loc), m.c(1));
  if (outside)
    *outside = m.either(m.lt(index, m.c(0)), m.gt(index, last));
  return m.toIndex(m.clamp(index, m.c(0), last));
}

/// The neighbours an output position reads along one axis, clamped into
/// the input (its edge repeats), and their weights.
struct Taps {
  SmallVector<Value> indices;
  SmallVector<Value> weights;
};

/// The taps of coordinate `x` of `axis` for linear or cubic interpolation
/// without an antialiasing filter, their weights in `weightType`.
Taps getTaps(const FloatMath &m, const ResizeAxis &axis,
             const ResizeOptions &options, Value x, Type weightType) {
  Value floor = m.floor(x);
  Value ratio = m.sub(x, floor);
  bool cubic = options.mode == Mode::Cubic;
  SmallVector<Value> weights = cubic ? getCubicWeights(m, ratio, options.cubicA)
                                     : getLinearWeights(m, ratio);
  Value in = axis.in.get(m.b, m.loc);
  Value last = m.sub(in, m.c(1));
  // Far outside, a tap need only stay outside: this bounds it for the
  // conversion to an index.
  floor = m.clamp(floor, m.c(-8), m.add(in, m.c(8)));
  Taps taps;
  Value sum;
  for (auto [i, weight] : llvm::enumerate(weights)) {
    Value tap = m.add(floor, m.c(axis.firstTap + static_cast<int64_t>(i)));
    if (options.excludeOutside) {
      Value inside = m.both(m.ge(tap, m.c(0)), m.le(tap, last));
      weight = m.select(inside, weight, m.c(0));
      sum = sum ? m.add(sum, weight) : weight;
    }
    taps.indices.push_back(m.toIndex(m.clamp(tap, m.c(0), last)));
    taps.weights.push_back(weight);
  }
  if (options.excludeOutside) {
    // The weights of the taps inside, renormalized to sum to 1.
    sum = m.select(m.eq(sum, m.c(0)), m.c(1), sum);
    for (Value &weight : taps.weights)
      weight = m.div(weight, sum);
  }
  for (Value &weight : taps.weights)
    weight = convertScalar(m.b, m.loc, weight, weightType, false, false);
  return taps;
}

/// Resize in one linalg.generic over the output: nearest, or linear and
/// cubic without antialiasing, each output element the weighted sum over
/// the product of its taps along each resized axis.
Value buildResize(OpBuilder &b, Location loc, Value input, bool isUnsigned,
                  ArrayRef<ResizeAxis> axes, ArrayRef<OpFoldResult> sizes,
                  const ResizeOptions &options) {
  Type elementType = cast<RankedTensorType>(input.getType()).getElementType();
  Type computeType = getComputeType(elementType);
  int64_t rank = sizes.size();
  Value empty = createEmpty(b, loc, sizes, elementType);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), ValueRange{}, empty, identity, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange) {
        FloatMath m{nb, nl, nb.getF64Type()};
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(nb, nl, d));
        Value outside, excluded;
        SmallVector<Taps> taps;
        for (const ResizeAxis &axis : axes) {
          Value x = getSourceCoordinate(m, axis, options,
                                        m.fromIndex(indices[axis.dim]));
          if (options.cropAndResize()) {
            Value out = isOutside(m, axis, x);
            outside = outside ? m.either(outside, out) : out;
          }
          if (options.mode == Mode::Nearest) {
            Value out;
            indices[axis.dim] =
                getNearestIndex(m, axis, options.nearestMode, x,
                                options.excludeOutside ? &out : nullptr);
            if (out)
              excluded = excluded ? m.either(excluded, out) : out;
          } else {
            taps.push_back(getTaps(m, axis, options, x, computeType));
          }
        }
        Value result;
        if (options.mode == Mode::Nearest) {
          result = tensor::ExtractOp::create(nb, nl, input, indices);
          if (excluded)
            result = m.select(
                excluded, toElement(nb, nl, m.c(0), elementType, isUnsigned),
                result);
          if (outside)
            result = m.select(outside,
                              toElement(nb, nl, m.c(options.extrapolation),
                                        elementType, isUnsigned),
                              result);
          linalg::YieldOp::create(nb, nl, result);
          return;
        }
        // The sum over the first resized axis innermost, as the reference
        // resizes that axis first.
        FloatMath cm{nb, nl, computeType};
        std::function<Value(int64_t)> sum = [&](int64_t level) -> Value {
          if (level < 0) {
            Value element = tensor::ExtractOp::create(nb, nl, input, indices);
            return convertScalar(nb, nl, element, computeType, isUnsigned,
                                 false);
          }
          int64_t dim = axes[level].dim;
          Value total;
          for (auto [index, weight] :
               llvm::zip(taps[level].indices, taps[level].weights)) {
            indices[dim] = index;
            Value term = cm.mul(weight, sum(level - 1));
            total = total ? cm.add(total, term) : term;
          }
          return total;
        };
        result = sum(static_cast<int64_t>(axes.size()) - 1);
        if (outside)
          result = cm.select(outside, cm.c(options.extrapolation), result);
        linalg::YieldOp::create(
            nb, nl, toElement(nb, nl, result, elementType, isUnsigned));
      });
  return generic.getResult(0);
}

/// The unnormalized weight of tap `k` (f64) of output position `y` (f64)
/// along `axis` with its filter, and the tap's index clamped into the
/// input.
std::pair<Value, Value> getFilterTap(const FloatMath &m, const ResizeAxis &axis,
                                     const ResizeOptions &options, Value y,
                                     Value k) {
  Value x = getSourceCoordinate(m, axis, options, y);
  Value floor = m.floor(x);
  Value ratio = m.sub(x, floor);
  Value offset = m.add(k, m.c(axis.firstTap));
  Value s = axis.filterScale.get(m.b, m.loc);
  Value weight;
  if (options.mode == Mode::Linear) {
    Value t = m.mul(m.sub(offset, ratio), s);
    weight = m.clamp(m.sub(m.c(1), m.abs(t)), m.c(0), m.c(1));
  } else {
    double a = options.cubicA;
    Value t = m.abs(m.mul(s, m.sub(offset, ratio)));
    Value t2 = m.mul(t, t);
    Value t3 = m.mul(t, t2);
    Value near =
        m.add(m.sub(m.mul(m.c(a + 2), t3), m.mul(m.c(a + 3), t2)), m.c(1));
    Value far = m.sub(m.add(m.sub(m.mul(m.c(a), t3), m.mul(m.c(5 * a), t2)),
                            m.mul(m.c(8 * a), t)),
                      m.c(4 * a));
    weight =
        m.select(m.le(t, m.c(1)), near, m.select(m.lt(t, m.c(2)), far, m.c(0)));
  }
  Value in = axis.in.get(m.b, m.loc);
  Value last = m.sub(in, m.c(1));
  int64_t count = 2 - 2 * axis.firstTap;
  Value tap =
      m.add(m.clamp(floor, m.c(-count - 2), m.add(in, m.c(count + 2))), offset);
  if (options.excludeOutside) {
    Value inside = m.both(m.ge(tap, m.c(0)), m.le(tap, last));
    weight = m.select(inside, weight, m.c(0));
  }
  return {weight, m.toIndex(m.clamp(tap, m.c(0), last))};
}

/// `current` resized along one axis with its filter, into `computeType`: a
/// reduction over the filter's taps, divided by the sum of each output
/// position's weights (a table reduced apart).
Value buildFilterPass(OpBuilder &b, Location loc, Value current,
                      bool isUnsigned, const ResizeAxis &axis,
                      const ResizeOptions &options, Type computeType) {
  MLIRContext *context = b.getContext();
  // The reductions read their tap numbers from a constant: one whose value
  // depends on linalg.index alone is miscompiled (kiln's CPU vectorizer
  // stores the taps' values instead of their sum).
  int64_t count = 2 - 2 * axis.firstTap;
  SmallVector<double> numbers;
  for (int64_t k = 0; k < count; ++k)
    numbers.push_back(static_cast<double>(k));
  Value tapNumbers = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({count}, b.getF64Type()),
                             ArrayRef<double>(numbers)));
  auto dim = [&](int64_t i) { return getAffineDimExpr(i, context); };

  // sums[y] = the sum of the weights of output position y.
  Value zero = createScalar(b, loc, b.getF64Type(), 0);
  Value sums = createFilled(b, loc, {axis.outSize}, zero);
  SmallVector<AffineMap> sumMaps = {AffineMap::get(2, 0, dim(1)),
                                    AffineMap::get(2, 0, dim(0))};
  SmallVector<utils::IteratorType> sumIterators = {
      utils::IteratorType::parallel, utils::IteratorType::reduction};
  sums = linalg::GenericOp::create(
             b, loc, sums.getType(), tapNumbers, sums, sumMaps, sumIterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               FloatMath m{nb, nl, nb.getF64Type()};
               Value y = m.fromIndex(linalg::IndexOp::create(nb, nl, 0));
               Value weight = getFilterTap(m, axis, options, y, args[0]).first;
               linalg::YieldOp::create(nb, nl, m.add(args[1], weight));
             })
             .getResult(0);

  // The weighted sums of the taps.
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, current);
  int64_t rank = sizes.size();
  sizes[axis.dim] = axis.outSize;
  Value result =
      createFilled(b, loc, sizes, createScalar(b, loc, computeType, 0));
  SmallVector<AffineExpr> outputExprs;
  for (int64_t d = 0; d < rank; ++d)
    outputExprs.push_back(dim(d));
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, dim(rank)),
      AffineMap::get(rank + 1, 0, outputExprs, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  result =
      linalg::GenericOp::create(
          b, loc, result.getType(), tapNumbers, result, maps, iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            FloatMath m{nb, nl, nb.getF64Type()};
            FloatMath cm{nb, nl, computeType};
            SmallVector<Value> indices;
            for (int64_t d = 0; d < rank; ++d)
              indices.push_back(linalg::IndexOp::create(nb, nl, d));
            auto [weight, index] = getFilterTap(
                m, axis, options, m.fromIndex(indices[axis.dim]), args[0]);
            indices[axis.dim] = index;
            Value element = tensor::ExtractOp::create(nb, nl, current, indices);
            element =
                convertScalar(nb, nl, element, computeType, isUnsigned, false);
            Value term = cm.mul(cm.convert(weight), element);
            linalg::YieldOp::create(nb, nl, cm.add(args[1], term));
          })
          .getResult(0);

  // Normalized; outside the input, tf_crop_and_resize's extrapolation.
  Value empty = createEmpty(b, loc, sizes, computeType);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<AffineMap> normalizeMaps = {
      identity, AffineMap::get(rank, 0, dim(axis.dim)), identity};
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), ValueRange{result, sums}, empty,
             normalizeMaps, parallel,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               FloatMath m{nb, nl, nb.getF64Type()};
               FloatMath cm{nb, nl, computeType};
               Value sum = m.select(m.eq(args[1], m.c(0)), m.c(1), args[1]);
               Value value = cm.div(args[0], cm.convert(sum));
               if (options.cropAndResize()) {
                 Value y =
                     m.fromIndex(linalg::IndexOp::create(nb, nl, axis.dim));
                 Value x = getSourceCoordinate(m, axis, options, y);
                 value = cm.select(isOutside(m, axis, x),
                                   cm.c(options.extrapolation), value);
               }
               linalg::YieldOp::create(nb, nl, value);
             })
      .getResult(0);
}

/// Whether two sizes are the same: equal constants, or the same value.
bool isSameSize(OpFoldResult lhs, OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l || r)
    return l == r;
  return lhs == rhs;
}

FailureOr<SmallVector<int64_t>> getResizeAxes(NodeContext &ctx, int64_t rank) {
  if (!ctx.hasAttribute("axes"))
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  SmallVector<int64_t> axes;
  for (int64_t axis : ctx.getInts("axes")) {
    FailureOr<int64_t> normalized = ctx.normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    if (llvm::is_contained(axes, *normalized))
      return ctx.fail("axis " + Twine(*normalized) + " is repeated");
    axes.push_back(*normalized);
  }
  return axes;
}

/// The `count` values of 1-D input `i`: constants where known, else read by
/// the kernels (the input's length must then be static).
FailureOr<std::vector<Real>> getReals(NodeContext &ctx, unsigned i,
                                      size_t count, StringRef name) {
  std::vector<Real> values;
  if (std::optional<SmallVector<double>> constant = ctx.getConstantFloats(i)) {
    for (double value : *constant)
      values.push_back(Real::of(value));
  } else if (std::optional<SmallVector<int64_t>> ints =
                 ctx.getConstantInts(i)) {
    for (int64_t value : *ints)
      values.push_back(Real::of(static_cast<double>(value)));
  } else {
    RankedTensorType type = ctx.getInputType(i);
    if (type.getRank() != 1 || type.isDynamicDim(0))
      return ctx.fail(name + " must be a 1-D tensor of static length");
    for (int64_t j = 0; j < type.getDimSize(0); ++j)
      values.push_back(readElement(ctx.getInput(i), j, ctx.isUnsignedInput(i)));
  }
  if (values.size() != count)
    return ctx.fail(name + " has " + Twine(values.size()) + " entries for " +
                    Twine(count) + " axes");
  return values;
}

/// Whether 1-D input `i` is given and not empty.
bool hasValues(NodeContext &ctx, unsigned i) {
  if (!ctx.hasInput(i))
    return false;
  RankedTensorType type = ctx.getInputType(i);
  return type.getRank() != 1 || type.getDimSize(0) != 0;
}

LogicalResult convertResize(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  RankedTensorType type = ctx.getInputType(0);
  int64_t rank = type.getRank();
  Type elementType = type.getElementType();
  bool isUnsigned = ctx.isUnsignedInput(0);

  ResizeOptions options;
  std::string mode = ctx.getString("mode", "nearest");
  if (mode == "nearest")
    options.mode = Mode::Nearest;
  else if (mode == "linear")
    options.mode = Mode::Linear;
  else if (mode == "cubic")
    options.mode = Mode::Cubic;
  else
    return ctx.fail("mode must be nearest, linear or cubic, got '" + mode +
                    "'");
  options.transform =
      ctx.getString("coordinate_transformation_mode", "half_pixel");
  if (!llvm::is_contained({"half_pixel", "half_pixel_symmetric",
                           "pytorch_half_pixel", "align_corners", "asymmetric",
                           "tf_crop_and_resize"},
                          options.transform))
    return ctx.fail("unknown coordinate_transformation_mode '" +
                    options.transform + "'");
  options.nearestMode = ctx.getString("nearest_mode", "round_prefer_floor");
  if (options.mode == Mode::Nearest &&
      !llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
          options.nearestMode))
    return ctx.fail("unknown nearest_mode '" + options.nearestMode + "'");
  options.cubicA = ctx.getFloat("cubic_coeff_a", -0.75f);
  options.excludeOutside = ctx.getInt("exclude_outside", 0);
  options.extrapolation = ctx.getFloat("extrapolation_value", 0.0f);
  std::string policy = ctx.getString("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return ctx.fail("unknown keep_aspect_ratio_policy '" + policy + "'");
  // Antialiasing filters only linear and cubic interpolation.
  bool antialias = ctx.getInt("antialias", 0) && options.mode != Mode::Nearest;
  if (options.mode != Mode::Nearest && elementType.isInteger(1))
    return ctx.fail("linear and cubic interpolation of bool is not "
                    "supported");

  FailureOr<SmallVector<int64_t>> listed = getResizeAxes(ctx, rank);
  if (failed(listed))
    return failure();
  size_t count = listed->size();
  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<std::optional<OpFoldResult>> known =
      ctx.getKnownOutputSizes(0).value_or(
          SmallVector<std::optional<OpFoldResult>>(inputSizes.size()));
  bool outputKnown =
      llvm::all_of(*listed, [&](int64_t d) { return known[d].has_value(); });

  std::vector<ResizeAxis> axes(count);
  for (auto [axis, dim] : llvm::zip(axes, *listed)) {
    axis.dim = dim;
    axis.inSize = inputSizes[dim];
    axis.in = getReal(b, loc, axis.inSize);
  }
  if (options.cropAndResize()) {
    if (!hasValues(ctx, 1))
      return ctx.fail("tf_crop_and_resize needs roi");
    FailureOr<std::vector<Real>> roi = getReals(ctx, 1, 2 * count, "roi");
    if (failed(roi))
      return failure();
    for (auto [i, axis] : llvm::enumerate(axes)) {
      axis.roiStart = (*roi)[i];
      axis.roiEnd = (*roi)[count + i];
    }
  }

  // The scales, or the sizes (when scales are absent or empty). Values
  // only the kernels can read need the output's sizes from ONNX's
  // inference.
  bool fromScales = hasValues(ctx, 2);
  if (fromScales) {
    FailureOr<std::vector<Real>> scales = getReals(ctx, 2, count, "scales");
    if (failed(scales))
      return failure();
    for (auto [axis, scale] : llvm::zip(axes, *scales)) {
      axis.scale = scale;
      if (known[axis.dim] || !scale.known)
        continue;
      if (*scale.known == 1.0) {
        axis.outSize = axis.inSize;
        continue;
      }
      FailureOr<OpFoldResult> size =
          getScaledSize(b, loc, axis.inSize, *scale.known);
      if (failed(size))
        return ctx.fail("the scale of axis " + Twine(axis.dim) +
                        " has too many binary digits to size an output "
                        "whose input size is known only when the program "
                        "runs");
      axis.outSize = *size;
    }
  } else {
    if (!hasValues(ctx, 3))
      return ctx.fail("one of scales and sizes must be given");
    std::vector<Real> values;
    SmallVector<OpFoldResult> hostSizes;
    if (std::optional<SmallVector<int64_t>> constant = ctx.getConstantInts(3);
        constant || !outputKnown) {
      FailureOr<SmallVector<OpFoldResult>> sizes = ctx.getIndexValues(3);
      if (failed(sizes))
        return failure();
      if (sizes->size() != count)
        return ctx.fail("sizes has " + Twine(sizes->size()) + " entries for " +
                        Twine(count) + " axes");
      hostSizes = *sizes;
      for (OpFoldResult size : hostSizes)
        values.push_back(getReal(b, loc, size));
    } else {
      FailureOr<std::vector<Real>> sizes = getReals(ctx, 3, count, "sizes");
      if (failed(sizes))
        return failure();
      values = *sizes;
    }
    if (policy == "stretch") {
      for (auto [i, axis] : llvm::enumerate(axes)) {
        axis.outSize = known[axis.dim]     ? *known[axis.dim]
                       : hostSizes.empty() ? OpFoldResult()
                                           : hostSizes[i];
        axis.scale = axis.outSize
                         ? divide(getReal(b, loc, axis.outSize), axis.in)
                         : divide(values[i], axis.in);
      }
    } else if (!axes.empty()) {
      // One scale for every listed axis, that which keeps the output within
      // (not_larger) or around (not_smaller) the sizes.
      bool larger = policy == "not_smaller";
      Real scale = divide(values[0], axes[0].in);
      for (size_t i = 1; i < count; ++i) {
        Real ratio = divide(values[i], axes[i].in);
        scale = larger ? maximum(scale, ratio) : minimum(scale, ratio);
      }
      SmallVector<OpFoldResult> ins;
      for (const ResizeAxis &axis : axes)
        ins.push_back(axis.inSize);
      for (ResizeAxis &axis : axes) {
        axis.scale = scale;
        if (!known[axis.dim] && !hostSizes.empty())
          axis.outSize =
              getAspectSize(b, loc, hostSizes, ins, axis.inSize, larger);
      }
    }
  }
  for (ResizeAxis &axis : axes) {
    // ONNX's inference has the last word on the output's sizes.
    if (known[axis.dim])
      axis.outSize = *known[axis.dim];
    if (!axis.outSize)
      return ctx.fail("the output's size along axis " + Twine(axis.dim) +
                      " is not known while importing; scales or sizes read "
                      "when the program runs cannot size a tensor");
    axis.out = getReal(b, loc, axis.outSize);
    axis.width = multiply(axis.scale, axis.in);
  }
  SmallVector<OpFoldResult> outputSizes = inputSizes;
  for (const ResizeAxis &axis : axes)
    outputSizes[axis.dim] = axis.outSize;

  // An axis resized by 1 reads each position in place (the reference skips
  // it too); tf_crop_and_resize also needs the whole input as its region.
  llvm::erase_if(axes, [&](const ResizeAxis &axis) {
    return axis.scale.known == 1.0 && isSameSize(axis.inSize, axis.outSize) &&
           axis.roiStart.known == 0.0 && axis.roiEnd.known == 1.0;
  });
  if (axes.empty()) {
    ctx.setOutput(0, input);
    return success();
  }

  // The filters: antialiasing stretches them by 1 / scale when it shrinks,
  // over more taps. Their count needs a lower bound of the scale.
  bool filtered = false;
  double radius = options.mode == Mode::Cubic ? 2 : 1;
  int64_t taps = 1;
  for (ResizeAxis &axis : axes) {
    axis.firstTap = options.mode == Mode::Cubic ? -1 : 0;
    if (!antialias)
      continue;
    axis.filterScale = minimum(axis.scale, Real::of(1));
    std::optional<double> lower = axis.scale.known;
    std::optional<int64_t> in = getConstantIntValue(axis.inSize);
    std::optional<int64_t> out = getConstantIntValue(axis.outSize);
    if (!lower && in && out) {
      // out = floor(in * scale), or round(in * scale) for a policy's; with
      // a margin for rounding errors.
      double least = fromScales || policy == "stretch" ? *out : *out - 0.5;
      lower = least / *in * (1 - 1e-6);
    }
    if (!lower)
      return ctx.fail("antialias needs the scales, or the input's and "
                      "output's sizes, known while importing: they size its "
                      "filter");
    if (*lower < 1 && *lower > 0) {
      axis.firstTap = static_cast<int64_t>(std::floor(-radius / *lower)) + 1;
      filtered = true;
    }
  }
  for (const ResizeAxis &axis : axes)
    taps *= 2 - 2 * axis.firstTap;

  // A few taps in one kernel; more, such as a filter stretched by
  // antialiasing, one axis at a time, as the reference does.
  if (options.mode == Mode::Nearest || (!filtered && taps <= 64)) {
    ctx.setOutput(
        0, buildResize(b, loc, input, isUnsigned, axes, outputSizes, options));
    return success();
  }
  Type computeType = getComputeType(elementType);
  Value current = input;
  bool currentUnsigned = isUnsigned;
  for (const ResizeAxis &axis : axes) {
    current = buildFilterPass(b, loc, current, currentUnsigned, axis, options,
                              computeType);
    currentUnsigned = false;
  }
  if (computeType == elementType) {
    ctx.setOutput(0, current);
    return success();
  }
  FailureOr<Value> result = buildElementwise(
      b, loc, current, elementType,
      [&](OpBuilder &nb, Location nl, ValueRange elements) {
        return toElement(nb, nl, elements[0], elementType, isUnsigned);
      });
  if (failed(result))
    return failure();
  ctx.setOutput(0, *result);
  return success();
}

//===----------------------------------------------------------------------===//
// GridSample
//===----------------------------------------------------------------------===//

/// `x` reflected by the borders `low` and `high` until it lies between them,
/// as the reference does; a value between them stays.
Value reflect(const FloatMath &m, Value x, Value low, Value high) {
  Value range = m.sub(high, low);
  Value below = m.lt(x, low);
  Value above = m.gt(x, high);
  Value distance = m.select(below, m.sub(low, x), m.sub(x, high));
  // Reflected `times` times whole, then by `rest`: from the far border if
  // `times` is odd.
  Value times = m.floor(m.div(distance, range));
  Value rest = m.sub(distance, m.mul(times, range));
  Value half = m.mul(times, m.c(0.5));
  Value even = m.eq(m.floor(half), half);
  Value fromLow = m.add(low, rest), fromHigh = m.sub(high, rest);
  Value reflected = m.select(below, m.select(even, fromLow, fromHigh),
                             m.select(even, fromHigh, fromLow));
  // Borders that meet (size 1, align_corners) leave one place to be.
  reflected = m.select(m.eq(range, m.c(0)), low, reflected);
  return m.select(m.either(below, above), reflected, x);
}

/// x rounded toward zero.
Value truncate(const FloatMath &m, Value x) {
  return m.select(m.lt(x, m.c(0)), math::CeilOp::create(m.b, m.loc, x),
                  m.floor(x));
}

LogicalResult convertGridSample(NodeContext &ctx) {
  OpBuilder &b = ctx.builder;
  Location loc = ctx.loc;
  Value input = ctx.getInput(0);
  Value grid = ctx.getInput(1);
  RankedTensorType type = ctx.getInputType(0);
  RankedTensorType gridType = ctx.getInputType(1);
  int64_t rank = type.getRank();
  int64_t spatial = rank - 2;
  if (spatial < 1 || gridType.getRank() != rank)
    return ctx.fail("needs an input of rank 3 or more and a grid of its rank");
  if (!gridType.isDynamicDim(rank - 1) &&
      gridType.getDimSize(rank - 1) != spatial)
    return ctx.fail("the grid's last dimension must be " + Twine(spatial) +
                    ", the input's spatial rank");
  std::string mode = ctx.getString("mode", "linear");
  // The names before opset 20.
  if (mode == "bilinear")
    mode = "linear";
  else if (mode == "bicubic")
    mode = "cubic";
  if (mode != "linear" && mode != "nearest" && mode != "cubic")
    return ctx.fail("mode must be linear, nearest or cubic, got '" + mode +
                    "'");
  std::string padding = ctx.getString("padding_mode", "zeros");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return ctx.fail("padding_mode must be zeros, border or reflection, got '" +
                    padding + "'");
  bool alignCorners = ctx.getInt("align_corners", 0);
  Type elementType = type.getElementType();
  if (mode != "nearest" && !isa<FloatType>(elementType))
    return ctx.fail("linear and cubic interpolation need a float input (the "
                    "reference weighs integers with truncated weights)");
  // Coordinates in the grid's type, at least f32 (as the reference's).
  Type coordinateType = gridType.getElementType();
  if (coordinateType.getIntOrFloatBitWidth() < 32)
    coordinateType = b.getF32Type();

  SmallVector<OpFoldResult> inputSizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> gridSizes = getSizes(b, loc, grid);
  SmallVector<OpFoldResult> sizes = {inputSizes[0], inputSizes[1]};
  sizes.append(gridSizes.begin() + 1, gridSizes.end() - 1);
  // Component i of each grid vector, read at every channel.
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps;
  for (int64_t i = 0; i < spatial; ++i) {
    SmallVector<AffineExpr> exprs = {getAffineDimExpr(0, context)};
    for (int64_t d = 2; d < rank; ++d)
      exprs.push_back(getAffineDimExpr(d, context));
    exprs.push_back(getAffineConstantExpr(i, context));
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  SmallVector<Value> grids(spatial, grid);
  Value empty = createEmpty(b, loc, sizes, elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  bool isUnsigned = ctx.isUnsignedInput(0);
  auto generic = linalg::GenericOp::create(
      b, loc, empty.getType(), grids, empty, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        FloatMath m{nb, nl, coordinateType};
        Value zero = m.c(0), one = m.c(1);
        SmallVector<Value> indices = {linalg::IndexOp::create(nb, nl, 0),
                                      linalg::IndexOp::create(nb, nl, 1)};
        // Each spatial dimension's taps (input positions as floats), their
        // weights and whether they lie inside the input.
        SmallVector<Taps> taps(spatial);
        SmallVector<SmallVector<Value>> inside(spatial);
        for (int64_t j = 0; j < spatial; ++j) {
          // The grid lists the innermost dimension first.
          Value g = m.convert(args[spatial - 1 - j]);
          Value length = m.fromIndex(getIndexValue(nb, nl, inputSizes[2 + j]));
          Value last = m.sub(length, one);
          Value x, low, high;
          if (alignCorners) {
            x = m.mul(m.div(m.add(g, one), m.c(2)), last);
            low = zero;
            high = last;
          } else {
            x = m.div(m.sub(m.mul(m.add(g, one), length), one), m.c(2));
            low = m.c(-0.5);
            high = m.sub(length, m.c(0.5));
          }
          if (mode == "nearest")
            x = math::RoundEvenOp::create(nb, nl, x);
          if (padding == "border")
            x = m.select(m.either(m.lt(x, low), m.gt(x, high)),
                         m.clamp(x, zero, last), x);
          else if (padding == "reflection")
            x = reflect(m, x, low, high);
          SmallVector<Value> positions, weights;
          if (mode == "nearest") {
            positions.push_back(truncate(m, x));
          } else {
            Value floor = m.floor(x);
            Value ratio = m.sub(x, floor);
            weights = mode == "cubic" ? getCubicWeights(m, ratio, -0.75)
                                      : getLinearWeights(m, ratio);
            int64_t first = mode == "cubic" ? -1 : 0;
            for (int64_t k = 0; k < static_cast<int64_t>(weights.size()); ++k)
              positions.push_back(m.add(floor, m.c(first + k)));
          }
          for (Value position : positions) {
            if (padding == "zeros")
              inside[j].push_back(
                  m.both(m.ge(position, zero), m.le(position, last)));
            else if (padding == "reflection")
              position = truncate(m, reflect(m, position, low, high));
            taps[j].indices.push_back(m.toIndex(m.clamp(position, zero, last)));
          }
          for (Value weight : weights)
            taps[j].weights.push_back(
                convertScalar(nb, nl, weight, elementType, false, false));
          indices.push_back(nullptr);
        }
        // The sum over the last spatial dimension innermost, as the
        // reference's recursion.
        FloatMath em{nb, nl, elementType};
        // zeros: 0 outside the input.
        Value zeroElement = toElement(nb, nl, m.c(0), elementType, isUnsigned);
        std::function<Value(int64_t, Value)> sum = [&](int64_t j,
                                                       Value valid) -> Value {
          if (j == spatial) {
            Value element = tensor::ExtractOp::create(nb, nl, input, indices);
            if (!valid)
              return element;
            return arith::SelectOp::create(nb, nl, valid, element, zeroElement);
          }
          Value total;
          for (auto [k, index] : llvm::enumerate(taps[j].indices)) {
            indices[2 + j] = index;
            Value tapValid = valid;
            if (!inside[j].empty())
              tapValid =
                  tapValid ? m.both(tapValid, inside[j][k]) : inside[j][k];
            Value term = sum(j + 1, tapValid);
            if (taps[j].weights.empty())
              return term;
            term = em.mul(taps[j].weights[k], term);
            total = total ? em.add(total, term) : term;
          }
          return total;
        };
        linalg::YieldOp::create(nb, nl, sum(0, nullptr));
      });
  ctx.setOutput(0, generic.getResult(0));
  return success();
}

} // namespace

void registerResizeConverters(ConverterTable &table) {
  table["Resize"] = convertResize;
  table["GridSample"] = convertGridSample;
}

} // namespace mlir::kiln::onnx_import
