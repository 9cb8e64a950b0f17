//===- Passes.cpp - global optimization pipeline ------------------*- C++ -*-===//

#include "GlobalOpt/Passes.h"

#include "mlir/Transforms/Passes.h"

namespace mlir::kiln {

void buildGlobalOptimizationPassPipeline(OpPassManager &pm,
                                         ArrayRef<std::string> targetCPUs,
                                         bool accumulateHalfInF32) {
  // Before data tiling, which leaves contractions alone here anyway. Small
  // floats have no arithmetic of their own to accumulate in.
  PromoteHalfReductionsPassOptions promoteOptions;
  promoteOptions.half = accumulateHalfInF32;
  pm.addNestedPass<func::FuncOp>(
      createPromoteHalfReductionsPass(promoteOptions));
  // One layout from one convolution to the next: the transposes an importer
  // puts around each meet and fold.
  pm.addNestedPass<func::FuncOp>(createSinkTransposesPass());
  // 1x1 convolutions, and those with large filters, are matmuls, and are
  // packed as matmuls are.
  pm.addNestedPass<func::FuncOp>(createConvertConvsToMatmulsPass());
  // Contractions get the target's tiled layouts; the packs of constant
  // weights fold away here, at compile time.
  MaterializeDataTilingPassOptions options;
  options.targetCPUs = llvm::to_vector(targetCPUs);
  pm.addNestedPass<func::FuncOp>(createMaterializeDataTilingPass(options));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The unpacked weights are dead now: their bytes go (an imported model's
  // would otherwise take twice their size until the end).
  pm.addPass(createReleaseUnusedResourcesPass());
}

} // namespace mlir::kiln
