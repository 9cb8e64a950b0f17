//===- TileAndDistributeToWorkgroups.cpp - one tile per workgroup ---------===//

#include "Codegen/CPU/Passes.h"

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
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    Value copy =
        linalg::CopyOp::create(rewriter, loc, init.get(), empty).getResult(0);
    rewriter.modifyOpInPlace(root, [&] { init.set(copy); });
  }
}

struct TileAndDistributeToWorkgroupsPass
    : impl::TileAndDistributeToWorkgroupsPassBase<
          TileAndDistributeToWorkgroupsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TilingInterface root = findDistributedOp(funcOp);
    if (!root)
      return;
    IRRewriter rewriter(&getContext());
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

}  // namespace
}  // namespace mlir::kiln
