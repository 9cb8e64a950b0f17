//===- CheckSliceBounds.cpp - computed sizes checked against the tensors ---===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CHECKSLICEBOUNDSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

using Bounds = ValueBoundsConstraintSet;
using Predicate = arith::CmpIPredicate;

/// Builds the conjunction of the conditions a kernel checks before an op.
class Conditions {
public:
  Conditions(Operation *op) : builder(op), loc(op->getLoc()) {}

  Value value(OpFoldResult v) {
    return getValueOrCreateConstantIndexOp(builder, loc, v);
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v); }
  Value cmp(Predicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b);
  }
  Value both(Value a, Value b) {
    return arith::AndIOp::create(builder, loc, a, b);
  }
  /// Dimension `d` of `tensor`: the dispatch constant of a bound tensor's
  /// dynamic extent.
  Value dim(Value tensor, int64_t d) {
    if (auto toTensorOp = tensor.getDefiningOp<bufferization::ToTensorOp>())
      if (auto bindingOp = toTensorOp.getBuffer().getDefiningOp<BindingOp>()) {
        auto type = cast<MemRefType>(bindingOp.getType());
        if (type.isDynamicDim(d))
          return bindingOp.getDynamicSizes()[type.getDynamicDimIndex(d)];
      }
    return tensor::DimOp::create(builder, loc, tensor, d);
  }
  void require(Value condition) { all = all ? both(all, condition) : condition; }

  /// Asserts what was required, if anything.
  void check(StringRef what) {
    if (all)
      cf::AssertOp::create(builder, loc, all, what);
  }

  OpBuilder builder;
  Location loc;

private:
  Value all;
};

/// Whether value-bounds analysis proves dimension `dim` of the slice of
/// `tensor` inside it: empty, or from `offset` on, `size` elements `stride`
/// apart, all below the dim.
bool isProvablyInside(Value tensor, int64_t dim, OpFoldResult offset,
                      OpFoldResult size, OpFoldResult stride) {
  if (isZeroInteger(size))
    return true;
  std::optional<int64_t> staticStride = getConstantIntValue(stride);
  if (!staticStride || *staticStride < 1)
    return false;
  MLIRContext *context = tensor.getContext();
  AffineExpr o, s;
  bindSymbols(context, o, s);
  // One past the last element the slice touches.
  Bounds::Variable end(AffineMap::get(0, 2, o + (s - 1) * *staticStride + 1),
                       {Bounds::Variable(offset), Bounds::Variable(size)});
  return Bounds::compare(offset, Bounds::GE,
                         OpFoldResult(Builder(context).getIndexAttr(0))) &&
         Bounds::compare(end, Bounds::LE, Bounds::Variable(tensor, dim));
}

/// Requires the slice `op` takes of (or puts into) `tensor` to lie inside
/// it, unless that is proven: per dimension, empty, or a stride of at least
/// 1, a first element at or after 0 and before the dim, and as many further
/// elements as fit before the dim (a division, which cannot overflow).
void requireInside(Conditions &c, OffsetSizeAndStrideOpInterface op,
                   Value tensor) {
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  for (int64_t d = 0; d < tensorType.getRank(); ++d) {
    OpFoldResult offset = op.getMixedOffsets()[d];
    OpFoldResult size = op.getMixedSizes()[d];
    OpFoldResult stride = op.getMixedStrides()[d];
    if (isProvablyInside(tensor, d, offset, size, stride))
      continue;
    Value zero = c.index(0), one = c.index(1);
    Value o = c.value(offset), s = c.value(size), t = c.value(stride);
    Value dim = c.dim(tensor, d);
    // Elements after the first that fit: (dim - 1 - o) / t.
    Value room = arith::DivUIOp::create(
        c.builder, c.loc,
        arith::SubIOp::create(
            c.builder, c.loc, arith::SubIOp::create(c.builder, c.loc, dim, one),
            o),
        arith::MaxSIOp::create(c.builder, c.loc, t, one));
    Value nonEmpty = c.both(
        c.both(c.both(c.cmp(Predicate::sgt, s, zero),
                      c.cmp(Predicate::sge, t, one)),
               c.both(c.cmp(Predicate::sge, o, zero),
                      c.cmp(Predicate::slt, o, dim))),
        c.cmp(Predicate::ule, arith::SubIOp::create(c.builder, c.loc, s, one),
              room));
    c.require(arith::OrIOp::create(c.builder, c.loc,
                                   c.cmp(Predicate::eq, s, zero), nonEmpty));
  }
}

/// Requires each dynamic dim of `value` to equal `sizes` (the sizes it
/// should have, in dims order), unless they are the same value.
void requireSizes(Conditions &c, Value value, ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    OpFoldResult size = sizes[d];
    if (Bounds::compare(Bounds::Variable(value, d), Bounds::EQ,
                        Bounds::Variable(size)))
      continue;
    c.require(c.cmp(Predicate::eq, c.dim(value, d), c.value(size)));
  }
}

struct CheckSliceBoundsPass
    : impl::CheckSliceBoundsPassBase<CheckSliceBoundsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    // The check fails the whole workgroup before its work, so it stands in
    // the function's body; slices inside loops or regions are those of
    // tiles the compiler made, inside by construction.
    for (Operation &op : llvm::make_early_inc_range(funcOp.getBody().getOps())) {
      Conditions c(&op);
      if (auto sliceOp = dyn_cast<tensor::ExtractSliceOp>(op)) {
        requireInside(c, sliceOp, sliceOp.getSource());
        c.check("tensor.extract_slice inside its tensor");
      } else if (auto insertOp = dyn_cast<tensor::InsertSliceOp>(op)) {
        requireInside(c, insertOp, insertOp.getDest());
        // The source fills the slice exactly.
        llvm::SmallBitVector dropped = insertOp.getDroppedDims();
        SmallVector<OpFoldResult> sizes;
        for (auto [d, size] : llvm::enumerate(insertOp.getMixedSizes()))
          if (!dropped.test(d))
            sizes.push_back(size);
        requireSizes(c, insertOp.getSource(), sizes);
        c.check("tensor.insert_slice inside its tensor, its source the "
                "slice's sizes");
      } else if (auto storeOp =
                     dyn_cast<bufferization::MaterializeInDestinationOp>(op)) {
        // A result computed at sizes other than its binding's would be
        // written past it.
        auto bindingOp = storeOp.getDest().getDefiningOp<BindingOp>();
        if (!bindingOp)
          continue;
        requireSizes(c, storeOp.getSource(),
                     getMixedValues(bindingOp.getType().getShape(),
                                    bindingOp.getDynamicSizes(), c.builder));
        c.check("result of its binding's sizes");
      }
    }
  }
};

} // namespace
} // namespace mlir::kiln
