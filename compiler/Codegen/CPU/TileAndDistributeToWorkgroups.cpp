//===- TileAndDistributeToWorkgroups.cpp - one tile per workgroup ---------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/TilingInterface.h"

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

/// The inserts of a pad or concat: a chain of static insert_slices (last
/// first) into a fill or an empty tensor, `base`.
struct InsertChain {
  SmallVector<tensor::InsertSliceOp> inserts;
  Value base;
};

std::optional<InsertChain> matchInsertChain(tensor::InsertSliceOp root) {
  InsertChain chain;
  Value dest = root.getResult();
  while (auto insertOp = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!insertOp.hasUnitStride() ||
        ShapedType::isDynamicShape(insertOp.getStaticOffsets()) ||
        ShapedType::isDynamicShape(insertOp.getStaticSizes()) ||
        insertOp.getSourceType().getRank() != insertOp.getType().getRank())
      return std::nullopt;
    chain.inserts.push_back(insertOp);
    dest = insertOp.getDest();
  }
  chain.base = dest;
  auto fillOp = dest.getDefiningOp<linalg::FillOp>();
  if (!dest.getDefiningOp<tensor::EmptyOp>() &&
      !(fillOp && fillOp.hasPureTensorSemantics()))
    return std::nullopt;
  std::reverse(chain.inserts.begin(), chain.inserts.end());
  return chain;
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
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  auto forallOp = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(extent)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(tile)}, ValueRange{empty},
      /*mapping=*/std::nullopt);
  rewriter.setInsertionPointToStart(forallOp.getBody());
  Value iv = forallOp.getInductionVar(0);
  MLIRContext *context = rewriter.getContext();
  AffineExpr d0, d1;
  bindDims(context, d0, d1);
  auto min = [&](AffineMap map, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineMin(rewriter, loc, map, operands);
  };
  auto max = [&](AffineMap map, ArrayRef<OpFoldResult> operands) {
    return affine::makeComposedFoldedAffineMax(rewriter, loc, map, operands);
  };
  // Rows [iv, iv + rows) of the destination.
  OpFoldResult rows =
      min(AffineMap::get(
              1, 0, {d0 * -1 + extent, getAffineConstantExpr(tile, context)},
              context),
          {iv});
  auto slice = [&](ArrayRef<int64_t> staticOffsets,
                   ArrayRef<int64_t> staticSizes, OpFoldResult offset,
                   OpFoldResult size) {
    SmallVector<OpFoldResult> offsets =
        getAsIndexOpFoldResult(context, staticOffsets);
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(context, staticSizes);
    offsets[dim] = offset;
    sizes[dim] = size;
    return std::make_pair(offsets, sizes);
  };
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  SmallVector<int64_t> zeros(rank, 0);
  auto [tileOffsets, tileSizes] = slice(zeros, type.getShape(), iv, rows);
  Value acc = tensor::ExtractSliceOp::create(rewriter, loc,
                                             forallOp.getRegionIterArgs()[0],
                                             tileOffsets, tileSizes, ones);
  if (auto fillOp = chain->base.getDefiningOp<linalg::FillOp>())
    acc = linalg::FillOp::create(rewriter, loc, fillOp.getInputs()[0], acc)
              .getResult(0);
  for (tensor::InsertSliceOp insertOp : chain->inserts) {
    int64_t offset = insertOp.getStaticOffsets()[dim];
    int64_t size = insertOp.getStaticSizes()[dim];
    // Source rows [lo, hi) of this insert land in the workgroup's rows.
    OpFoldResult lo = max(
        AffineMap::get(1, 0, {d0 - offset, getAffineConstantExpr(0, context)},
                       context),
        {iv});
    OpFoldResult hi =
        min(AffineMap::get(
                2, 0, {d0 + d1 - offset, getAffineConstantExpr(size, context)},
                context),
            {iv, rows});
    OpFoldResult count =
        max(AffineMap::get(2, 0, {d1 - d0, getAffineConstantExpr(0, context)},
                           context),
            {lo, hi});
    auto [sourceOffsets, sourceSizes] =
        slice(zeros, insertOp.getSourceType().getShape(), lo, count);
    Value source = tensor::ExtractSliceOp::create(
        rewriter, loc, insertOp.getSource(), sourceOffsets, sourceSizes, ones);
    OpFoldResult destRow = affine::makeComposedFoldedAffineApply(
        rewriter, loc, d0 + offset - d1, {lo, iv});
    auto [destOffsets, destSizes] = slice(
        insertOp.getStaticOffsets(), insertOp.getStaticSizes(), destRow, count);
    acc = tensor::InsertSliceOp::create(rewriter, loc, source, acc, destOffsets,
                                        destSizes, ones);
  }
  rewriter.setInsertionPointToStart(forallOp.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(rewriter, loc, acc,
                                        forallOp.getRegionIterArgs()[0],
                                        tileOffsets, tileSizes, ones);
  rewriter.replaceOp(root, forallOp.getResults());
  return success();
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
  }
};

} // namespace
} // namespace mlir::kiln
