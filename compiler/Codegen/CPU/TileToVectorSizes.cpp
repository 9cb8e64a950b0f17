//===- TileToVectorSizes.cpp - register-sized tiles, remainders peeled ----===//
//
// Tiles each configured op to its vector tile (the stored op fusing its
// producers, and a packed contraction's register blocks, then reduction
// loops, then anything still too large for registers) and peels every loop
// whose tile does not divide it, so that the full tiles have static shapes for
// the vectorizer, and the remainder too when the loop's range is static. A
// packed contraction's accumulator tile wider than its register block is
// computed and unpacked a block of columns at a time, each with its epilogue;
// a remainder keeping fewer columns computes only the registers that hold
// them.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "Codegen/CPU/Utils.h"
#include "Target/CPU/CPUTarget.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_TILETOVECTORSIZESPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// Marks the loops tiling creates, until their remainders are peeled.
constexpr StringLiteral kPeelAttrName = "__kiln_peel";

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
  // A pack's loops follow its destination; iterated in its source's order
  // instead, the innermost loop walks along source rows (a transposed RHS
  // would otherwise be read one cache line per row, a page apart).
  if (auto packOp = dyn_cast<linalg::PackOp>(op))
    if (!packOp.getOuterDimsPerm().empty())
      tilingOptions.setInterchange(
          invertPermutationVector(packOp.getOuterDimsPerm()));
  rewriter.setInsertionPoint(op);
  auto tilingInterface = cast<TilingInterface>(op);
  if (fuseProducers) {
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tilingOptions);
    // A producer with an empty loop (a matmul over K = 0) has no tiles to
    // compute; fusing it would divide its loops by sizes of zero. It stays
    // outside the loop nest and runs zero times.
    options.setFusionControlFn(
        [](tensor::ExtractSliceOp, OpResult producer,
           bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          auto producerOp = dyn_cast<linalg::LinalgOp>(producer.getOwner());
          if (producerOp && getIterationSpaceSize(producerOp) == 0)
            return std::nullopt;
          // A pack in a contraction's dispatch packs the workgroup's RHS
          // panels once; fused into each accumulator tile it would pack
          // them again for every row tile.
          if (isa<linalg::PackOp>(producer.getOwner()))
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

/// The K1 steps of a packed contraction's tile whose RHS panel takes half of
/// `target`'s L1 (the rest for the LHS and what else the loop reads); 0 where
/// a step's size is not static.
int64_t getL1PanelSteps(linalg::LinalgOp contraction,
                        const CPUTargetInfo &target) {
  // (b,) m1, n1, k1, m0, n0, k0.
  SmallVector<int64_t> ranges = contraction.getStaticLoopRanges();
  int64_t n0 = ranges.end()[-2], k0 = ranges.back();
  Type elementType = getElementTypeOrSelf(contraction->getResult(0).getType());
  if (ShapedType::isDynamic(n0) || ShapedType::isDynamic(k0) ||
      !elementType.isIntOrFloat())
    return 0;
  int64_t stepBytes = n0 * k0 * elementType.getIntOrFloatBitWidth() / 8;
  return std::max<int64_t>(1, target.l1DataBytes / 2 / stepBytes);
}

/// The fill and packed contraction computing the accumulator tile that an
/// unpack unpacks, where they can be recomputed in column chunks: the
/// contraction's outer dims are one static tile, its accumulator a fill
/// only it reads, and its register block takes all of the tile's rows.
struct UnpackedContraction {
  linalg::LinalgOp contraction;
  linalg::FillOp fill;
  LoweringConfigAttr config;
};

std::optional<UnpackedContraction>
matchUnpackedContraction(linalg::UnPackOp unpackOp) {
  auto contraction = unpackOp.getSource().getDefiningOp<linalg::LinalgOp>();
  if (!contraction ||
      !isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(contraction.getOperation()) ||
      !contraction->hasOneUse() || !unpackOp.getOuterDimsPerm().empty())
    return std::nullopt;
  auto fillOp = contraction.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  LoweringConfigAttr config = getLoweringConfig(contraction);
  int64_t loops = contraction.getNumLoops();
  if (!fillOp || !fillOp->hasOneUse() || !config ||
      static_cast<int64_t>(config.getVector().size()) != loops)
    return std::nullopt;
  RankedTensorType accType = unpackOp.getSourceType();
  ArrayRef<int64_t> accShape = accType.getShape();
  if (!accType.hasStaticShape() ||
      !llvm::all_of(accShape.drop_back(2), [](int64_t d) { return d == 1; }) ||
      config.getVector()[loops - 3] < accShape[accShape.size() - 2])
    return std::nullopt;
  return UnpackedContraction{contraction, fillOp, config};
}

/// The vector lanes of `target` for the elements of an unpack's tile.
std::optional<int64_t> getUnpackLanes(linalg::UnPackOp unpackOp,
                                      const CPUTargetInfo &target) {
  Type elementType = unpackOp.getSourceType().getElementType();
  if (!elementType.isIntOrFloat())
    return std::nullopt;
  return target.getLanes(elementType.getIntOrFloatBitWidth());
}

/// Whether an accumulator tile of `n0` columns in register blocks of
/// `blockColumns` splits into chunks of whole blocks, each a power of two of
/// vectors of `lanes`.
bool splitsIntoColumnBlocks(int64_t n0, int64_t blockColumns, int64_t lanes) {
  return blockColumns < n0 && n0 % blockColumns == 0 && n0 % lanes == 0 &&
         blockColumns % lanes == 0 && llvm::isPowerOf2_64(blockColumns / lanes);
}

/// Whether `contraction`'s register block splits only its tile's columns,
/// L1 holds its RHS panel over all of K, and its unpack computes the tile in
/// chunks of the block's columns (unpackInColumnChunks) instead of the
/// blocks' own loop. With a longer K, the blocks' accumulators going through
/// memory every few hundred steps cost less than reading the panel's cache
/// lines from L2 again for each block.
bool isUnpackedInColumnChunks(linalg::LinalgOp contraction,
                              const CPUTargetInfo &target) {
  if (!contraction->hasOneUse())
    return false;
  auto unpackOp = dyn_cast<linalg::UnPackOp>(*contraction->user_begin());
  if (!unpackOp || !matchUnpackedContraction(unpackOp))
    return false;
  std::optional<int64_t> lanes = getUnpackLanes(unpackOp, target);
  int64_t kSteps = contraction.getStaticLoopRanges().end()[-4];
  return lanes && !ShapedType::isDynamic(kSteps) &&
         kSteps <= getL1PanelSteps(contraction, target) &&
         splitsIntoColumnBlocks(
             unpackOp.getSourceType().getShape().back(),
             getLoweringConfig(contraction).getVector().end()[-2], *lanes);
}

/// An accumulator tile computed in column chunks, each the fill, contraction
/// over K and unpack of its columns, where its registers do not hold it (a
/// tile laid out for another CPU: AVX2 code's 6 x 16 blocks of a 6 x 32
/// tile), or where the unpack keeps fewer of its columns than it holds (the
/// peeled last column tile: matmul 1000's 40 of a 64-column panel).
///
/// A tile the registers do not hold is computed in chunks of the register
/// block, and the unpack's one elementwise consumer (the epilogue) joins
/// each chunk, so that the block's accumulators go from registers through
/// the epilogue to the result instead of through memory between the blocks.
///
/// The kept columns, rounded up to whole vector registers, are computed in
/// chunks of halving widths, from the block's own down to one register: the
/// chunks' widths are the binary digits of the rounded width, so each size
/// runs at most once (but the block's, which repeats): 40 columns of 64 as
/// 32 + 16, 12 of 16 as the whole tile.
LogicalResult unpackInColumnChunks(RewriterBase &rewriter,
                                   linalg::UnPackOp unpackOp, int64_t lanes) {
  std::optional<UnpackedContraction> match = matchUnpackedContraction(unpackOp);
  if (!match)
    return failure();
  auto [contraction, fillOp, config] = *match;
  RankedTensorType accType = unpackOp.getSourceType();
  int64_t rank = accType.getRank();
  int64_t n0 = accType.getShape().back();
  int64_t blockColumns = config.getVector().end()[-2];
  bool splitsBlocks = splitsIntoColumnBlocks(n0, blockColumns, lanes);
  int64_t widest = splitsBlocks ? blockColumns : n0;
  if (n0 % lanes || !llvm::isPowerOf2_64(widest / lanes))
    return failure();
  int64_t columnDim = unpackOp.getInnerDimsPos().back();
  Location loc = unpackOp.getLoc();
  rewriter.setInsertionPoint(unpackOp);
  Value dest = unpackOp.getDest();
  OpFoldResult columns = tensor::getMixedSize(rewriter, loc, dest, columnDim);
  // A full tile peeled off a loop keeps a column count that its bounds fix.
  std::optional<int64_t> staticColumns;
  if (FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::EQ, columns);
      succeeded(bound))
    staticColumns = *bound;
  if (!splitsBlocks &&
      (n0 <= lanes || (staticColumns && *staticColumns > n0 - lanes)))
    return failure();

  MLIRContext *context = rewriter.getContext();
  AffineExpr w, c;
  bindSymbols(context, w, c);
  OpFoldResult rounded = affine::makeComposedFoldedAffineApply(
      rewriter, loc, w.ceilDiv(lanes) * lanes, {columns});
  // The RHS's and accumulator's column dim: N0, the last but one and last.
  Value lhs = contraction.getDpsInputs()[0];
  Value rhs = contraction.getDpsInputs()[1];
  int64_t rhsColumnDim = cast<RankedTensorType>(rhs.getType()).getRank() - 2;
  Value result = dest;
  SmallVector<scf::ForOp> chunkLoops;
  for (int64_t size = widest; size >= lanes; size /= 2) {
    // The block's chunks from the first column; each narrower size once,
    // where the rounded width has its binary digit.
    OpFoldResult lower =
        size == widest
            ? rewriter.getIndexAttr(0)
            : affine::makeComposedFoldedAffineApply(
                  rewriter, loc, w.floorDiv(2 * size) * (2 * size), {rounded});
    OpFoldResult upper = affine::makeComposedFoldedAffineApply(
        rewriter, loc, w.floorDiv(size) * size, {rounded});
    std::optional<int64_t> staticLower = getConstantIntValue(lower);
    std::optional<int64_t> staticUpper = getConstantIntValue(upper);
    if (staticLower && staticUpper && *staticLower >= *staticUpper)
      continue;
    auto chunkLoop = scf::ForOp::create(
        rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, lower),
        getValueOrCreateConstantIndexOp(rewriter, loc, upper),
        arith::ConstantIndexOp::create(rewriter, loc, size),
        ValueRange{result});
    chunkLoops.push_back(chunkLoop);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(chunkLoop.getBody());
    Value offset = chunkLoop.getInductionVar();
    Value out = chunkLoop.getRegionIterArgs()[0];

    auto sliceAlong = [&](Value source, int64_t dim, OpFoldResult dimSize) {
      SmallVector<OpFoldResult> offsets(
          cast<RankedTensorType>(source.getType()).getRank(),
          rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, source);
      SmallVector<OpFoldResult> strides(offsets.size(),
                                        rewriter.getIndexAttr(1));
      offsets[dim] = offset;
      sizes[dim] = dimSize;
      return std::make_tuple(offsets, sizes, strides);
    };
    auto extract = [&](Value source, int64_t dim, OpFoldResult dimSize) {
      auto [offsets, sizes, strides] = sliceAlong(source, dim, dimSize);
      return tensor::ExtractSliceOp::create(rewriter, loc, source, offsets,
                                            sizes, strides)
          .getResult();
    };
    OpFoldResult chunk = rewriter.getIndexAttr(size);
    Value rhsChunk = extract(rhs, rhsColumnDim, chunk);
    Value accChunk = extract(fillOp.getOutputs()[0], rank - 1, chunk);
    Value filled =
        linalg::FillOp::create(rewriter, loc, fillOp.getInputs(), accChunk)
            .getResult(0);
    Operation *chunkContraction = clone(
        rewriter, contraction, {filled.getType()}, {lhs, rhsChunk, filled});
    SmallVector<int64_t> vector(config.getVector());
    vector[vector.size() - 2] = size;
    chunkContraction->setAttr(
        "lowering_config",
        LoweringConfigAttr::get(context, config.getWorkgroup(), vector));
    // The columns of the chunk the unpack keeps: all of them where the
    // unpack keeps every column the loop covers.
    OpFoldResult kept = chunk;
    if (!staticColumns || !staticUpper || *staticColumns < *staticUpper) {
      kept = affine::makeComposedFoldedAffineApply(rewriter, loc, (w - c),
                                                   {columns, offset});
      kept = affine::makeComposedFoldedAffineMin(
          rewriter, loc,
          AffineMap::get(0, 1,
                         {rewriter.getAffineConstantExpr(size),
                          rewriter.getAffineSymbolExpr(0)},
                         context),
          {kept});
    }
    auto [offsets, sizes, strides] = sliceAlong(out, columnDim, kept);
    Value outChunk = tensor::ExtractSliceOp::create(rewriter, loc, out, offsets,
                                                    sizes, strides);
    SmallVector<OpFoldResult> innerTiles = unpackOp.getMixedTiles();
    innerTiles.back() = chunk;
    auto chunkUnpack = linalg::UnPackOp::create(
        rewriter, loc, chunkContraction->getResult(0), outChunk,
        unpackOp.getInnerDimsPos(), innerTiles);
    if (LoweringConfigAttr unpackConfig = getLoweringConfig(unpackOp)) {
      SmallVector<int64_t> unpackVector(unpackConfig.getVector());
      if (!unpackVector.empty())
        unpackVector[columnDim] = size;
      chunkUnpack->setAttr("lowering_config",
                           LoweringConfigAttr::get(context,
                                                   unpackConfig.getWorkgroup(),
                                                   unpackVector));
    }
    Value inserted = tensor::InsertSliceOp::create(
        rewriter, loc, chunkUnpack.getResult(), out, offsets, sizes, strides);
    scf::YieldOp::create(rewriter, loc, inserted);
    result = chunkLoop.getResult(0);
  }
  rewriter.replaceOp(unpackOp, result);
  rewriter.eraseOp(contraction);
  rewriter.eraseOp(fillOp);
  if (!splitsBlocks || chunkLoops.size() != 1 || !result.hasOneUse())
    return success();

  // The epilogue joins the chunks, where it is elementwise.
  auto consumer = dyn_cast<linalg::LinalgOp>(*result.user_begin());
  if (!consumer || consumer.getNumLoops() != consumer.getNumParallelLoops() ||
      !llvm::all_of(consumer.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return success();
  SmallVector<LoopLikeOpInterface> loops = {chunkLoops.front()};
  FailureOr<scf::SCFFuseConsumerOfSliceResult> fused =
      scf::tileAndFuseConsumer(rewriter, consumer, loops);
  if (failed(fused) || fused->tiledOps.empty())
    return success();
  if (consumer->use_empty())
    rewriter.eraseOp(consumer);
  // The epilogue's vector tile is now the chunk.
  auto tiledConsumer = dyn_cast<linalg::LinalgOp>(fused->tiledOps.front());
  if (LoweringConfigAttr consumerConfig =
          tiledConsumer ? getLoweringConfig(tiledConsumer) : nullptr) {
    SmallVector<int64_t> ranges = tiledConsumer.getStaticLoopRanges();
    if (!ShapedType::isDynamicShape(ranges))
      tiledConsumer->setAttr(
          "lowering_config",
          LoweringConfigAttr::get(context, consumerConfig.getWorkgroup(),
                                  ranges));
  }
  // The loop no longer needs the unpacked tile: each chunk unpacks into a
  // tile of its own, which its epilogue reads.
  auto fusedLoop = fused->tiledOps.front()->getParentOfType<scf::ForOp>();
  if (!fusedLoop || !fusedLoop.getResult(0).use_empty())
    return success();
  auto yieldOp = cast<scf::YieldOp>(fusedLoop.getBody()->getTerminator());
  auto insertOp = yieldOp.getOperand(0).getDefiningOp<tensor::InsertSliceOp>();
  auto chunkUnpack =
      insertOp ? insertOp.getSource().getDefiningOp<linalg::UnPackOp>()
               : linalg::UnPackOp();
  if (!chunkUnpack)
    return success();
  rewriter.setInsertionPoint(chunkUnpack);
  Value ownTile = tensor::EmptyOp::create(
      rewriter, loc,
      tensor::getMixedSizes(rewriter, loc, chunkUnpack.getDest()),
      chunkUnpack.getDestType().getElementType());
  rewriter.modifyOpInPlace(
      chunkUnpack, [&] { chunkUnpack.getDestMutable().assign(ownTile); });
  rewriter.modifyOpInPlace(yieldOp, [&] {
    yieldOp->setOperand(0, fusedLoop.getRegionIterArgs()[0]);
  });
  rewriter.eraseOp(insertOp);
  return success();
}

/// Elements of a row of a reduction chain computed at once: two AVX2
/// registers, one AVX-512 register.
constexpr int64_t kRowChunkElements = 16;

/// Rows up to this many elements stay whole vectors: a softmax row of 128
/// keeps its values in registers between its ops, which measured 5-10%
/// faster (znver1 code) than chunks passing through memory, each with its
/// own horizontal reduction. Longer rows (a layernorm over 256) spill
/// whole: chunked, the transformer's layernorms went from 36-65 to 28-43 us
/// in znver1 code and stayed at 27-37 us in x86-64-v3 code (AMD EPYC Zen 1,
/// AVX2, 1 thread).
constexpr int64_t kMaxWholeRowElements = 128;

/// Whether `storedOp` is tiled by whole rows of a reduction chain (softmax,
/// layernorm): its vector tile keeps a parallel loop longer than one
/// element whole, as the strategy does only for loops a reduction it reads
/// is broadcast along.
bool isTiledByWholeRows(Operation *storedOp) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(storedOp);
  if (!linalgOp)
    return false;
  ArrayRef<int64_t> vector = getLoweringConfig(storedOp).getVector();
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  for (auto [i, tile] : llvm::enumerate(vector))
    if (tile == 0 && i < ranges.size() &&
        iterators[i] == utils::IteratorType::parallel && ranges[i] > 1)
      return true;
  return false;
}

/// Each op of a row longer than kMaxWholeRowElements, on its own, in chunks
/// along its innermost loop: the row's intermediate values go through memory
/// (a row is a few KiB, in L1) instead of spilling from registers.
LogicalResult tileRowsInChunks(RewriterBase &rewriter, func::FuncOp funcOp) {
  SmallVector<linalg::LinalgOp> ops;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op.getNumLoops() > 0 &&
        !isa<linalg::FillOp>(op.getOperation()))
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t inner = ranges.back();
    if (ShapedType::isDynamic(inner) || inner <= kMaxWholeRowElements)
      continue;
    SmallVector<int64_t> sizes(ranges.size(), 0);
    sizes.back() = kRowChunkElements;
    if (failed(tileWithFor(rewriter, op, sizes, /*fuseProducers=*/false)))
      return op.emitError("cannot tile a row in chunks");
  }
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

/// A packed contraction's register blocks, where its tile (laid out for
/// another CPU) is larger than its registers hold: each block's own loop,
/// outside the reduction, so that its accumulators stay in registers over
/// all of K. A tile its unpack computes in column chunks of `target`'s
/// vectors is left to it.
LogicalResult tileRegisterBlocks(RewriterBase &rewriter, func::FuncOp funcOp,
                                 const CPUTargetInfo *target) {
  SmallVector<linalg::LinalgOp> blocked;
  funcOp.walk([&](linalg::LinalgOp op) {
    if (isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op) &&
        getLoweringConfig(op) && op.hasPureTensorSemantics() &&
        !(target && isUnpackedInColumnChunks(op, *target)))
      blocked.push_back(op);
  });
  for (linalg::LinalgOp op : blocked) {
    SmallVector<int64_t> sizes = filterLoops(
        op, getLoweringConfig(op).getVector(), utils::IteratorType::parallel);
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    // Only the loops a block splits: the rest are already its size.
    for (auto [size, range] : llvm::zip(sizes, ranges))
      if (ShapedType::isDynamic(range) || size >= range)
        size = 0;
    if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
      continue;
    // Where L1 does not hold the tile's RHS panel over all of K, the blocks
    // take turns over K1 steps that it holds: each block reads the cache
    // lines the others share with it while they are in L1. ResNet50's
    // AVX2 variant beside AVX-512 code (6 x 32 tiles in 6 x 16 blocks, K of
    // 1024-4608), 1 thread: 92.0 -> 89.9 ms.
    int64_t kSteps = ranges[ranges.size() - 4];
    int64_t kBlock = target ? getL1PanelSteps(op, *target) : 0;
    if (kBlock > 0 && !ShapedType::isDynamic(kSteps) && kBlock < kSteps) {
      SmallVector<int64_t> kSizes(ranges.size(), 0);
      kSizes[ranges.size() - 4] = kBlock;
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), kSizes));
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> kTiled =
          scf::tileUsingSCF(rewriter, cast<TilingInterface>(*op), options);
      if (failed(kTiled))
        return op.emitError("cannot tile K to the steps L1 holds");
      rewriter.replaceOp(op, kTiled->replacements);
      markForPeeling(kTiled->loops);
      op = cast<linalg::LinalgOp>(kTiled->tiledOps.front());
    }
    if (failed(tileWithFor(rewriter, op, sizes, /*fuse=*/false)))
      return op.emitError("cannot tile to register blocks");
  }
  return success();
}

struct TileToVectorSizesPass
    : impl::TileToVectorSizesPassBase<TileToVectorSizesPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);

    std::optional<CPUTargetInfo> target;
    if (ExecutableExportOp exportOp = getExportOf(funcOp)) {
      auto variantOp = cast<ExecutableVariantOp>(exportOp->getParentOp());
      target = getCPUTargetInfo(variantOp.getCpu(), variantOp.getFeatures());
    }
    const CPUTargetInfo *targetInfo = target ? &*target : nullptr;

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
      bool wholeRows = isTiledByWholeRows(storedOp);
      if (failed(tileWithFor(rewriter, storedOp, sizes, /*fuse=*/true))) {
        storedOp->emitError("cannot tile to vector sizes");
        return signalPassFailure();
      }
      if (wholeRows && failed(tileRowsInChunks(rewriter, funcOp)))
        return signalPassFailure();
      // Before the remainders are peeled, while the fused tiles are whole.
      if (failed(tileRegisterBlocks(rewriter, funcOp, targetInfo)))
        return signalPassFailure();

      // Peeled now, so that the remainders' unpacks show the columns they
      // keep.
      peelMarkedLoops(rewriter, funcOp);
      if (target) {
        SmallVector<linalg::UnPackOp> unpacks;
        funcOp.walk([&](linalg::UnPackOp op) { unpacks.push_back(op); });
        for (linalg::UnPackOp op : unpacks)
          if (std::optional<int64_t> lanes = getUnpackLanes(op, *target))
            (void)unpackInColumnChunks(rewriter, op, *lanes);
      }
    } else if (failed(tileRegisterBlocks(rewriter, funcOp, nullptr))) {
      return signalPassFailure();
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

    // Packs beside the stored op (a contraction's RHS) take their own tiles.
    SmallVector<linalg::PackOp> packs;
    funcOp.walk([&](linalg::PackOp op) {
      if (op != storedOp && getLoweringConfig(op))
        packs.push_back(op);
    });
    for (linalg::PackOp op : packs) {
      if (failed(tileWithFor(rewriter, op, getLoweringConfig(op).getVector(),
                             /*fuse=*/false))) {
        op.emitError("cannot tile to vector sizes");
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
  }
};

} // namespace
} // namespace mlir::kiln
