//===- Passes.cpp - host program pipeline ---------------------------------===//

#include "Host/Passes.h"

namespace mlir::kiln {

void buildHostPassPipeline(OpPassManager &pm) {
  // The module's instructions, every dispatch result in new storage: what
  // the runtime would run as it is.
  pm.addNestedPass<func::FuncOp>(createConvertToHostPass());
  // Intermediates into buffers the runtime keeps, reused by liveness, so
  // that a call in the steady state allocates only what it returns.
  pm.addNestedPass<func::FuncOp>(createPlanBuffersPass());
}

} // namespace mlir::kiln
