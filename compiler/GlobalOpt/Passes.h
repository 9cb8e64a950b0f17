//===- Passes.h - global optimization passes ----------------------*- C++ -*-===//

#ifndef KILN_GLOBALOPT_PASSES_H_
#define KILN_GLOBALOPT_PASSES_H_

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::kiln {

struct CPUTargetInfo;

#define GEN_PASS_DECL
#include "GlobalOpt/Passes.h.inc"

/// Patterns moving transposes past elementwise ops (see SinkTransposesPass).
void populateSinkTransposesPatterns(RewritePatternSet &patterns);

/// Patterns rewriting 1x1 channels-last convolutions, and those with large
/// filters, as matmuls (see
/// ConvertConvsToMatmulsPass).
void populateConvertConvsToMatmulsPatterns(RewritePatternSet &patterns);

/// Patterns packing matmul-like contractions for code of `targets`, in
/// order of preference (see MaterializeDataTilingPass), with the folds that
/// pack constants and fills.
void populateMaterializeDataTilingPatterns(RewritePatternSet &patterns,
                                           ArrayRef<CPUTargetInfo> targets);

/// Folds `linalg.pack` and `linalg.transpose` of a constant into the packed
/// or transposed constant.
void populateFoldConstantPackPatterns(RewritePatternSet &patterns);

/// Adds the passes between input conversion and dispatch formation: f16 and
/// bf16 reductions made to accumulate in f32 (if `accumulateHalfInF32`; those
/// of floats of at most 8 bits always),
/// layouts chosen for code of `targetCPUs` (the `--cpu` list), constants
/// folded into them.
void buildGlobalOptimizationPassPipeline(OpPassManager &pm,
                                         ArrayRef<std::string> targetCPUs,
                                         bool accumulateHalfInF32);

#define GEN_PASS_REGISTRATION
#include "GlobalOpt/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_GLOBALOPT_PASSES_H_
