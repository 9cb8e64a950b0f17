//===- ShapeArithmetic.h - shape tensors as index values ----------*- C++ -*-===//
//
// Models compute shapes with tensor ops: Shape -> Gather -> Unsqueeze ->
// Concat -> Reshape, with Add, Mul, Div, Equal and Where between. The
// importer keeps the elements of such small integer tensors as index
// values instead: constants where known (the chain folds away), and where a
// size is known only when the program runs, index arithmetic the host
// computes from the sizes of the tensors it is given. A tensor of them is
// made only if an op other than these reads it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_SHAPEARITHMETIC_H_
#define KILN_IMPORT_ONNX_SHAPEARITHMETIC_H_

#include "Import/ONNX/Builders.h"
#include "Import/ONNX/NodeConverter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <optional>

namespace mlir::kiln::onnx_import {

/// The elements of a small integer or boolean tensor of rank 0 or 1, as
/// index values (booleans as 0 and 1).
using ShapeElements = SmallVector<OpFoldResult>;

/// The most elements a tensor kept as index values holds.
inline constexpr int64_t kMaxShapeElements = 64;

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

  OpFoldResult add(OpFoldResult l, OpFoldResult r) {
    if (isConstantIntValue(l, 0))
      return r;
    if (isConstantIntValue(r, 0))
      return l;
    return binary<arith::AddIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(a + b);
    });
  }
  OpFoldResult sub(OpFoldResult l, OpFoldResult r) {
    if (isConstantIntValue(r, 0))
      return l;
    return binary<arith::SubIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(a - b);
    });
  }
  OpFoldResult mul(OpFoldResult l, OpFoldResult r) {
    if (isConstantIntValue(l, 1) || isConstantIntValue(r, 0))
      return r;
    if (isConstantIntValue(r, 1) || isConstantIntValue(l, 0))
      return l;
    return binary<arith::MulIOp>(l, r, [](int64_t a, int64_t b) {
      return std::optional<int64_t>(a * b);
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

/// What `node` makes of shape elements, for the ops shapes are computed
/// with, or nullopt when it is not one of them or an input it reads is not
/// known as index values (`inputs[i]`, nullopt where unknown). Shape and
/// Size read the sizes of their input tensor through `ctx`.
std::optional<SmallVector<ShapeElements>>
evaluateShapeNode(NodeContext &ctx,
                  ArrayRef<std::optional<ShapeElements>> inputs);

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_SHAPEARITHMETIC_H_
