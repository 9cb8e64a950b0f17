//===- Passes.h - dispatch formation passes -----------------------*- C++ -*-===//

#ifndef KILN_DISPATCH_PASSES_H_
#define KILN_DISPATCH_PASSES_H_

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Dispatch/Passes.h.inc"

/// Generalization of named elementwise ops plus single-use elementwise
/// fusion.
void populateFuseElementwiseOpsPatterns(RewritePatternSet &patterns);

/// Global optimization and dispatch formation: from converted input to host
/// functions of `kiln.dispatch` ops and deduplicated `kiln.executable`s,
/// each with a variant for every CPU of `targetCPUs`; without `fuse`, each
/// op but the cheap ones it copies is a dispatch.
void buildDispatchPassPipeline(OpPassManager &pm,
                               ArrayRef<std::string> targetCPUs,
                               bool fuse = true);

#define GEN_PASS_REGISTRATION
#include "Dispatch/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_DISPATCH_PASSES_H_
