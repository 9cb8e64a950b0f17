//===- ConvertTestOps.cpp - IREE test-format helpers to kiln ops ----------===//

#include "Input/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CONVERTTESTOPSPASS
#include "Input/Passes.h.inc"

namespace {

/// `value` as an arith.constant behind a barrier: no dispatch folds it.
Value createUnfoldableConstant(PatternRewriter &rewriter, Location loc,
                               TypedAttr value) {
  Value constant = arith::ConstantOp::create(rewriter, loc, value);
  return util::OptimizationBarrierOp::create(rewriter, loc, constant)
      .getResult(0);
}

struct LowerUnfoldableConstant : OpRewritePattern<util::UnfoldableConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(util::UnfoldableConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createUnfoldableConstant(rewriter, op.getLoc(), op.getValue()));
    return success();
  }
};

/// An unfoldable constant whose type then forgets its shape.
struct LowerDynamicConstant : OpRewritePattern<flow::TensorDynamicConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(flow::TensorDynamicConstantOp op,
                                PatternRewriter &rewriter) const override {
    Value constant =
        createUnfoldableConstant(rewriter, op.getLoc(), op.getValue());
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(), constant);
    return success();
  }
};

struct LowerExpectEqConst : OpRewritePattern<check::ExpectEqConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(check::ExpectEqConstOp op,
                                PatternRewriter &rewriter) const override {
    Value expected = arith::ConstantOp::create(
        rewriter, op.getLoc(), cast<TypedAttr>(op.getValue()));
    rewriter.replaceOpWithNewOp<check::ExpectEqOp>(op, op.getLhs(), expected);
    return success();
  }
};

struct LowerExpectAlmostEqConst
    : OpRewritePattern<check::ExpectAlmostEqConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(check::ExpectAlmostEqConstOp op,
                                PatternRewriter &rewriter) const override {
    Value expected = arith::ConstantOp::create(
        rewriter, op.getLoc(), cast<TypedAttr>(op.getValue()));
    rewriter.replaceOpWithNewOp<check::ExpectAlmostEqOp>(
        op, op.getLhs(), expected, op.getAtolAttr(), op.getRtolAttr());
    return success();
  }
};

}  // namespace

void populateConvertTestOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerUnfoldableConstant, LowerDynamicConstant,
               LowerExpectEqConst, LowerExpectAlmostEqConst>(
      patterns.getContext());
}

namespace {
struct ConvertTestOpsPass : impl::ConvertTestOpsPassBase<ConvertTestOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateConvertTestOpsPatterns(patterns);
    // Only these ops: a full greedy run would also fold the constants the
    // barrier is there to protect.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<util::UnfoldableConstantOp, flow::TensorDynamicConstantOp,
              check::ExpectEqConstOp,
              check::ExpectAlmostEqConstOp>(op))
        ops.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};
}  // namespace

}  // namespace mlir::kiln
