//===- Bufferize.cpp - in-place bufferization of kernels ------------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_BUFFERIZEPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// A copy whose source and target are the same buffer: what remains of a
/// result that was computed in place.
struct EraseSelfCopy : OpRewritePattern<linalg::CopyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::CopyOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() || op.getInputs()[0] != op.getOutputs()[0])
      return rewriter.notifyMatchFailure(op, "not a self copy");
    rewriter.eraseOp(op);
    return success();
  }
};

/// Moves static stack allocations to the function entry so that loops do not
/// grow the stack on every iteration.
void hoistStaticAllocas(func::FuncOp funcOp) {
  Block &entry = funcOp.getBody().front();
  SmallVector<memref::AllocaOp> allocas;
  funcOp.walk([&](memref::AllocaOp op) {
    if (op->getBlock() != &entry && op->getNumOperands() == 0)
      allocas.push_back(op);
  });
  for (memref::AllocaOp op : allocas)
    op->moveBefore(&entry, entry.begin());
}

struct BufferizePass : impl::BufferizePassBase<BufferizePass> {
  void runOnOperation() override {
    ModuleOp moduleOp = getOperation();
    IRRewriter rewriter(&getContext());
    // Results stored to a binding are computed directly in that binding.
    if (failed(bufferization::eliminateEmptyTensors(rewriter, moduleOp)))
      return signalPassFailure();

    bufferization::OneShotBufferizationOptions options;
    // Temporaries are tile-sized: the stack holds them without a heap
    // allocator in the kernel.
    options.allocationFn = [](OpBuilder &builder, Location loc, MemRefType type,
                              ValueRange dynamicSizes,
                              unsigned alignment) -> FailureOr<Value> {
      return memref::AllocaOp::create(builder, loc, type, dynamicSizes,
                                      builder.getI64IntegerAttr(alignment))
          .getResult();
    };
    options.memCpyFn = [](OpBuilder &builder, Location loc, Value from,
                          Value to) {
      linalg::CopyOp::create(builder, loc, from, to);
      return success();
    };
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotBufferize(moduleOp, options, state)))
      return signalPassFailure();

    // A result computed in place is copied onto itself: once loops forward
    // their buffers and equal subviews merge, the copy's two sides are one
    // value and the copy goes.
    {
      RewritePatternSet patterns(&getContext());
      scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
      memref::SubViewOp::getCanonicalizationPatterns(patterns, &getContext());
      if (failed(applyPatternsGreedily(moduleOp, std::move(patterns))))
        return signalPassFailure();
    }
    DominanceInfo dominance(moduleOp);
    eliminateCommonSubExpressions(rewriter, dominance, moduleOp);
    {
      RewritePatternSet patterns(&getContext());
      patterns.add<EraseSelfCopy>(&getContext());
      if (failed(applyPatternsGreedily(moduleOp, std::move(patterns))))
        return signalPassFailure();
    }
    moduleOp.walk(hoistStaticAllocas);
  }
};

} // namespace
} // namespace mlir::kiln
