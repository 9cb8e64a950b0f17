//===- GuardIntegerDivision.cpp - integer division that cannot fault ------===//
//
// x86 division faults on a zero divisor and on the one signed quotient that
// overflows (the type's minimum by -1): the process dies of SIGFPE, and the
// embedder with it, on data the program did not expect. A kernel's divisor
// becomes 1 in those cases, so that the quotient is the dividend (the
// minimum, as two's complement wraps) and the remainder 0.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_GUARDINTEGERDIVISIONPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// Whether a divisor is known to divide without a fault: a constant (or
/// splat) that is neither 0 nor, for a signed division, -1.
bool isSafeDivisor(Value divisor, bool isSigned) {
  APInt value;
  if (!matchPattern(divisor, m_ConstantInt(&value)))
    return false;
  return !value.isZero() && !(isSigned && value.isAllOnes());
}

/// Replaces the divisor of `op` (lhs, rhs) by 1 where it would fault.
void guardDivisor(Operation *op, bool isSigned) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (isSafeDivisor(rhs, isSigned))
    return;
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Type type = rhs.getType();
  Type elementType = getElementTypeOrSelf(type);
  unsigned width = elementType.isIndex() ? IndexType::kInternalStorageBitWidth
                                         : elementType.getIntOrFloatBitWidth();
  auto constant = [&](const APInt &value) -> Value {
    TypedAttr attr = b.getIntegerAttr(elementType, value);
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, attr);
    return arith::ConstantOp::create(b, type, attr);
  };
  Value one = constant(APInt(width, 1));
  Value faults = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rhs,
                                       constant(APInt::getZero(width)));
  if (isSigned) {
    Value overflows = arith::AndIOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lhs,
                              constant(APInt::getSignedMinValue(width))),
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rhs,
                              constant(APInt::getAllOnes(width))));
    faults = arith::OrIOp::create(b, faults, overflows);
  }
  op->setOperand(1, arith::SelectOp::create(b, faults, one, rhs));
}

struct GuardIntegerDivisionPass
    : impl::GuardIntegerDivisionPassBase<GuardIntegerDivisionPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
              arith::FloorDivSIOp>(op))
        guardDivisor(op, /*isSigned=*/true);
      else if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op))
        guardDivisor(op, /*isSigned=*/false);
    });
  }
};

} // namespace
} // namespace mlir::kiln
