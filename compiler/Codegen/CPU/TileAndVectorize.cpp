//===- TileAndVectorize.cpp - vector-sized tiles, then vectors ------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_TILEANDVECTORIZEPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// Largest iteration space vectorized as a whole; anything bigger is tiled
/// first so that vectors stay register-sized.
constexpr int64_t kMaxVectorizedElements = 4096;

/// Marks the loops tiling creates, until their remainders are peeled.
constexpr StringLiteral kPeelAttrName = "__kiln_peel";

/// Static loop ranges of a linalg op, pack or unpack (dynamic ones as
/// ShapedType::kDynamic).
SmallVector<int64_t> getStaticLoopRanges(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getStaticLoopRanges();
  if (auto packOp = dyn_cast<linalg::PackOp>(op))
    return SmallVector<int64_t>(
        packOp.getDestType().getShape().take_front(packOp.getSourceRank()));
  if (auto unpackOp = dyn_cast<linalg::UnPackOp>(op))
    return SmallVector<int64_t>(unpackOp.getDestType().getShape());
  return {};
}

int64_t getIterationSpaceSize(Operation *op) {
  int64_t size = 1;
  for (int64_t range : getStaticLoopRanges(op)) {
    if (ShapedType::isDynamic(range))
      return ShapedType::kDynamic;
    size *= range;
  }
  return size;
}

/// Keeps the sizes of loops of one kind, zeroing the others.
SmallVector<int64_t> filterLoops(Operation *op, ArrayRef<int64_t> sizes,
                                 utils::IteratorType kind) {
  SmallVector<int64_t> result(sizes);
  SmallVector<utils::IteratorType> iterators =
      cast<TilingInterface>(op).getLoopIteratorTypes();
  for (auto [i, size] : llvm::enumerate(result))
    if (i >= iterators.size() || iterators[i] != kind)
      size = 0;
  result.resize(iterators.size(), 0);
  return result;
}

/// Marks `loops` for peeling.
void markForPeeling(ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : loops)
    loop->setAttr(kPeelAttrName, UnitAttr::get(loop->getContext()));
}

LogicalResult tileWithFor(RewriterBase &rewriter, Operation *op,
                          ArrayRef<int64_t> sizes, bool fuseProducers) {
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
    return success();
  scf::SCFTilingOptions tilingOptions;
  tilingOptions.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  auto tilingInterface = cast<TilingInterface>(op);
  if (fuseProducers) {
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tilingOptions);
    // A producer with an empty loop (a matmul over K = 0) has no tiles to
    // compute; fusing it would divide its loops by sizes of zero. It stays
    // outside the loop nest and runs zero times.
    options.setFusionControlFn(
        [](tensor::ExtractSliceOp, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          auto producerOp = dyn_cast<linalg::LinalgOp>(producer.getOwner());
          if (producerOp && getIterationSpaceSize(producerOp) == 0)
            return std::nullopt;
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        });
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, tilingInterface,
                                                  options);
    if (failed(result))
      return failure();
    for (auto [original, replacement] : result->replacements)
      rewriter.replaceAllUsesWith(original, replacement);
    markForPeeling(result->loops);
    return success();
  }
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, tilingInterface, tilingOptions);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  markForPeeling(result->loops);
  return success();
}

/// Splits every marked loop whose step does not divide its range into a
/// loop of full tiles and one partial iteration, so that the full tiles
/// have static sizes (and the partial one too when the range is static).
/// Loops nested in a peeled loop are peeled in both copies.
void peelMarkedLoops(RewriterBase &rewriter, func::FuncOp funcOp) {
  for (;;) {
    scf::ForOp next;
    funcOp.walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
      if (!forOp->hasAttr(kPeelAttrName))
        return WalkResult::advance();
      next = forOp;
      return WalkResult::interrupt();
    });
    if (!next)
      return;
    next->removeAttr(kPeelAttrName);
    scf::ForOp partialIteration;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, next, partialIteration);
  }
}

/// Vector sizes for a relayout whose tile overhangs the end of a loop: a
/// pack's static destination, read through a mask where its source ends,
/// or an unpack's static source, written through a mask. Empty when
/// shapes are static.
SmallVector<int64_t> getMaskedVectorSizes(Operation *op) {
  if (auto packOp = dyn_cast<linalg::PackOp>(op)) {
    if (packOp.getSourceType().hasStaticShape() ||
        !packOp.getDestType().hasStaticShape())
      return {};
    return SmallVector<int64_t>(packOp.getDestType().getShape());
  }
  // An unpack into the rows left over at the end of a loop: its static
  // source is read whole and written through a mask.
  if (auto unpackOp = dyn_cast<linalg::UnPackOp>(op)) {
    if (unpackOp.getDestType().hasStaticShape() ||
        !unpackOp.getSourceType().hasStaticShape())
      return {};
    return SmallVector<int64_t>(unpackOp.getSourceType().getShape());
  }
  return {};
}

/// Unit tiles everywhere but the innermost loop, which gets up to 16.
SmallVector<int64_t> getDefaultVectorTiles(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> tiles(ranges.size(), 1);
  if (!ranges.empty()) {
    int64_t inner = ranges.back();
    tiles.back() = 1;
    for (int64_t d = std::min<int64_t>(inner, 16); d > 1; --d)
      if (inner % d == 0) {
        tiles.back() = d;
        break;
      }
  }
  return tiles;
}

bool hasUniformElementType(linalg::LinalgOp op) {
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  return llvm::all_of(op->getOperandTypes(), [&](Type type) {
    return getElementTypeOrSelf(type) == elementType;
  });
}

struct TileAndVectorizePass
    : impl::TileAndVectorizePassBase<TileAndVectorizePass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);

    // 1. The stored op's parallel loops, with every producer fused.
    Operation *storedOp = nullptr;
    funcOp.walk([&](Operation *op) {
      if (LoweringConfigAttr config = getLoweringConfig(op))
        if (!config.getWorkgroup().empty() && isa<TilingInterface>(op))
          storedOp = op;
    });
    if (storedOp) {
      SmallVector<int64_t> sizes =
          filterLoops(storedOp, getLoweringConfig(storedOp).getVector(),
                      utils::IteratorType::parallel);
      if (failed(tileWithFor(rewriter, storedOp, sizes, /*fuse=*/true))) {
        storedOp->emitError("cannot tile to vector sizes");
        return signalPassFailure();
      }
    }

    // 2. Reduction loops of each configured op.
    SmallVector<linalg::LinalgOp> configured;
    funcOp.walk([&](linalg::LinalgOp op) {
      if (getLoweringConfig(op) && op.hasPureTensorSemantics())
        configured.push_back(op);
    });
    for (linalg::LinalgOp op : configured) {
      SmallVector<int64_t> sizes =
          filterLoops(op, getLoweringConfig(op).getVector(),
                      utils::IteratorType::reduction);
      if (failed(tileWithFor(rewriter, op, sizes, /*fuse=*/false))) {
        op.emitError("cannot tile reductions to vector sizes");
        return signalPassFailure();
      }
    }

    // 3. Whatever is still too large for vectors gets default tiles.
    SmallVector<linalg::LinalgOp> large;
    funcOp.walk([&](linalg::LinalgOp op) {
      int64_t size = getIterationSpaceSize(op);
      if (op.hasPureTensorSemantics() && size != ShapedType::kDynamic &&
          size > kMaxVectorizedElements)
        large.push_back(op);
    });
    for (linalg::LinalgOp op : large)
      (void)tileWithFor(rewriter, op, getDefaultVectorTiles(op),
                        /*fuse=*/false);

    // Remainders of tiles that do not divide their loops: peeled off, so
    // that full tiles are static and vectorize.
    peelMarkedLoops(rewriter, funcOp);
    {
      RewritePatternSet patterns(context);
      scf::ForOp::getCanonicalizationPatterns(patterns, context);
      affine::AffineMinOp::getCanonicalizationPatterns(patterns, context);
      tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
      tensor::CastOp::getCanonicalizationPatterns(patterns, context);
      linalg::PackOp::getCanonicalizationPatterns(patterns, context);
      linalg::UnPackOp::getCanonicalizationPatterns(patterns, context);
      // Static sizes reach the ops through tensor.cast folds.
      context->getLoadedDialect<linalg::LinalgDialect>()
          ->getCanonicalizationPatterns(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }

    // 4. Unit-tiled 2-D convolutions and poolings become 1-D ones, which
    //    the vectorizer handles.
    {
      RewritePatternSet patterns(context);
      linalg::populateDecomposeConvolutionPatterns(patterns);
      scf::populateSCFForLoopCanonicalizationPatterns(patterns);
      tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }

    // 5. Vectorize every linalg op small enough; the rest becomes loops
    //    later.
    SmallVector<Operation *> candidates;
    funcOp.walk([&](Operation *op) {
      if (!isa<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp>(op))
        return;
      SmallVector<int64_t> masked = getMaskedVectorSizes(op);
      int64_t size = 1;
      for (int64_t range : masked)
        size *= range;
      if (masked.empty())
        size = getIterationSpaceSize(op);
      // Empty iteration spaces have nothing to vectorize; their loops run
      // zero times.
      if (size != ShapedType::kDynamic && size > 0 &&
          size <= kMaxVectorizedElements)
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      SmallVector<int64_t> vectorSizes = getMaskedVectorSizes(op);
      if (failed(linalg::vectorizeOpPrecondition(op, vectorSizes)))
        continue;
      rewriter.setInsertionPoint(op);
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      // Contractions become vector.contract directly (not broadcasts and
      // a multi-reduction), which lowers to outer products. Only when no
      // operand is extended: vector.contract would sign-extend implicitly,
      // losing an unsigned cast. Nor into a 0-d result (linalg.dot): the
      // vectorizer would build an accumulator vector<T>, which
      // vector.contract rejects (it wants a scalar there).
      bool isContraction =
          linalgOp && linalg::isaContractionOpInterface(linalgOp) &&
          hasUniformElementType(linalgOp) &&
          linalgOp.getRank(linalgOp.getDpsInitOperand(0)) > 0;
      FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
          rewriter, op, vectorSizes, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/isContraction);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }

    // 6. Fold slices into transfers and clean up.
    RewritePatternSet patterns(context);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return signalPassFailure();

    // 7. Accumulators read and written back at the same place on every
    //    iteration of a reduction loop become loop-carried vectors, so they
    //    stay in registers (innermost loops first: walks are post-order).
    SmallVector<scf::ForOp> loops;
    funcOp.walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
    for (scf::ForOp forOp : loops)
      (void)hoistLoopInvariantSubsets(rewriter, forOp);
  }
};

}  // namespace
}  // namespace mlir::kiln
