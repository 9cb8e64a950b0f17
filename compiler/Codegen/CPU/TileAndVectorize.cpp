//===- TileAndVectorize.cpp - vector-sized tiles, then vectors ------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_TILEANDVECTORIZEPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// Largest iteration space vectorized as a whole; anything bigger is tiled
/// first so that vectors stay register-sized.
constexpr int64_t kMaxVectorizedElements = 4096;

int64_t getIterationSpaceSize(linalg::LinalgOp op) {
  int64_t size = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return ShapedType::kDynamic;
    size *= range;
  }
  return size;
}

/// Keeps the sizes of loops of one kind, zeroing the others.
SmallVector<int64_t> filterLoops(linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                                 utils::IteratorType kind) {
  SmallVector<int64_t> result(sizes);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [i, size] : llvm::enumerate(result))
    if (i >= iterators.size() || iterators[i] != kind)
      size = 0;
  result.resize(iterators.size(), 0);
  return result;
}

LogicalResult tileWithFor(RewriterBase &rewriter, linalg::LinalgOp op,
                          ArrayRef<int64_t> sizes, bool fuseProducers) {
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
    return success();
  scf::SCFTilingOptions tilingOptions;
  tilingOptions.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  auto tilingInterface = cast<TilingInterface>(op.getOperation());
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
    return success();
  }
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, tilingInterface, tilingOptions);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return success();
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
    linalg::LinalgOp storedOp;
    funcOp.walk([&](linalg::LinalgOp op) {
      if (LoweringConfigAttr config = getLoweringConfig(op))
        if (!config.getWorkgroup().empty())
          storedOp = op;
    });
    if (storedOp) {
      SmallVector<int64_t> sizes =
          filterLoops(storedOp, getLoweringConfig(storedOp).getVector(),
                      utils::IteratorType::parallel);
      if (failed(tileWithFor(rewriter, storedOp, sizes, /*fuse=*/true))) {
        storedOp.emitError("cannot tile to vector sizes");
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
    SmallVector<linalg::LinalgOp> candidates;
    funcOp.walk([&](linalg::LinalgOp op) {
      int64_t size = getIterationSpaceSize(op);
      // Empty iteration spaces have nothing to vectorize; their loops run
      // zero times.
      if (size != ShapedType::kDynamic && size > 0 &&
          size <= kMaxVectorizedElements)
        candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      if (failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      rewriter.setInsertionPoint(op);
      // Contractions become vector.contract directly (not broadcasts and
      // a multi-reduction), which lowers to outer products. Only when no
      // operand is extended: vector.contract would sign-extend implicitly,
      // losing an unsigned cast. Nor into a 0-d result (linalg.dot): the
      // vectorizer would build an accumulator vector<T>, which
      // vector.contract rejects (it wants a scalar there).
      bool isContraction = linalg::isaContractionOpInterface(op) &&
                           hasUniformElementType(op) &&
                           op.getRank(op.getDpsInitOperand(0)) > 0;
      FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
          rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
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
  }
};

}  // namespace
}  // namespace mlir::kiln
