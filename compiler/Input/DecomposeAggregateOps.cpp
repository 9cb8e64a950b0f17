//===- DecomposeAggregateOps.cpp - softmax, pad, concat to simpler ops ----===//

#include "Input/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEOPSPASS
#include "Input/Passes.h.inc"

namespace {

/// Replaces an op implementing AggregatedOpInterface (linalg.softmax) by the
/// ops it decomposes into.
struct DecomposeAggregatedOp
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> replacements =
        op.decomposeOperation(rewriter);
    if (failed(replacements))
      return rewriter.notifyMatchFailure(op, "cannot decompose");
    rewriter.replaceOp(op, *replacements);
    return success();
  }
};

}  // namespace

void populateDecomposeAggregateOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeAggregatedOp>(patterns.getContext());
  linalg::populateDecomposePadPatterns(patterns);
  tensor::populateDecomposeTensorConcatPatterns(patterns);
}

namespace {
struct DecomposeAggregateOpsPass
    : impl::DecomposeAggregateOpsPassBase<DecomposeAggregateOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeAggregateOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
}  // namespace

}  // namespace mlir::kiln
