//===- DecomposeAggregateOps.cpp - softmax, pack, pad, concat to simpler ops ===//

#include "Input/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Matchers.h"
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

} // namespace

/// tensor.insert of one element: an insert_slice of a one-element tensor,
/// which dispatches copy like any other. A computed position is clamped into
/// the tensor, as XLA clamps a dynamic-update-slice's start: an index out of
/// range (undefined in MLIR) writes the nearest element instead of memory
/// past the buffer.
struct DecomposeInsert : OpRewritePattern<tensor::InsertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType destType = op.getDest().getType();
    int64_t rank = destType.getRank();
    Location loc = op.getLoc();
    auto elementType = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                             destType.getElementType());
    // A host scalar is by now a read of a 0-d tensor
    // (kiln-convert-host-scalars-to-tensors): that tensor, reshaped, is the
    // element, with no scalar left on the host.
    Value element;
    auto read = op.getScalar().getDefiningOp<tensor::ExtractOp>();
    if (read && read.getTensor().getType().getRank() == 0) {
      element = tensor::ExpandShapeOp::create(
          rewriter, loc, elementType, read.getTensor(),
          SmallVector<ReassociationIndices>{});
    } else {
      element = tensor::FromElementsOp::create(rewriter, loc, elementType,
                                               ValueRange{op.getScalar()});
    }
    SmallVector<OpFoldResult> offsets;
    for (auto [dim, index] : llvm::enumerate(op.getIndices())) {
      if (matchPattern(index, m_Constant())) {
        offsets.push_back(getAsOpFoldResult(index));
        continue;
      }
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value last = arith::SubIOp::create(
          rewriter, loc,
          tensor::DimOp::create(rewriter, loc, op.getDest(), dim),
          arith::ConstantIndexOp::create(rewriter, loc, 1));
      Value clamped = arith::MinSIOp::create(
          rewriter, loc, arith::MaxSIOp::create(rewriter, loc, index, zero),
          last);
      offsets.push_back(clamped);
    }
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
} // namespace

} // namespace mlir::kiln
