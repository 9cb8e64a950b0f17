//===- Vectorize.cpp - linalg ops, packs and unpacks to vector ops --------===//
//
// Decomposes unit-tiled 2-D convolutions into 1-D ones, vectorizes every
// op whose tile is small enough (static shapes, or a
// relayout tile masked where it overhangs its buffer), folds slices into the
// transfers, gives masked reads an unmasked path for tiles inside their
// buffer and turns accumulators of reduction loops into loop-carried
// vectors. Ops left alone run as scalar loops later.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "Codegen/CPU/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_VECTORIZEPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// Vector sizes for a pack whose tile overhangs the end of its source: its
/// static destination, read through a mask where the source ends. Empty
/// when shapes are static. (A masked write would need its destination in
/// place, which an unpack into a temporary is not.)
SmallVector<int64_t> getMaskedVectorSizes(Operation *op) {
  if (auto packOp = dyn_cast<linalg::PackOp>(op)) {
    if (packOp.getSourceType().hasStaticShape() ||
        !packOp.getDestType().hasStaticShape())
      return {};
    return SmallVector<int64_t>(packOp.getDestType().getShape());
  }
  return {};
}

bool hasUniformElementType(linalg::LinalgOp op) {
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  return llvm::all_of(op->getOperandTypes(), [&](Type type) {
    return getElementTypeOrSelf(type) == elementType;
  });
}

/// Gives a read through a bounds mask (vector.create_mask) an unmasked
/// path, taken when every bound covers its dim: x86 masked loads
/// (vmaskmovps) run at less than half the speed of plain ones, and of a
/// padded pack's tiles only the last needs its mask.
void versionMaskedRead(RewriterBase &rewriter, vector::MaskOp maskOp) {
  auto read = dyn_cast_or_null<vector::TransferReadOp>(maskOp.getMaskableOp());
  auto createMask = maskOp.getMask().getDefiningOp<vector::CreateMaskOp>();
  if (!read || !createMask || maskOp.hasPassthru() ||
      maskOp->getNumResults() != 1)
    return;
  Location loc = maskOp.getLoc();
  rewriter.setInsertionPoint(maskOp);
  Value inside;
  for (auto [bound, size] : llvm::zip(createMask.getOperands(),
                                      createMask.getVectorType().getShape())) {
    std::optional<int64_t> constant = getConstantIntValue(bound);
    if (constant && *constant >= size)
      continue;
    Value covers = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, bound,
        arith::ConstantIndexOp::create(rewriter, loc, size));
    inside =
        inside ? arith::AndIOp::create(rewriter, loc, inside, covers) : covers;
  }
  if (!inside)
    return;
  auto ifOp = scf::IfOp::create(rewriter, loc, maskOp->getResultTypes(), inside,
                                /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  Operation *unmasked = rewriter.clone(*read);
  scf::YieldOp::create(rewriter, loc, unmasked->getResults());
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  Operation *masked = rewriter.clone(*maskOp);
  scf::YieldOp::create(rewriter, loc, masked->getResults());
  rewriter.replaceOp(maskOp, ifOp.getResults());
}

/// A read of a tile of a pack read in place (kReadInPlaceAttrName) reads the
/// pack's source instead: for a dim the pack tiles, outer index o and inner
/// index i are element o * tile + i of the source; vector dims over the
/// pack's outer dims (unit: the window lies in one tile) broadcast. Of an
/// mmt4d's LHS tile this leaves one element of each of M0 rows per step of
/// K, which LLVM broadcasts straight from memory. Where the pack may pad
/// (its source's size is not a multiple of the tile, or, for a workgroup's
/// slice of the source, known only at run time), an index past the
/// source's end reads its last element instead (the padded rows only make
/// rows of the result that its unpack drops), so each element along such a
/// dim is read on its own, at a clamped index that depends on the tile
/// alone (LLVM computes it outside the loop over K).
struct ReadPackedTileFromSource : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto packOp = read.getBase().getDefiningOp<linalg::PackOp>();
    if (!packOp || !packOp->hasAttr(kReadInPlaceAttrName))
      return rewriter.notifyMatchFailure(read, "not a pack read in place");
    if (read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
        llvm::is_contained(read.getInBoundsValues(), false))
      return rewriter.notifyMatchFailure(read, "not an in-bounds tile read");
    int64_t outerRank = packOp.getSourceRank();
    int64_t packedRank = packOp.getDestRank();
    VectorType vectorType = read.getVectorType();
    ArrayRef<int64_t> shape = vectorType.getShape();
    int64_t firstVectorDim = packedRank - static_cast<int64_t>(shape.size());
    for (int64_t dim = firstVectorDim; dim < outerRank; ++dim)
      if (shape[dim - firstVectorDim] != 1)
        return rewriter.notifyMatchFailure(read, "the read spans tiles");
    Location loc = read.getLoc();
    MLIRContext *context = rewriter.getContext();
    ArrayRef<int64_t> perm = packOp.getOuterDimsPerm();
    ArrayRef<int64_t> innerDims = packOp.getInnerDimsPos();
    ArrayRef<int64_t> tiles = packOp.getStaticInnerTiles();
    Value source = packOp.getSource();
    ArrayRef<int64_t> sourceShape = packOp.getSourceType().getShape();
    SmallVector<Value> indices(read.getIndices());
    SmallVector<OpFoldResult> outerIndices(outerRank);
    for (int64_t outer = 0; outer < outerRank; ++outer)
      outerIndices[perm.empty() ? outer : perm[outer]] = indices[outer];
    // Each read takes one element along the padded dims, all of the others.
    SmallVector<bool> padded;
    SmallVector<int64_t> partShape(shape);
    for (auto [position, dim] : llvm::enumerate(innerDims)) {
      padded.push_back(ShapedType::isDynamic(sourceShape[dim]) ||
                       sourceShape[dim] % tiles[position] != 0);
      int64_t vectorDim = outerRank + position - firstVectorDim;
      if (padded.back() && vectorDim >= 0)
        partShape[vectorDim] = 1;
    }
    SmallVector<AffineExpr> results;
    for (int64_t dim = firstVectorDim; dim < packedRank; ++dim)
      results.push_back(
          dim < outerRank
              ? getAffineConstantExpr(0, context)
              : getAffineDimExpr(innerDims[dim - outerRank], context));
    AffineMap map = AffineMap::get(outerRank, 0, results, context);
    SmallVector<bool> inBounds(shape.size(), true);
    auto partType = VectorType::get(partShape, vectorType.getElementType());
    AffineExpr tileIndex, inTile;
    bindDims(context, tileIndex, inTile);
    Value result;
    for (SmallVector<int64_t> offsets :
         StaticTileOffsetRange(shape, partShape)) {
      SmallVector<OpFoldResult> sourceIndices(outerIndices);
      for (auto [position, dim] : llvm::enumerate(innerDims)) {
        int64_t vectorDim = outerRank + position - firstVectorDim;
        AffineExpr index = tileIndex * tiles[position] + inTile +
                           (vectorDim >= 0 ? offsets[vectorDim] : 0);
        SmallVector<OpFoldResult> operands = {outerIndices[dim],
                                              indices[outerRank + position]};
        if (!padded[position]) {
          sourceIndices[dim] = affine::makeComposedFoldedAffineApply(
              rewriter, loc, index, operands);
          continue;
        }
        operands.push_back(tensor::getMixedSize(rewriter, loc, source, dim));
        AffineExpr size = getAffineDimExpr(2, context);
        sourceIndices[dim] = affine::makeComposedFoldedAffineMin(
            rewriter, loc, AffineMap::get(3, 0, {index, size - 1}, context),
            operands);
      }
      Value part = vector::TransferReadOp::create(
          rewriter, loc, partType, source,
          getValueOrCreateConstantIndexOp(rewriter, loc, sourceIndices),
          AffineMapAttr::get(map), read.getPadding(), /*mask=*/Value(),
          rewriter.getBoolArrayAttr(inBounds));
      if (partShape == shape) {
        result = part;
        break;
      }
      if (!result)
        result = vector::BroadcastOp::create(rewriter, loc, vectorType,
                                             read.getPadding());
      result = vector::InsertStridedSliceOp::create(
          rewriter, loc, part, result, offsets,
          SmallVector<int64_t>(shape.size(), 1));
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};

/// A generic reading through a window (`oh + kh`, a convolution's patches)
/// whose tile gives those loops one iteration reads at index 0 of them: the
/// window's sums become 0, which leaves projected permutations the
/// vectorizer takes (ResNeXt's patches, moved as scalars before). A strided
/// window (`ow * 2`) then reads its tile through a slice of that stride, so
/// that it too is read by the loop itself (a strided direct convolution
/// over groups of channels ran as scalars).
struct FoldUnitLoopsInWindowReads : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    MLIRContext *context = op.getContext();
    SmallVector<AffineExpr> unitLoopsAsZero;
    for (auto [loop, range] : llvm::enumerate(ranges))
      unitLoopsAsZero.push_back(range == 1 ? getAffineConstantExpr(0, context)
                                           : getAffineDimExpr(loop, context));
    bool changed = false;
    SmallVector<AffineMap> maps;
    // Per input, the stride of each of its dims read as `loop * stride`.
    SmallVector<SmallVector<int64_t>> strides;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      SmallVector<AffineExpr> results;
      SmallVector<int64_t> operandStrides(map.getNumResults(), 1);
      for (auto [dim, mapResult] : llvm::enumerate(map.getResults())) {
        AffineExpr result = mapResult;
        if (!isa<AffineDimExpr, AffineConstantExpr>(result)) {
          AffineExpr folded = result.replaceDims(unitLoopsAsZero);
          changed |= folded != result;
          result = folded;
        }
        auto product = dyn_cast<AffineBinaryOpExpr>(result);
        auto stride = product ? dyn_cast<AffineConstantExpr>(product.getRHS())
                              : AffineConstantExpr();
        if (product && product.getKind() == AffineExprKind::Mul &&
            isa<AffineDimExpr>(product.getLHS()) && stride &&
            stride.getValue() > 1 && op.isDpsInput(&operand) &&
            isa<RankedTensorType>(operand.get().getType())) {
          operandStrides[dim] = stride.getValue();
          result = product.getLHS();
        }
        results.push_back(result);
      }
      maps.push_back(AffineMap::get(map.getNumDims(), 0, results, context));
      strides.push_back(std::move(operandStrides));
    }
    if (!changed || llvm::any_of(maps, [](AffineMap map) {
          return !map.isProjectedPermutation(/*allowZeroInResults=*/true);
        }))
      return rewriter.notifyMatchFailure(op, "no window over unit loops");
    // Strided reads take every stride-th element of their tile, which must
    // hold as many as the loop reads.
    SmallVector<std::pair<unsigned, Value>> slices;
    for (OpOperand &operand : op->getOpOperands()) {
      ArrayRef<int64_t> operandStrides = strides[operand.getOperandNumber()];
      if (llvm::all_of(operandStrides, [](int64_t s) { return s == 1; }))
        continue;
      auto type = cast<RankedTensorType>(operand.get().getType());
      AffineMap map = maps[operand.getOperandNumber()];
      SmallVector<OpFoldResult> offsets(type.getRank(),
                                        rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, sliceStrides;
      for (auto [dim, result] : llvm::enumerate(map.getResults())) {
        int64_t size = type.getDimSize(dim);
        if (operandStrides[dim] > 1) {
          int64_t steps = ranges[cast<AffineDimExpr>(result).getPosition()];
          if (ShapedType::isDynamic(size) || ShapedType::isDynamic(steps) ||
              (steps - 1) * operandStrides[dim] + 1 > size)
            return rewriter.notifyMatchFailure(op, "strided tile too small");
          size = steps;
        } else if (ShapedType::isDynamic(size)) {
          return rewriter.notifyMatchFailure(op, "dynamic strided tile");
        }
        sizes.push_back(rewriter.getIndexAttr(size));
        sliceStrides.push_back(rewriter.getIndexAttr(operandStrides[dim]));
      }
      rewriter.setInsertionPoint(op);
      slices.emplace_back(operand.getOperandNumber(),
                          tensor::ExtractSliceOp::create(rewriter, op.getLoc(),
                                                         operand.get(), offsets,
                                                         sizes, sliceStrides));
    }
    rewriter.modifyOpInPlace(op, [&] {
      for (auto [number, slice] : slices)
        op->setOperand(number, slice);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// Lowers the packs and unpacks of `ops` to linalg ops, which bufferize and
/// run as loops.
LogicalResult lowerRelayouts(RewriterBase &rewriter,
                             ArrayRef<Operation *> ops) {
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    if (auto packOp = dyn_cast<linalg::PackOp>(op)) {
      // Tiles of sizes known only at run time, one per tiled pack: copied
      // as one padded, transposed slice.
      if (llvm::any_of(packOp.getStaticInnerTiles(), ShapedType::isDynamic)) {
        PatternRewriter patternRewriter(op->getContext());
        patternRewriter.setInsertionPoint(op);
        if (succeeded(linalg::DecomposeOuterUnitDimsPackOpPattern(
                          op->getContext())
                          .matchAndRewrite(packOp, patternRewriter)))
          continue;
      }
      if (failed(linalg::lowerPack(rewriter, packOp)))
        return packOp.emitError("cannot lower pack");
    } else if (failed(
                   linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)))) {
      return op->emitError("cannot lower unpack");
    }
  }
  return success();
}

struct VectorizePass : impl::VectorizePassBase<VectorizePass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);

    // 1. Unit-tiled 2-D convolutions and poolings become 1-D ones, and
    //    windows over unit loops reads at 0, which the vectorizer handles.
    {
      RewritePatternSet patterns(context);
      linalg::populateDecomposeConvolutionPatterns(patterns);
      patterns.add<FoldUnitLoopsInWindowReads>(context);
      scf::populateSCFForLoopCanonicalizationPatterns(patterns);
      tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }

    // 2. Vectorize every linalg op small enough; the rest becomes loops
    //    later.
    SmallVector<Operation *> candidates;
    funcOp.walk([&](Operation *op) {
      if (!isa<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp>(op) ||
          op->hasAttr(kReadInPlaceAttrName))
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
      bool isContraction = linalgOp &&
                           linalg::isaContractionOpInterface(linalgOp) &&
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

    // Relayouts left over (at the dynamic end of a loop) become linalg ops,
    // which bufferize and run as loops; packs read in place wait for their
    // reads to fold (3.).
    SmallVector<Operation *> relayouts;
    funcOp.walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op) &&
          !op->hasAttr(kReadInPlaceAttrName))
        relayouts.push_back(op);
    });
    if (failed(lowerRelayouts(rewriter, relayouts)))
      return signalPassFailure();

    // 3. Fold slices into transfers, reads of packed tiles into reads of
    //    their source, and clean up.
    RewritePatternSet patterns(context);
    patterns.add<ReadPackedTileFromSource>(context);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
      return signalPassFailure();

    // A pack read in place whose reads did not all fold is computed after
    // all, as loops.
    SmallVector<Operation *> unfolded;
    funcOp.walk([&](linalg::PackOp op) {
      if (op->hasAttr(kReadInPlaceAttrName))
        unfolded.push_back(op);
    });
    if (failed(lowerRelayouts(rewriter, unfolded)))
      return signalPassFailure();

    // 4. Masked reads get their unmasked path.
    SmallVector<vector::MaskOp> maskOps;
    funcOp.walk([&](vector::MaskOp maskOp) { maskOps.push_back(maskOp); });
    for (vector::MaskOp maskOp : maskOps)
      versionMaskedRead(rewriter, maskOp);

    // 5. Accumulators read and written back at the same place on every
    //    iteration of a reduction loop become loop-carried vectors, so they
    //    stay in registers (innermost loops first: walks are post-order).
    SmallVector<scf::ForOp> loops;
    funcOp.walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
    for (scf::ForOp forOp : loops)
      (void)hoistLoopInvariantSubsets(rewriter, forOp);
  }
};

} // namespace
} // namespace mlir::kiln
