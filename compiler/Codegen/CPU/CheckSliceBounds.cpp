//===- CheckSliceBounds.cpp - computed slices checked against their tensor ===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CHECKSLICEBOUNDSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

using Bounds = ValueBoundsConstraintSet;

/// Whether value-bounds analysis proves dimension `dim` of the slice of
/// `tensor` inside it: empty, or from `offset` on, `size` elements `stride`
/// apart, all below the dim.
bool isProvablyInside(Value tensor, int64_t dim, OpFoldResult offset,
                      OpFoldResult size, OpFoldResult stride) {
  if (isZeroInteger(size))
    return true;
  MLIRContext *context = tensor.getContext();
  AffineExpr o, s, t;
  bindSymbols(context, o, s, t);
  // One past the last element the slice touches.
  Bounds::Variable end(AffineMap::get(0, 3, o + (s - 1) * t + 1),
                       {Bounds::Variable(offset), Bounds::Variable(size),
                        Bounds::Variable(stride)});
  return Bounds::compare(offset, Bounds::GE, OpFoldResult(
                                                 Builder(context).getIndexAttr(0))) &&
         Bounds::compare(end, Bounds::LE, Bounds::Variable(tensor, dim));
}

/// Checks, before `op`, that the slice it takes of (or puts into) `tensor`
/// lies inside it, unless that is proven.
void checkSlice(OffsetSizeAndStrideOpInterface op, Value tensor) {
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value inside;
  for (int64_t d = 0; d < tensorType.getRank(); ++d) {
    OpFoldResult offset = op.getMixedOffsets()[d];
    OpFoldResult size = op.getMixedSizes()[d];
    OpFoldResult stride = op.getMixedStrides()[d];
    if (isProvablyInside(tensor, d, offset, size, stride))
      continue;
    auto value = [&](OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(builder, loc, v);
    };
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value o = value(offset), s = value(size), t = value(stride);
    Value last = arith::AddIOp::create(
        builder, loc, o,
        arith::MulIOp::create(builder, loc,
                              arith::SubIOp::create(builder, loc, s, one), t));
    Value dim = tensor::DimOp::create(builder, loc, tensor, d);
    using Predicate = arith::CmpIPredicate;
    auto cmp = [&](Predicate predicate, Value a, Value b) -> Value {
      return arith::CmpIOp::create(builder, loc, predicate, a, b);
    };
    // Empty, or non-empty with its first and last element inside.
    Value dimInside = arith::OrIOp::create(
        builder, loc, cmp(Predicate::eq, s, zero),
        arith::AndIOp::create(
            builder, loc,
            arith::AndIOp::create(builder, loc, cmp(Predicate::sgt, s, zero),
                                  cmp(Predicate::sge, o, zero)),
            cmp(Predicate::slt, last, dim)));
    inside = inside ? arith::AndIOp::create(builder, loc, inside, dimInside)
                    : dimInside;
  }
  if (inside)
    cf::AssertOp::create(
        builder, loc, inside,
        (op->getName().getStringRef() + " inside its tensor").str());
}

struct CheckSliceBoundsPass
    : impl::CheckSliceBoundsPassBase<CheckSliceBoundsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    // The check fails the whole workgroup before its work, so it stands in
    // the function's body; slices inside loops or regions are those of
    // tiles the compiler made, inside by construction.
    for (Operation &op : llvm::make_early_inc_range(funcOp.getBody().getOps())) {
      if (auto sliceOp = dyn_cast<tensor::ExtractSliceOp>(op))
        checkSlice(sliceOp, sliceOp.getSource());
      else if (auto sliceOp = dyn_cast<tensor::InsertSliceOp>(op))
        checkSlice(sliceOp, sliceOp.getDest());
    }
  }
};

} // namespace
} // namespace mlir::kiln
