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

struct TileAndDistributeToWorkgroupsPass
    : impl::TileAndDistributeToWorkgroupsPassBase<
          TileAndDistributeToWorkgroupsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    TilingInterface root = findDistributedOp(funcOp);
    if (!root)
      return;
    IRRewriter rewriter(&getContext());
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
