//===- Bufferize.cpp - in-place bufferization of kernels ------------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
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

/// An insert into a tensor the kernel reads from a binding (its input) is
/// made into a copy of that tensor first: the copy then writes the binding
/// the result is stored to, in place, where bufferization would otherwise
/// copy the input into a temporary as large as it.
void copyInsertDestinations(func::FuncOp funcOp) {
  funcOp.walk([&](tensor::InsertSliceOp insertOp) {
    Value dest = insertOp.getDest();
    if (!dest.getDefiningOp<bufferization::ToTensorOp>())
      return;
    OpBuilder builder(insertOp);
    Location loc = insertOp.getLoc();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(builder, loc, dest);
    Value empty = tensor::EmptyOp::create(builder, loc, sizes,
                                          insertOp.getDestType().getElementType());
    Value copy =
        linalg::CopyOp::create(builder, loc, dest, empty).getResult(0);
    insertOp.getDestMutable().assign(copy);
  });
}

/// The most each of a kernel's temporaries sized at run time may take of
/// the stack: the runtime's threads have the system's default stack (8 MiB
/// on Linux), and an embedder's may be smaller.
constexpr int64_t kMaxDynamicTemporaryBytes = int64_t(1) << 20;

/// Gives each stack temporary sized at run time (a tile of a size the
/// dispatch passes) one buffer at the function's start, as large as its
/// sizes can be there, checked against kMaxDynamicTemporaryBytes before
/// the work: a loop does not grow the stack, and no size takes more stack
/// than there is (the workgroup fails instead).
LogicalResult boundDynamicAllocas(func::FuncOp funcOp) {
  Block &entry = funcOp.getBody().front();
  SmallVector<memref::AllocaOp> allocas;
  funcOp.walk([&](memref::AllocaOp op) {
    if (op.getType().getNumDynamicDims() != 0)
      allocas.push_back(op);
  });
  // Bounds in terms of what the function has at its start.
  auto atStart = [&](Value value, std::optional<int64_t>,
                     ValueBoundsConstraintSet &) {
    Block *block = isa<BlockArgument>(value)
                       ? cast<BlockArgument>(value).getOwner()
                       : value.getDefiningOp()->getBlock();
    return block == &entry;
  };
  for (memref::AllocaOp allocaOp : allocas) {
    Operation *top = entry.findAncestorOpInBlock(*allocaOp);
    OpBuilder builder(top);
    Location loc = allocaOp.getLoc();
    MemRefType type = allocaOp.getType();
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    // Each factor is first capped just past the limit (a negative size
    // reads as a huge unsigned one), so the product cannot overflow.
    Value cap = index(kMaxDynamicTemporaryBytes + 1);
    int64_t elementBytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!type.isDynamicDim(d))
        elementBytes *= type.getDimSize(d);
    Value bytes = index(elementBytes);
    for (Value size : allocaOp.getDynamicSizes()) {
      // The least of the bounds found: a tile's size min(tile, n - i) is
      // bounded by the tile, not only by n.
      SmallVector<ValueBoundsConstraintSet::Variable> candidates;
      if (auto minOp = size.getDefiningOp<affine::AffineMinOp>()) {
        for (AffineExpr expr : minOp.getAffineMap().getResults())
          candidates.emplace_back(
              AffineMap::get(minOp.getAffineMap().getNumDims(),
                             minOp.getAffineMap().getNumSymbols(), expr),
              llvm::to_vector_of<ValueBoundsConstraintSet::Variable>(
                  minOp.getOperands()));
      } else {
        candidates.emplace_back(size);
      }
      Value factor = cap;
      for (const ValueBoundsConstraintSet::Variable &candidate : candidates) {
        FailureOr<OpFoldResult> bound = affine::reifyValueBound(
            builder, loc, presburger::BoundType::UB, candidate, atStart,
            /*closedUB=*/true);
        if (succeeded(bound))
          factor = arith::MinUIOp::create(
              builder, loc,
              getValueOrCreateConstantIndexOp(builder, loc, *bound), factor);
      }
      if (factor == cap)
        return allocaOp.emitOpError(
            "has a size known only at run time and no bound for it that "
            "the kernel knows where it starts");
      bytes = arith::MinUIOp::create(
          builder, loc, arith::MulIOp::create(builder, loc, bytes, factor),
          cap);
    }
    Value fits = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                       bytes,
                                       index(kMaxDynamicTemporaryBytes));
    cf::AssertOp::create(builder, loc, fits,
                         "temporaries sized at run time fit the stack");
    auto buffer = memref::AllocaOp::create(
        builder, loc, MemRefType::get({ShapedType::kDynamic}, builder.getI8Type()),
        ValueRange{bytes}, allocaOp.getAlignmentAttr());
    builder.setInsertionPoint(allocaOp);
    Value view = memref::ViewOp::create(
        builder, loc, type, buffer,
        arith::ConstantIndexOp::create(builder, loc, 0),
        allocaOp.getDynamicSizes());
    allocaOp.replaceAllUsesWith(view);
    allocaOp.erase();
  }
  return success();
}

struct BufferizePass : impl::BufferizePassBase<BufferizePass> {
  void runOnOperation() override {
    ModuleOp moduleOp = getOperation();
    IRRewriter rewriter(&getContext());
    moduleOp.walk(copyInsertDestinations);
    // A slice of an empty tensor is an empty tensor: tiling an unpack whose
    // tiles overhang its result leaves its destination as one (the rows of
    // the padded tiles sliced off), which would otherwise be a temporary
    // copied into the binding rather than the binding itself.
    {
      RewritePatternSet patterns(&getContext());
      tensor::populateFoldTensorEmptyPatterns(patterns);
      if (failed(applyPatternsGreedily(
              moduleOp, std::move(patterns),
              GreedyRewriteConfig().enableFolding(false).enableConstantCSE(
                  false))))
        return signalPassFailure();
    }
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
    for (auto funcOp : moduleOp.getOps<func::FuncOp>())
      if (failed(boundDynamicAllocas(funcOp)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
