//===- Passes.cpp - dispatch formation pipeline -------------------*- C++ -*-===//

#include "Dispatch/Passes.h"

#include "mlir/Transforms/Passes.h"

namespace mlir::kiln {

void buildDispatchPassPipeline(OpPassManager &pm,
                               ArrayRef<std::string> targetCPUs, bool fuse) {
  // Elementwise chains collapse into single generics first so that a root
  // and its consumer chain become one dispatch.
  if (fuse)
    pm.addNestedPass<func::FuncOp>(createFuseElementwiseOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  FormDispatchRegionsPassOptions formOptions;
  formOptions.fuse = fuse;
  pm.addNestedPass<func::FuncOp>(createFormDispatchRegionsPass(formOptions));
  OutlineDispatchRegionsPassOptions outlineOptions;
  outlineOptions.targetCPUs = llvm::to_vector(targetCPUs);
  pm.addPass(createOutlineDispatchRegionsPass(outlineOptions));
  // Constants and reshapes left on the host fold once dispatches are opaque.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createDeduplicateExecutablesPass());
}

} // namespace mlir::kiln
