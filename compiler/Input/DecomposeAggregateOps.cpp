//===- DecomposeAggregateOps.cpp - softmax, pack, pad, concat to simpler ops ===//

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

/// linalg.pack: a pad (when tiles do not divide), an expand_shape and a
/// linalg.transpose.
struct DecomposePack : OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::PackOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(linalg::lowerPack(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot lower");
    return success();
  }
};

/// linalg.unpack: a linalg.transpose, a collapse_shape and an extract_slice.
struct DecomposeUnPack : OpRewritePattern<linalg::UnPackOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::UnPackOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(linalg::lowerUnPack(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot lower");
    return success();
  }
};

}  // namespace

/// tensor.insert of one element: an insert_slice of a one-element tensor,
/// which dispatches copy like any other.
struct DecomposeInsert : OpRewritePattern<tensor::InsertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType destType = op.getDest().getType();
    int64_t rank = destType.getRank();
    auto elementType =
        RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                              destType.getElementType());
    Value element = tensor::FromElementsOp::create(
        rewriter, op.getLoc(), elementType, ValueRange{op.getScalar()});
    SmallVector<OpFoldResult> offsets = getAsOpFoldResult(op.getIndices());
    SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, element, op.getDest(), offsets, ones, ones);
    return success();
  }
};

void populateDecomposeAggregateOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeAggregatedOp, DecomposeInsert, DecomposePack,
               DecomposeUnPack>(patterns.getContext());
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
