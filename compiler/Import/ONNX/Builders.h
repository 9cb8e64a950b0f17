//===- Builders.h - IR the ONNX op converters share ---------------*- C++ -*-===//
//
// Helpers the converters of several op families use: sizes, constants,
// numpy-style broadcasting into linalg.generic, element conversions with
// ONNX's Cast semantics, transposes and reshapes, index arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_BUILDERS_H_
#define KILN_IMPORT_ONNX_BUILDERS_H_

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::kiln::onnx_import {

/// The sizes of a ranked tensor, static ones as attributes.
SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value tensor);

/// An uninitialized tensor of `sizes`.
Value createEmpty(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType);

/// tensor.extract_slice of `source`, or an empty tensor where a size is 0
/// (MLIR's verifier refuses an offset at the end of a dimension, which is
/// where an empty slice of an empty dimension starts).
Value createSlice(OpBuilder &b, Location loc, Value source,
                  ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                  ArrayRef<OpFoldResult> strides);

/// A scalar constant of `type` (float, integer or index) holding `value`
/// (converted: NaN and infinities for floats; integers truncated).
Value createScalar(OpBuilder &b, Location loc, Type type, double value);
/// An integer scalar constant, exact for every 64-bit value.
Value createIntScalar(OpBuilder &b, Location loc, Type type, int64_t value);
/// A scalar constant of `like`'s type.
Value createScalarLike(OpBuilder &b, Location loc, Value like, double value);
/// A tensor of `sizes` filled with the scalar `value`.
Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Value value);
/// A zero-filled tensor of `sizes` (an accumulator).
Value createZeros(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                  Type elementType);

/// The smallest and largest value of a float or integer type (-inf and
/// +inf where the float has them), the identities of max and min.
Value createLowest(OpBuilder &b, Location loc, Type type, bool isUnsigned);
Value createHighest(OpBuilder &b, Location loc, Type type, bool isUnsigned);

/// The sizes of numpy-style broadcasting of tensors of `shapes`: ranks
/// aligned on the right, a size of 1 stretched. A size known only at run
/// time is taken to match the other operands' (1 stretches only where
/// static). Fails, reporting nothing, where two static sizes differ and
/// neither is 1.
FailureOr<SmallVector<OpFoldResult>>
getBroadcastSizes(OpBuilder &b, Location loc, ValueRange inputs);

/// The element computation of an elementwise op: the inputs' elements in,
/// the result's element out.
using ElementBody =
    function_ref<Value(OpBuilder &b, Location loc, ValueRange elements)>;

/// An elementwise op over `inputs` broadcast numpy-style to `sizes` (by
/// default their broadcast sizes): one linalg.generic reading each input in
/// place, a stretched size by a constant index. `body` sees f16 and bf16
/// elements as f32 (a half result is rounded once). Fails, reporting
/// nothing, where the inputs do not broadcast.
FailureOr<Value> buildElementwise(OpBuilder &b, Location loc,
                                  ValueRange inputs, Type resultElementType,
                                  ElementBody body,
                                  ArrayRef<OpFoldResult> sizes = {});

/// The ways elements fold into an accumulator.
enum class Combine { Add, Mul, Max, Min };

/// `lhs` folded with `rhs` as `kind` says, for floats (max and min
/// propagate NaN), signed or unsigned integers, and booleans (add as or,
/// multiply as and, as numpy's do).
Value combineElements(OpBuilder &b, Location loc, Combine kind, Value lhs,
                      Value rhs, bool isUnsigned);

/// 1 / (1 + exp(-x)).
Value buildSigmoid(OpBuilder &b, Location loc, Value x);

/// The largest finite value of the 8-bit and 4-bit float types, which
/// ONNX's saturating conversions clamp to; nullopt for other types.
std::optional<double> getSaturationBound(Type type);

/// An index read from an indices tensor (integer `element`), a negative one
/// counted from the end of a dimension of `size`.
Value normalizeIndex(OpBuilder &b, Location loc, Value element, Value size,
                     bool isUnsigned);

/// The bytes of a static, non-splat constant of whole-byte elements (a
/// dense or resource constant), if `value` is one.
std::optional<ArrayRef<char>> getConstantBytes(Value value);

/// `value` plus the 1-D `vector` along dimension `dim` (a bias along a
/// channel dimension).
Value addAlongDimension(OpBuilder &b, Location loc, Value value, Value vector,
                        int64_t dim);

/// How a reduction folds one element into its accumulator.
using CombineBody = function_ref<Value(OpBuilder &b, Location loc,
                                       Value element, Value accumulator)>;

/// Reduces `input` over `axes` (ascending, unique; none: a map) from the
/// scalar `init`: a linalg.generic whose result drops those dimensions.
Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Value init, CombineBody combine);

/// How a reduction over dimensions chosen as the program runs folds one
/// element into its accumulator; `extras` are the elements of the tensors
/// read at the result's place.
using MaskedCombineBody =
    function_ref<Value(OpBuilder &b, Location loc, Value element,
                       ValueRange extras, Value accumulator)>;

/// Reduces `input` over the dimensions whose `mask` entry (an index value,
/// 0 or 1, known when the program runs) is 1, from the scalar `init`,
/// keeping every dimension (1 where reduced): a window reduction (below)
/// whose window is the input's size where reduced, else 1.
Value buildMaskedReduction(OpBuilder &b, Location loc, Value input,
                           ArrayRef<OpFoldResult> mask, Value init,
                           MaskedCombineBody combine, ValueRange extras = {});

/// For each of `rank` dimensions, 1 where some of `axes` (index values
/// known when the program runs, in [-rank, rank)) names it, else 0.
SmallVector<OpFoldResult> getAxesMask(OpBuilder &b, Location loc,
                                      ArrayRef<OpFoldResult> axes,
                                      int64_t rank);

/// The sizes left of `sizes` once the dimensions `mask` marks are dropped:
/// `count` of them, entry k the size of the k-th dimension not marked.
SmallVector<OpFoldResult> getUnmarkedSizes(OpBuilder &b, Location loc,
                                           ArrayRef<OpFoldResult> sizes,
                                           ArrayRef<OpFoldResult> mask,
                                           int64_t count);

/// The inverse: `sizes` in order at the dimensions `mask` leaves unmarked,
/// 1 at the marked ones.
SmallVector<OpFoldResult> getSizesAroundMarked(OpBuilder &b, Location loc,
                                               ArrayRef<OpFoldResult> sizes,
                                               ArrayRef<OpFoldResult> mask);

/// The result of a linalg.generic over `init`'s dimensions and one more,
/// its last, of `extent` steps, summed: the extent is the only dimension of
/// an empty tensor the generic takes as its input and no computation reads.
Value buildTrailingReduction(
    OpBuilder &b, Location loc, Value init, OpFoldResult extent,
    function_ref<void(OpBuilder &, Location, ValueRange)> body);

/// Folds, at each place o of a result of `resultSizes`, the elements of
/// `input` at o + w for every w in a window of `windowSizes`, from the
/// scalar `init`; `extras` (of the result's sizes) are read at o. The
/// input must hold every place read.
Value buildWindowReduction(OpBuilder &b, Location loc, Value input,
                           ArrayRef<OpFoldResult> resultSizes,
                           ArrayRef<OpFoldResult> windowSizes, Value init,
                           MaskedCombineBody combine, ValueRange extras = {});

/// `tensor`'s sizes with a 1 inserted at each of `axes` (ascending, in the
/// result's numbering): a reduction's result with its dimensions kept.
Value insertUnitDims(OpBuilder &b, Location loc, Value tensor,
                     ArrayRef<int64_t> axes);

/// `tensor` broadcast numpy-style to `sizes`.
FailureOr<Value> broadcastTo(OpBuilder &b, Location loc, Value tensor,
                             ArrayRef<OpFoldResult> sizes);

/// Converts a scalar with ONNX Cast's semantics: floats to integers round
/// toward zero (saturating), anything to bool is `!= 0`, bool to anything
/// is 0 or 1; `fromUnsigned`/`toUnsigned` give the integers' signedness.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type to,
                    bool fromUnsigned, bool toUnsigned);
/// Converts every element of a tensor so.
Value convertElements(OpBuilder &b, Location loc, Value tensor, Type to,
                      bool fromUnsigned, bool toUnsigned);

/// linalg.transpose of `tensor`: result dim i is input dim `permutation[i]`;
/// a constant is transposed while importing.
Value transpose(OpBuilder &b, Location loc, Value tensor,
                ArrayRef<int64_t> permutation);

/// `tensor` with the same elements in row-major order at `sizes`: a
/// collapse, an expand, or a collapse to one dimension and an expand.
Value reshape(OpBuilder &b, Location loc, Value tensor,
              ArrayRef<OpFoldResult> sizes);

/// The product of `sizes`, folded where static.
OpFoldResult getProduct(OpBuilder &b, Location loc,
                        ArrayRef<OpFoldResult> sizes);

/// `value` as an index value (an attribute where static).
Value getIndexValue(OpBuilder &b, Location loc, OpFoldResult value);

/// Index arithmetic, folded where static: host functions compute sizes
/// with it as the program runs.
class IndexMath {
public:
  IndexMath(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpFoldResult constant(int64_t value) { return b.getIndexAttr(value); }

  Value value(OpFoldResult v) { return getIndexValue(b, loc, v); }

  template <typename OpTy, typename Fold>
  OpFoldResult binary(OpFoldResult lhs, OpFoldResult rhs, Fold fold) {
    std::optional<int64_t> l = getConstantIntValue(lhs);
    std::optional<int64_t> r = getConstantIntValue(rhs);
    if (l && r) {
      std::optional<int64_t> folded = fold(*l, *r);
      if (folded)
        return constant(*folded);
    }
    return OpTy::create(b, loc, value(lhs), value(rhs)).getResult();
  }

  /// Folds wrap around as the host's 64-bit arithmetic does.
  static int64_t wrap(uint64_t value) { return static_cast<int64_t>(value); }

  OpFoldResult add(OpFoldResult l, OpFoldResult r) {
    if (isConstantIntValue(l, 0))
      return r;
    if (isConstantIntValue(r, 0))
      return l;
    return binary<arith::AddIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(wrap(uint64_t(a) + uint64_t(b)));
    });
  }
  OpFoldResult sub(OpFoldResult l, OpFoldResult r) {
    if (isConstantIntValue(r, 0))
      return l;
    return binary<arith::SubIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(wrap(uint64_t(a) - uint64_t(b)));
    });
  }
  OpFoldResult mul(OpFoldResult l, OpFoldResult r) {
    if (isConstantIntValue(l, 1) || isConstantIntValue(r, 0))
      return r;
    if (isConstantIntValue(r, 1) || isConstantIntValue(l, 0))
      return l;
    return binary<arith::MulIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(wrap(uint64_t(a) * uint64_t(b)));
    });
  }
  /// Rounds toward zero, as ONNX's integer Div.
  OpFoldResult div(OpFoldResult l, OpFoldResult r) {
    return binary<arith::DivSIOp>(
        l, r, [](int64_t a, int64_t b) -> std::optional<int64_t> {
          if (b == 0)
            return std::nullopt;
          return a / b;
        });
  }
  /// The divisor's sign, as ONNX's integer Mod: l - r * floor(l / r).
  OpFoldResult mod(OpFoldResult l, OpFoldResult r) {
    std::optional<int64_t> a = getConstantIntValue(l);
    std::optional<int64_t> d = getConstantIntValue(r);
    if (a && d && *d != 0) {
      int64_t m = *a % *d;
      if (m != 0 && ((m < 0) != (*d < 0)))
        m += *d;
      return constant(m);
    }
    return sub(l, mul(r, floorDiv(l, r)));
  }
  OpFoldResult floorDiv(OpFoldResult l, OpFoldResult r) {
    return binary<arith::FloorDivSIOp>(
        l, r, [](int64_t a, int64_t b) -> std::optional<int64_t> {
          if (b == 0)
            return std::nullopt;
          return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
        });
  }
  OpFoldResult max(OpFoldResult l, OpFoldResult r) {
    return binary<arith::MaxSIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(std::max(a, b));
    });
  }
  OpFoldResult min(OpFoldResult l, OpFoldResult r) {
    return binary<arith::MinSIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(std::min(a, b));
    });
  }

  // Comparisons and choices as 0 and 1, by the arithmetic above alone:
  // what a host function computes (it has no comparisons or branches on
  // indices).

  /// 1 where `v` < 0, else 0.
  OpFoldResult isNegative(OpFoldResult v) {
    return sub(constant(0), max(min(v, constant(0)), constant(-1)));
  }
  /// 1 where `v` = 0, else 0.
  OpFoldResult isZero(OpFoldResult v) {
    OpFoldResult magnitude = max(v, sub(constant(0), v));
    return sub(constant(1), min(magnitude, constant(1)));
  }
  /// A signed comparison as 0 or 1.
  OpFoldResult compare(arith::CmpIPredicate predicate, OpFoldResult l,
                       OpFoldResult r) {
    using P = arith::CmpIPredicate;
    switch (predicate) {
    case P::eq:
      return isZero(sub(l, r));
    case P::ne:
      return sub(constant(1), isZero(sub(l, r)));
    case P::slt:
      return isNegative(sub(l, r));
    case P::sle:
      return isNegative(sub(sub(l, r), constant(1)));
    case P::sgt:
      return isNegative(sub(r, l));
    case P::sge:
      return isNegative(sub(sub(r, l), constant(1)));
    default:
      break;
    }
    std::optional<int64_t> a = getConstantIntValue(l);
    std::optional<int64_t> c = getConstantIntValue(r);
    if (a && c)
      return constant(
          arith::applyCmpPredicate(predicate, APInt(64, *a), APInt(64, *c)));
    Value flag = arith::CmpIOp::create(b, loc, predicate, value(l), value(r));
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), flag)
        .getResult();
  }
  /// 1 where `axis` (in [-rank, rank)) names dimension `d`, else 0.
  OpFoldResult namesDimension(OpFoldResult axis, int64_t d, int64_t rank) {
    return add(compare(arith::CmpIPredicate::eq, axis, constant(d)),
               compare(arith::CmpIPredicate::eq, axis, constant(d - rank)));
  }
  /// `condition` (0 or 1) ? l : r.
  OpFoldResult select(OpFoldResult condition, OpFoldResult l, OpFoldResult r) {
    if (std::optional<int64_t> c = getConstantIntValue(condition))
      return *c ? l : r;
    if (l == r)
      return l;
    return add(r, mul(condition, sub(l, r)));
  }

private:
  OpBuilder &b;
  Location loc;
};

/// A 0-d tensor as a scalar (tensor.extract).
Value extractScalar(OpBuilder &b, Location loc, Value tensor);

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_BUILDERS_H_
