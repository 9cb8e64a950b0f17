//===- Pipeline.h - the whole kiln compilation pipeline -----------*- C++ -*-===//

#ifndef KILN_PIPELINE_PIPELINE_H_
#define KILN_PIPELINE_PIPELINE_H_

#include "Capture/InputFiles.h"
#include "Codegen/CPU/Passes.h"
#include "Module/SerializeModule.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::kiln {

/// Points where compilation can stop (`--compile-to`), in order.
enum class PipelinePhase {
  Input,              // verified and converted input
  GlobalOptimization, // contractions on packed layouts, constants folded
  Dispatch,           // host functions of dispatches + outlined executables
  Host,               // host programs with planned buffers
  Codegen,            // executables lowered to the LLVM dialect
  End,                // a serialized module
};

/// What the input is and what comes out (`--compile-mode`).
enum class CompileMode {
  /// A program of public functions -> a module running them.
  Module,
  /// One captured stage text of an executable -> a module holding that
  /// executable, compiled from the stage it was captured at.
  Executable,
};

struct CompileOptions {
  CompileMode mode = CompileMode::Module;
  /// `--cpu`: the CPUs to generate code for, each host, x86-64-v2,
  /// x86-64-v3, x86-64-v4 or an LLVM CPU name. Several make a module with a
  /// code variant for each, in this order of preference; data layouts are
  /// chosen for the first.
  std::vector<std::string> cpus = {"host"};
  /// `--executable-debug-level` (0-3).
  int debugLevel = 2;
  /// `--executable-capture-stages`: stages captured at level 3 (empty: all).
  std::vector<std::string> captureStages;
  /// `--executable-debug-line-stage`: at level 3, the captured stage whose
  /// text the library's line tables point into (empty: the last captured).
  std::string lineStage;
  /// Prefix of captured source paths: the module name and a hash of the
  /// input and options, so that texts of different builds never share a
  /// path.
  std::string sourcePrefix = "module";
  /// `--executable-embed-input-files` and its per-file byte limit.
  bool embedInputFiles = false;
  uint64_t embedInputFileLimit = kDefaultEmbedInputFileLimit;
  /// The directories whose files may be embedded: the input file's and
  /// each `--executable-embed-input-dir`.
  std::vector<std::string> embedInputDirs;
  /// `--accumulate-half-in-f32`: f16 and bf16 reductions accumulate in f32.
  bool accumulateHalfInF32 = true;
  /// `--reassociate-fp-reductions`: float vector reductions may add their
  /// lanes in any order (=false: in order).
  bool reassociateFpReductions = true;
  /// `--tosa-validation=strict`: TOSA ops with element types outside the
  /// target's profiles are errors, not warnings.
  bool strictTosa = false;
  /// `--dispatch-fusion=false`: each input op is a dispatch of its own.
  bool dispatchFusion = true;
  /// `--keep-library-files=DIR`: keep the library's object and shared object
  /// there (DIR/<module name>.o, .so).
  std::string keepLibraryFilesDir;
  /// `--dump-stage`: print every variant when it reaches this stage.
  std::optional<CodegenStage> dumpStage;
  /// Stop after this phase and leave the IR in the module.
  PipelinePhase compileTo = PipelinePhase::End;
  /// Name of the module (the input file's stem).
  std::string moduleName = "module";
  /// Apply MLIR's pass manager and timing command-line flags
  /// (`--mlir-timing`, `--mlir-print-ir-after-all`, ...) to the compile, for
  /// a tool that registered and parsed them; otherwise a compile depends on
  /// no process-wide flag.
  bool applyMLIRCommandLineOptions = false;
};

/// Adds every pass from input to `options.compileTo` (at most Codegen).
void buildCompilePassPipeline(OpPassManager &pm, const CompileOptions &options);

/// The stages captured at `options.debugLevel` (all named stages, or those
/// chosen), in pipeline order.
std::vector<std::string> getCaptureStages(const CompileOptions &options);

/// The stage the library's line tables point into at `options.debugLevel`:
/// `options.lineStage` or the last captured stage; empty below level 3
/// (lines of the input program).
std::string getLineStage(const CompileOptions &options);

/// Compiles `moduleOp` in place and, unless `compileTo` stops earlier,
/// writes the module file to `os`; otherwise prints the IR to `os`.
LogicalResult compileModule(ModuleOp moduleOp, const CompileOptions &options,
                            llvm::raw_ostream &os);

} // namespace mlir::kiln

#endif // KILN_PIPELINE_PIPELINE_H_
