//===- Pipeline.h - the whole kiln compilation pipeline -----------*- C++ -*-===//

#ifndef KILN_PIPELINE_PIPELINE_H_
#define KILN_PIPELINE_PIPELINE_H_

#include "Codegen/CPU/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir::kiln {

/// Points where compilation can stop (`--compile-to`), in order.
enum class PipelinePhase {
  Input,      // verified and converted input
  Dispatch,   // host functions of dispatches + outlined executables
  Codegen,    // executables lowered to the LLVM dialect
  End,        // a serialized module
};

std::optional<PipelinePhase> parsePipelinePhase(StringRef name);

struct CompileOptions {
  /// `--cpu`: host, x86-64-v2, x86-64-v3, x86-64-v4 or an LLVM CPU name.
  std::string cpu = "host";
  /// `--executable-debug-level` (0-3).
  int debugLevel = 2;
  /// `--dump-stage`: print every variant when it reaches this stage.
  std::optional<CodegenStage> dumpStage;
  /// Stop after this phase and leave the IR in the module.
  PipelinePhase compileTo = PipelinePhase::End;
  /// Name of the module (the input file's stem).
  std::string moduleName = "module";
};

/// Adds every pass from input to `options.compileTo` (at most Codegen).
void buildCompilePassPipeline(OpPassManager &pm, const CompileOptions &options);

/// Compiles `moduleOp` in place and, unless `compileTo` stops earlier,
/// writes the module file to `os`; otherwise prints the IR to `os`.
LogicalResult compileModule(ModuleOp moduleOp, const CompileOptions &options,
                            llvm::raw_ostream &os);

}  // namespace mlir::kiln

#endif  // KILN_PIPELINE_PIPELINE_H_
