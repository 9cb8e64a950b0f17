//===- TileAndDistributeToWorkgroups.cpp - one tile per workgroup ---------===//

#include "Codegen/CPU/Passes.h"

#include "Analysis/InsertChain.h"
#include "Codegen/CPU/Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_TILEANDDISTRIBUTETOWORKGROUPSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// The op carrying workgroup tiles (the one the kernel stores), if any.
TilingInterface findDistributedOp(func::FuncOp funcOp) {
  TilingInterface found;
  funcOp.walk([&](TilingInterface op) {
    LoweringConfigAttr config = getLoweringConfig(op);
    if (config && llvm::any_of(config.getWorkgroup(),
                               [](int64_t size) { return size != 0; }))
      found = op;
  });
  return found;
}

/// An accumulator read from an input binding (a matmul that adds into an
/// argument) would be copied whole into the output before the workgroup
/// loop, by every workgroup, over the others' results. Copied through an
/// empty tensor instead, the copy is fused and each workgroup copies its
/// own tile.
void copyInitsFromBindings(RewriterBase &rewriter, Operation *root) {
  auto dpsOp = dyn_cast<DestinationStyleOpInterface>(root);
  if (!dpsOp)
    return;
  for (OpOperand &init : dpsOp.getDpsInitsMutable()) {
    if (!init.get().getDefiningOp<bufferization::ToTensorOp>())
      continue;
    auto type = cast<RankedTensorType>(init.get().getType());
    rewriter.setInsertionPoint(root);
    Location loc = root->getLoc();
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init.get()),
        type.getElementType());
    Value copy =
        linalg::CopyOp::create(rewriter, loc, init.get(), empty).getResult(0);
    rewriter.modifyOpInPlace(root, [&] { init.set(copy); });
  }
}

/// `tile` with `value` in every element outside the box [boxOffsets,
/// boxOffsets + boxSizes), as one slab before and one after the box along
/// each dim (the earlier dims restricted to the box): a pad's border, where
/// filling the whole tile would write its interior twice.
Value fillOutsideBox(RewriterBase &rewriter, Location loc, Value value,
                     Value tile, ArrayRef<OpFoldResult> boxOffsets,
                     ArrayRef<OpFoldResult> boxSizes,
                     ArrayRef<OpFoldResult> tileSizes) {
  MLIRContext *context = rewriter.getContext();
  AffineExpr d0, d1;
  bindDims(context, d0, d1);
  int64_t rank = tileSizes.size();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(tileSizes);
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  AffineExpr d2 = getAffineDimExpr(2, context);
  for (int64_t dim = 0; dim < rank; ++dim) {
    // An empty box may start past the tile (a tile of low padding only).
    OpFoldResult boxBegin = affine::makeComposedFoldedAffineMin(
        rewriter, loc, AffineMap::get(2, 0, {d0, d1}, context),
        {boxOffsets[dim], tileSizes[dim]});
    OpFoldResult boxEnd = affine::makeComposedFoldedAffineMin(
        rewriter, loc, AffineMap::get(3, 0, {d0 + d1, d2}, context),
        {boxBegin, boxSizes[dim], tileSizes[dim]});
    OpFoldResult afterSize = affine::makeComposedFoldedAffineApply(
        rewriter, loc, d0 - d1, {tileSizes[dim], boxEnd});
    std::pair<OpFoldResult, OpFoldResult> slabs[] = {
        {rewriter.getIndexAttr(0), boxBegin}, {boxEnd, afterSize}};
    for (auto [slabOffset, slabSize] : slabs) {
      if (isZeroInteger(slabSize))
        continue;
      offsets[dim] = slabOffset;
      sizes[dim] = slabSize;
      Value slab = tensor::ExtractSliceOp::create(rewriter, loc, tile, offsets,
                                                  sizes, ones);
      slab = linalg::FillOp::create(rewriter, loc, value, slab).getResult(0);
      tile = tensor::InsertSliceOp::create(rewriter, loc, slab, tile, offsets,
                                           sizes, ones);
    }
    offsets[dim] = boxBegin;
    sizes[dim] = affine::makeComposedFoldedAffineApply(rewriter, loc, d0 - d1,
                                                       {boxEnd, boxBegin});
  }
  return tile;
}

/// The tile [offsets, offsets + sizes) of the tensor `chain` writes, in
/// `tile` (a tensor of the tile's sizes): the chain's base filled, or not,
/// and each insert's elements that land in the tile copied to their place.
/// A pad (one insert on a fill) fills only the tile's elements outside it.
Value sliceInsertChain(RewriterBase &rewriter, Location loc,
                       const InsertChain &chain, ArrayRef<OpFoldResult> offsets,
                       ArrayRef<OpFoldResult> sizes, Value tile) {
  MLIRContext *context = rewriter.getContext();
  AffineExpr d0, d1;
  bindDims(context, d0, d1);
  auto constant = [&](int64_t value) {
    return getAffineConstantExpr(value, context);
  };
  auto min = [&](AffineMap map, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineMin(rewriter, loc, map, operands);
  };
  auto max = [&](AffineMap map, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineMax(rewriter, loc, map, operands);
  };
  int64_t rank = offsets.size();
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  AffineExpr d2 = getAffineDimExpr(2, context);
  // Where each insert's source elements [lo, hi) land in the tile.
  struct Placement {
    Value source;
    SmallVector<OpFoldResult> sourceOffsets, counts, tileOffsets;
  };
  SmallVector<Placement> placements;
  for (tensor::InsertSliceOp insertOp : chain.inserts) {
    Placement &placement = placements.emplace_back();
    placement.source = insertOp.getSource();
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t offset = insertOp.getStaticOffsets()[dim];
      OpFoldResult size = insertOp.getMixedSizes()[dim];
      OpFoldResult lo =
          max(AffineMap::get(1, 0, {d0 - offset, constant(0)}, context),
              {offsets[dim]});
      OpFoldResult hi =
          min(AffineMap::get(3, 0, {d0 + d1 - offset, d2}, context),
              {offsets[dim], sizes[dim], size});
      placement.sourceOffsets.push_back(lo);
      placement.counts.push_back(
          max(AffineMap::get(2, 0, {d1 - d0, constant(0)}, context), {lo, hi}));
      placement.tileOffsets.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, d0 + offset - d1, {lo, offsets[dim]}));
    }
  }
  if (auto fillOp = chain.base.getDefiningOp<linalg::FillOp>()) {
    Value value = fillOp.getInputs()[0];
    if (placements.size() == 1)
      tile =
          fillOutsideBox(rewriter, loc, value, tile, placements[0].tileOffsets,
                         placements[0].counts, sizes);
    else
      tile = linalg::FillOp::create(rewriter, loc, value, tile).getResult(0);
  }
  for (const Placement &placement : placements) {
    Value source = tensor::ExtractSliceOp::create(
        rewriter, loc, placement.source, placement.sourceOffsets,
        placement.counts, ones);
    tile = tensor::InsertSliceOp::create(rewriter, loc, source, tile,
                                         placement.tileOffsets,
                                         placement.counts, ones);
  }
  return tile;
}

/// Distributes a pad or concat over workgroups along `dim` in rows of
/// `tile`: each workgroup fills its rows of the destination and copies into
/// them the rows of each source that land there (none, for a workgroup of
/// padding only).
LogicalResult distributeInsertChain(RewriterBase &rewriter,
                                    tensor::InsertSliceOp root, int64_t dim,
                                    int64_t tile) {
  std::optional<InsertChain> chain = matchInsertChain(root);
  if (!chain)
    return root.emitError("cannot distribute this insert_slice");
  Location loc = root.getLoc();
  RankedTensorType type = root.getType();
  int64_t rank = type.getRank();
  int64_t extent = type.getDimSize(dim);
  rewriter.setInsertionPoint(root);
  // The base's sizes: the root's would be read from what replaces it.
  SmallVector<OpFoldResult> shape =
      tensor::getMixedSizes(rewriter, loc, chain->base);
  Value empty =
      tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
  auto forallOp = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(extent)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(tile)}, ValueRange{empty},
      /*mapping=*/std::nullopt);
  rewriter.setInsertionPointToStart(forallOp.getBody());
  Value iv = forallOp.getInductionVar(0);
  MLIRContext *context = rewriter.getContext();
  AffineExpr d0 = getAffineDimExpr(0, context);
  // Rows [iv, iv + rows) of the destination.
  OpFoldResult rows = affine::makeComposedFoldedAffineMin(
      rewriter, loc,
      AffineMap::get(1, 0,
                     {d0 * -1 + extent, getAffineConstantExpr(tile, context)},
                     context),
      {iv});
  SmallVector<OpFoldResult> tileOffsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> tileSizes = shape;
  tileOffsets[dim] = iv;
  tileSizes[dim] = rows;
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  Value acc = tensor::ExtractSliceOp::create(rewriter, loc,
                                             forallOp.getRegionIterArgs()[0],
                                             tileOffsets, tileSizes, ones);
  acc = sliceInsertChain(rewriter, loc, *chain, tileOffsets, tileSizes, acc);
  rewriter.setInsertionPointToStart(forallOp.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, acc,
                                        forallOp.getRegionIterArgs()[0],
                                        tileOffsets, tileSizes, ones);
  rewriter.replaceOp(root, forallOp.getResults());
  return success();
}

/// A padded image a convolution reads (a pad's chain of inserts fused into
/// the convolution's dispatch): each workgroup builds the part its tile
/// reads, in a tensor of its own, instead of slicing the whole padded image.
void sliceInsertChainsPerTile(RewriterBase &rewriter, Operation *loop) {
  SmallVector<std::pair<tensor::ExtractSliceOp, InsertChain>> slices;
  loop->walk([&](tensor::ExtractSliceOp sliceOp) {
    auto insertOp = sliceOp.getSource().getDefiningOp<tensor::InsertSliceOp>();
    if (!insertOp || loop->isAncestor(insertOp) || !sliceOp.hasUnitStride() ||
        sliceOp.getSourceType().getRank() != sliceOp.getType().getRank())
      return;
    if (std::optional<InsertChain> chain = matchInsertChain(insertOp))
      slices.emplace_back(sliceOp, std::move(*chain));
  });
  for (auto &[sliceOp, chain] : slices) {
    Location loc = sliceOp.getLoc();
    rewriter.setInsertionPoint(sliceOp);
    SmallVector<OpFoldResult> sizes = sliceOp.getMixedSizes();
    Value tile = tensor::EmptyOp::create(rewriter, loc, sizes,
                                         sliceOp.getType().getElementType());
    tile = sliceInsertChain(rewriter, loc, chain, sliceOp.getMixedOffsets(),
                            sizes, tile);
    if (tile.getType() != sliceOp.getType())
      tile = tensor::CastOp::create(rewriter, loc, sliceOp.getType(), tile);
    rewriter.replaceOp(sliceOp, tile);
    // The whole padded image, read by no tile any more.
    for (tensor::InsertSliceOp insertOp : llvm::reverse(chain.inserts))
      if (insertOp->use_empty())
        rewriter.eraseOp(insertOp);
  }
}

/// Whether `sliceOp`, a slice from the origin of the result of `unpackOp`
/// (into an empty tensor), keeps all of it but padding: every dim is whole
/// or, if tiled, ends in its last tile. Upstream's
/// UnPackOp::canFoldSliceOp asks the same of static sizes only; here the
/// bounds of sizes known per workgroup are derived.
bool slicesOffPaddingOnly(linalg::UnPackOp unpackOp,
                          tensor::ExtractSliceOp sliceOp) {
  using presburger::BoundType;
  // Tiling leaves offsets as affine.apply ops of constants, folded later.
  auto isZero = [](OpFoldResult offset) {
    FailureOr<int64_t> value =
        ValueBoundsConstraintSet::computeConstantBound(BoundType::EQ, offset);
    return succeeded(value) && *value == 0;
  };
  if (!sliceOp.hasUnitStride() ||
      !llvm::all_of(sliceOp.getMixedOffsets(), isZero) ||
      sliceOp.getType().getRank() !=
          static_cast<int64_t>(unpackOp.getDestRank()))
    return false;
  SmallVector<int64_t> outerShape =
      linalg::getPackedOuterShapeWithoutTransposition(unpackOp);
  SmallVector<OpFoldResult> sizes = sliceOp.getMixedSizes();
  SmallVector<OpFoldResult> destSizes =
      unpackOp.getDest().getDefiningOp<tensor::EmptyOp>().getMixedSizes();
  ArrayRef<int64_t> innerDims = unpackOp.getInnerDimsPos();
  ArrayRef<int64_t> tiles = unpackOp.getStaticInnerTiles();
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    // A dim kept whole drops nothing, however many tiles cover it.
    if (isEqualConstantIntOrValue(size, destSizes[dim]))
      continue;
    auto position = llvm::find(innerDims, static_cast<int64_t>(dim));
    if (position == innerDims.end())
      return false;
    int64_t tile = tiles[position - innerDims.begin()];
    int64_t outer = outerShape[dim];
    if (ShapedType::isDynamic(tile) || ShapedType::isDynamic(outer))
      return false;
    FailureOr<int64_t> upper = ValueBoundsConstraintSet::computeConstantBound(
        BoundType::UB, size, /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(upper) || *upper > outer * tile)
      return false;
    // Within one tile (a workgroup's columns) any size keeps only what
    // precedes padding, which matters: a tile size from affine.min has no
    // derived lower bound.
    if (outer == 1)
      continue;
    FailureOr<int64_t> lower =
        ValueBoundsConstraintSet::computeConstantBound(BoundType::LB, size);
    if (failed(lower) || *lower <= (outer - 1) * tile)
      return false;
  }
  return true;
}

/// Tiling an unpack whose tiles overhang its result (1000 rows in 6-row
/// tiles) by a size known only per workgroup (the last workgroup's columns)
/// unpacks into a tensor of whole tiles and slices the result from it: a
/// temporary each workgroup fills and copies out. Unpacked into the slice's
/// sizes instead, the padding is dropped as it is written.
void unpackIntoSlices(RewriterBase &rewriter, Operation *loop) {
  SmallVector<tensor::ExtractSliceOp> slices;
  loop->walk([&](tensor::ExtractSliceOp sliceOp) {
    auto unpackOp = sliceOp.getSource().getDefiningOp<linalg::UnPackOp>();
    if (unpackOp && unpackOp->hasOneUse() &&
        unpackOp.getDest().getDefiningOp<tensor::EmptyOp>() &&
        slicesOffPaddingOnly(unpackOp, sliceOp))
      slices.push_back(sliceOp);
  });
  for (tensor::ExtractSliceOp sliceOp : slices) {
    auto unpackOp = sliceOp.getSource().getDefiningOp<linalg::UnPackOp>();
    rewriter.setInsertionPoint(unpackOp);
    Value dest = tensor::EmptyOp::create(rewriter, unpackOp.getLoc(),
                                         sliceOp.getMixedSizes(),
                                         sliceOp.getType().getElementType());
    auto sliced = linalg::UnPackOp::create(
        rewriter, unpackOp.getLoc(), unpackOp.getSource(), dest,
        unpackOp.getInnerDimsPos(), unpackOp.getMixedTiles(),
        unpackOp.getOuterDimsPerm());
    sliced->setDiscardableAttrs(unpackOp->getDiscardableAttrDictionary());
    Value result = sliced.getResult();
    if (result.getType() != sliceOp.getType())
      result = tensor::CastOp::create(rewriter, sliceOp.getLoc(),
                                      sliceOp.getType(), result);
    rewriter.replaceOp(sliceOp, result);
    rewriter.eraseOp(unpackOp);
  }
}

/// Bounds each workgroup loop of a size known only at run time by the
/// dispatch constant its export declares the workgroups of (strategy
/// selection picks a size the host passes), where tiling took the size from
/// an operand whose size the dispatch computes (an unpacked result's rows,
/// the batch times 3,136 pixels, read first by EfficientNet-B0's residual
/// add): a workgroup count takes only sizes the host passes. The two agree:
/// the host checks the operands of each loop against each other before it
/// launches the dispatch.
void boundByDeclaredSizes(RewriterBase &rewriter, scf::ForallOp forallOp) {
  ExecutableExportOp exportOp =
      getExportOf(forallOp->getParentOfType<func::FuncOp>());
  DenseI64ArrayAttr declared =
      exportOp ? exportOp.getWorkgroupTilesAttr() : DenseI64ArrayAttr();
  if (!declared)
    return;
  // (grid dim, dispatch constant, step) per loop; grid dim 0 (x) is the
  // innermost loop.
  ArrayRef<int64_t> tiles = declared.asArrayRef();
  int64_t rank = forallOp.getRank();
  unsigned dynamicIndex = 0;
  for (auto [loop, bound] : llvm::enumerate(forallOp.getMixedUpperBound())) {
    auto value = dyn_cast<Value>(bound);
    if (!value)
      continue;
    unsigned operandIndex = dynamicIndex++;
    if (value.getDefiningOp<DispatchConstantOp>())
      continue;
    for (size_t i = 0; i + 2 < tiles.size(); i += 3) {
      if (tiles[i] != rank - 1 - int64_t(loop))
        continue;
      rewriter.setInsertionPoint(forallOp);
      Value size = DispatchConstantOp::create(
          rewriter, forallOp.getLoc(), rewriter.getIndexType(),
          rewriter.getIndexAttr(tiles[i + 1]));
      rewriter.modifyOpInPlace(forallOp, [&] {
        forallOp.getDynamicUpperBoundMutable()[operandIndex].set(size);
      });
      break;
    }
  }
}

struct TileAndDistributeToWorkgroupsPass
    : impl::TileAndDistributeToWorkgroupsPassBase<
          TileAndDistributeToWorkgroupsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    IRRewriter rewriter(&getContext());
    // Pads and concats: their inserts split by rows.
    tensor::InsertSliceOp insertRoot;
    funcOp.walk([&](tensor::InsertSliceOp op) {
      if (getLoweringConfig(op))
        insertRoot = op;
    });
    if (insertRoot) {
      ArrayRef<int64_t> workgroup =
          getLoweringConfig(insertRoot).getWorkgroup();
      auto dim = llvm::find_if(workgroup, [](int64_t t) { return t != 0; });
      if (dim != workgroup.end() &&
          failed(distributeInsertChain(rewriter, insertRoot,
                                       dim - workgroup.begin(), *dim)))
        return signalPassFailure();
      return;
    }
    TilingInterface root = findDistributedOp(funcOp);
    if (!root)
      return;
    copyInitsFromBindings(rewriter, root);
    scf::SCFTilingOptions tilingOptions;
    tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp)
        .setTileSizes(getAsIndexOpFoldResult(
            &getContext(), getLoweringConfig(root).getWorkgroup()));
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tilingOptions);
    rewriter.setInsertionPoint(root);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
    if (failed(result)) {
      root->emitError("cannot tile to workgroups");
      return signalPassFailure();
    }
    for (auto [original, replacement] : result->replacements)
      rewriter.replaceAllUsesWith(original, replacement);
    for (LoopLikeOpInterface loop : result->loops) {
      if (auto forallOp = dyn_cast<scf::ForallOp>(loop.getOperation()))
        boundByDeclaredSizes(rewriter, forallOp);
      sliceInsertChainsPerTile(rewriter, loop);
      unpackIntoSlices(rewriter, loop);
    }
  }
};

} // namespace
} // namespace mlir::kiln
