//===- Passes.cpp - CPU code generation pipeline --------------------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::kiln {

StringRef getCodegenStageName(CodegenStage stage) {
  switch (stage) {
  case CodegenStage::Source:
    return "0.source";
  case CodegenStage::Configured:
    return "1.configured";
  case CodegenStage::Translated:
    return "2.translated";
  }
  llvm_unreachable("unknown stage");
}

SmallVector<StringRef> getCodegenStageNames() {
  return {getCodegenStageName(CodegenStage::Source),
          getCodegenStageName(CodegenStage::Configured),
          getCodegenStageName(CodegenStage::Translated)};
}

std::optional<CodegenStage> parseCodegenStageName(StringRef name) {
  for (CodegenStage stage : {CodegenStage::Source, CodegenStage::Configured,
                             CodegenStage::Translated})
    if (getCodegenStageName(stage) == name)
      return stage;
  return std::nullopt;
}

namespace {
void addCleanupPasses(OpPassManager &pm) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
} // namespace

void buildCPUCodegenPassPipeline(OpPassManager &variantPM, CodegenStage from,
                                 bool reassociateFpReductions,
                                 const StageCheckpointFn &checkpoint) {
  auto reach = [&](CodegenStage stage) {
    if (checkpoint)
      checkpoint(variantPM, stage);
  };
  if (from <= CodegenStage::Source) {
    reach(CodegenStage::Source);
    variantPM.addPass(createSelectLoweringStrategyPass());
  }
  if (from <= CodegenStage::Configured) {
    reach(CodegenStage::Configured);
    {
      OpPassManager &funcPM = variantPM.nest<ModuleOp>().nest<func::FuncOp>();
      // One tile per workgroup first: it decides which data each
      // workgroup touches; vector tiles subdivide it.
      funcPM.addPass(createCheckDispatchConstantsPass());
      funcPM.addPass(createCheckSliceBoundsPass());
      funcPM.addPass(createBoundExtractIndicesPass());
      funcPM.addPass(createTileAndDistributeToWorkgroupsPass());
      addCleanupPasses(funcPM);
      funcPM.addPass(createTileToVectorSizesPass());
      // Folds the sizes of peeled tiles into static shapes.
      addCleanupPasses(funcPM);
      funcPM.addPass(createVectorizePass());
      addCleanupPasses(funcPM);
    }
    variantPM.nest<ModuleOp>().addPass(createBufferizePass());
    {
      OpPassManager &funcPM = variantPM.nest<ModuleOp>().nest<func::FuncOp>();
      // Needs buffers: the bufferized forall has no results to thread.
      funcPM.addPass(createResolveWorkgroupIdsPass());
      addCleanupPasses(funcPM);
      LowerVectorsPassOptions lowerVectorsOptions;
      lowerVectorsOptions.reassociateFpReductions = reassociateFpReductions;
      funcPM.addPass(createLowerVectorsPass(lowerVectorsOptions));
      funcPM.addPass(createVectorizeCopiesPass());
      // Ops the vectorizer left alone run as scalar loops.
      funcPM.addPass(createConvertLinalgToLoopsPass());
      addCleanupPasses(funcPM);
      // No arithmetic of their own: small floats compute in f32, scalar or
      // vector alike, and convert with integer operations.
      funcPM.addPass(createExpandSmallFloatsPass());
      // After the cleanup that folds divisors to constants, which need no
      // guard.
      addCleanupPasses(funcPM);
      funcPM.addPass(createGuardIntegerDivisionPass());
      funcPM.addPass(createStreamResultStoresPass());
    }
    OpPassManager &modulePM = variantPM.nest<ModuleOp>();
    ConvertToLLVMPassOptions llvmOptions;
    llvmOptions.reassociateFpReductions = reassociateFpReductions;
    modulePM.addPass(createConvertToLLVMPass(llvmOptions));
    modulePM.addPass(createReconcileUnrealizedCastsPass());
    addCleanupPasses(modulePM);
  }
  reach(CodegenStage::Translated);
}

} // namespace mlir::kiln
