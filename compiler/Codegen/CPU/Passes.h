//===- Passes.h - CPU code generation -----------------------------*- C++ -*-===//

#ifndef KILN_CODEGEN_CPU_PASSES_H_
#define KILN_CODEGEN_CPU_PASSES_H_

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <optional>

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Codegen/CPU/Passes.h.inc"

/// Named points of CPU code generation, in pipeline order. The IR of every
/// variant can be captured or printed at each of them, and compilation can
/// resume from each of them.
enum class CodegenStage {
  /// The variant as dispatch formation outlined it: tensor-level linalg.
  Source = 0,
  /// Lowering strategy attached: tile and vector sizes, workgroup counts.
  Configured = 1,
  /// LLVM dialect, ready for translation to LLVM IR.
  Translated = 2,
};

/// "0.source", "1.configured", "2.translated".
StringRef getCodegenStageName(CodegenStage stage);
/// The stage named `name`, if any.
std::optional<CodegenStage> parseCodegenStageName(StringRef name);
/// All stage names in pipeline order.
SmallVector<StringRef> getCodegenStageNames();

/// Called at each checkpoint reached with a pass manager anchored on
/// kiln.executable.variant, to add passes that observe the IR there.
using StageCheckpointFn =
    std::function<void(OpPassManager &variantPM, CodegenStage stage)>;

/// Adds CPU code generation for variants (`variantPM` is anchored on
/// kiln.executable.variant) starting from IR at stage `from`; `checkpoint`
/// runs at every stage from `from` to the end. `reassociateFpReductions`:
/// float vector reductions may add their lanes in any order.
void buildCPUCodegenPassPipeline(OpPassManager &variantPM, CodegenStage from,
                                 bool reassociateFpReductions,
                                 const StageCheckpointFn &checkpoint);

/// arith.extf from and arith.truncf (to nearest even) to floats of at most 8
/// bits as integer operations on their bits, scalar or vector.
void populateExpandSmallFloatConversionPatterns(RewritePatternSet &patterns);

/// Vector lowering to the 1-D ops LLVM conversion handles (contractions as
/// outer products, transfers of rank 1, ...).
void populateLowerVectorsPatterns(RewritePatternSet &patterns);

/// The lowering config attached to `op`, if any.
LoweringConfigAttr getLoweringConfig(Operation *op);

#define GEN_PASS_REGISTRATION
#include "Codegen/CPU/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_CODEGEN_CPU_PASSES_H_
