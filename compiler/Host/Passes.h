//===- Passes.h - host program passes -----------------------------*- C++ -*-===//

#ifndef KILN_HOST_PASSES_H_
#define KILN_HOST_PASSES_H_

#include "Dialect/Host/IR/HostOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Host/Passes.h.inc"

/// Patterns lowering the host ops of a dispatch-level function (constants,
/// dispatches, reshapes, checks, barriers, scf.if, scf.while, the return)
/// to the host dialect. Ops they do not cover are left alone.
void populateConvertToHostPatterns(RewritePatternSet &patterns);

/// From dispatch-level functions to host programs with planned buffers.
void buildHostPassPipeline(OpPassManager &pm);

#define GEN_PASS_REGISTRATION
#include "Host/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_HOST_PASSES_H_
