//===- BoundExtractIndices.cpp - computed extract indices clamped ---------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_BOUNDEXTRACTINDICESPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

using Bounds = ValueBoundsConstraintSet;

/// Clamps each index of a tensor.extract to [0, dim - 1] on the sides
/// where value-bounds analysis cannot prove it inside.
struct ClampExtractIndices : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tensor = op.getTensor();
    SmallVector<Value> indices(op.getIndices());
    bool changed = false;
    for (auto [d, index] : llvm::enumerate(indices)) {
      OpFoldResult zero = rewriter.getIndexAttr(0);
      if (!Bounds::compare(index, Bounds::GE, zero)) {
        index = arith::MaxSIOp::create(
            rewriter, loc, index,
            arith::ConstantIndexOp::create(rewriter, loc, 0));
        changed = true;
      }
      if (!Bounds::compare(index, Bounds::LT, Bounds::Variable(tensor, d))) {
        Value last = arith::SubIOp::create(
            rewriter, loc, tensor::DimOp::create(rewriter, loc, tensor, d),
            arith::ConstantIndexOp::create(rewriter, loc, 1));
        index = arith::MinSIOp::create(rewriter, loc, index, last);
        changed = true;
      }
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op,
                             [&] { op.getIndicesMutable().assign(indices); });
    return success();
  }
};

struct BoundExtractIndicesPass
    : impl::BoundExtractIndicesPassBase<BoundExtractIndicesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ClampExtractIndices>(&getContext());
    // One visit per op: a clamped index is not clamped again.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace mlir::kiln
