//===- FuseElementwiseOps.cpp - merge elementwise chains ------------------===//

#include "Dispatch/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_FUSEELEMENTWISEOPSPASS
#include "Dispatch/Passes.h.inc"

namespace {

/// Named elementwise ops (add, exp, transpose, broadcast, ...) become
/// generics so that upstream elementwise fusion sees them. linalg.fill stays
/// named: dispatch formation recognizes it as a cheap init producer.
struct GeneralizeElementwiseNamedOp
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::GenericOp, linalg::FillOp>(op) || !linalg::isElementwise(op))
      return rewriter.notifyMatchFailure(op, "not a named elementwise op");
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot generalize");
    return success();
  }
};

/// Fuses a producer only into its single user: fusing a producer with more
/// users would compute it once per user.
bool isSingleUseProducer(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

}  // namespace

void populateFuseElementwiseOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<GeneralizeElementwiseNamedOp>(patterns.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, isSingleUseProducer);
  linalg::GenericOp::getCanonicalizationPatterns(patterns,
                                                 patterns.getContext());
}

namespace {
struct FuseElementwiseOpsPass
    : impl::FuseElementwiseOpsPassBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseElementwiseOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
}  // namespace

}  // namespace mlir::kiln
