//===- Pipeline.cpp - the whole kiln compilation pipeline -----------------===//

#include "Pipeline/Pipeline.h"

#include "Dispatch/Passes.h"
#include "Input/Passes.h"
#include "Module/SerializeModule.h"
#include "Target/CPU/LibraryBuilder.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::kiln {

std::optional<PipelinePhase> parsePipelinePhase(StringRef name) {
  return llvm::StringSwitch<std::optional<PipelinePhase>>(name)
      .Case("input", PipelinePhase::Input)
      .Case("dispatch", PipelinePhase::Dispatch)
      .Case("codegen", PipelinePhase::Codegen)
      .Case("end", PipelinePhase::End)
      .Default(std::nullopt);
}

namespace {

/// Prints each variant it runs on to stderr, under a header naming the stage.
struct PrintVariantPass
    : PassWrapper<PrintVariantPass, OperationPass<ExecutableVariantOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrintVariantPass)
  explicit PrintVariantPass(CodegenStage stage) : stage(stage) {}
  StringRef getArgument() const override { return "kiln-print-variant"; }
  void runOnOperation() override {
    auto executableOp = getOperation()->getParentOfType<ExecutableOp>();
    llvm::errs() << "// -----// " << getCodegenStageName(stage) << " "
                 << executableOp.getSymName() << "::"
                 << getOperation().getSymName() << " //----- //\n";
    getOperation()->print(llvm::errs());
    llvm::errs() << "\n";
  }
  CodegenStage stage;
};

}  // namespace

void buildCompilePassPipeline(OpPassManager &pm, const CompileOptions &options) {
  buildInputConversionPassPipeline(pm);
  if (options.compileTo == PipelinePhase::Input)
    return;
  buildDispatchPassPipeline(pm, options.cpu);
  if (options.compileTo == PipelinePhase::Dispatch)
    return;
  OpPassManager &variantPM =
      pm.nest<ExecutableOp>().nest<ExecutableVariantOp>();
  buildCPUCodegenPassPipeline(
      variantPM, CodegenStage::Source,
      [&](OpPassManager &nested, CodegenStage stage) {
        if (options.dumpStage == stage)
          nested.addPass(std::make_unique<PrintVariantPass>(stage));
      });
}

LogicalResult compileModule(ModuleOp moduleOp, const CompileOptions &options,
                            llvm::raw_ostream &os) {
  PassManager pm(moduleOp.getContext());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  buildCompilePassPipeline(pm, options);
  if (failed(pm.run(moduleOp)))
    return failure();
  if (options.compileTo != PipelinePhase::End) {
    moduleOp.print(os);
    return success();
  }
  FailureOr<CPULibrary> library =
      buildCPULibrary(moduleOp, options.moduleName);
  if (failed(library))
    return failure();
  SerializeOptions serializeOptions;
  serializeOptions.moduleName = options.moduleName;
  return serializeModule(moduleOp, *library, serializeOptions, os);
}

}  // namespace mlir::kiln
