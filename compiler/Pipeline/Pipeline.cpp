//===- Pipeline.cpp - the whole kiln compilation pipeline -----------------===//

#include "Pipeline/Pipeline.h"

#include "Capture/Passes.h"
#include "Dispatch/Passes.h"
#include "GlobalOpt/Passes.h"
#include "Host/Passes.h"
#include "Input/Passes.h"
#include "Module/SerializeModule.h"
#include "Target/CPU/CPUTarget.h"
#include "Target/CPU/LibraryBuilder.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::kiln {

std::vector<std::string> getCaptureStages(const CompileOptions &options) {
  std::vector<std::string> stages;
  if (options.debugLevel < 3)
    return stages;
  for (StringRef stage : getCodegenStageNames())
    if (options.captureStages.empty() ||
        llvm::is_contained(options.captureStages, stage))
      stages.push_back(stage.str());
  return stages;
}

std::string getLineStage(const CompileOptions &options) {
  std::vector<std::string> stages = getCaptureStages(options);
  if (stages.empty())
    return "";
  return options.lineStage.empty() ? stages.back() : options.lineStage;
}

namespace {

/// Codegen of every variant from `from`, capturing and printing at the
/// checkpoints the options ask for.
void addCodegenPasses(OpPassManager &pm, const CompileOptions &options,
                      CodegenStage from) {
  std::vector<std::string> captureStages = getCaptureStages(options);
  std::string previousStage;
  OpPassManager &variantPM =
      pm.nest<ExecutableOp>().nest<ExecutableVariantOp>();
  buildCPUCodegenPassPipeline(
      variantPM, from, options.reassociateFpReductions,
      [&](OpPassManager &nested, CodegenStage stage) {
        // Once, where the kernel is first seen at tensor level: what the
        // export declares becomes the library's description of its code
        // (stage texts declare it too, and are checked).
        if (stage == from && stage <= CodegenStage::Configured)
          nested.addPass(createVerifyExportInterfacesPass());
        if (llvm::is_contained(captureStages, getCodegenStageName(stage))) {
          CaptureExecutableSourcesPassOptions captureOptions;
          captureOptions.stage = getCodegenStageName(stage).str();
          captureOptions.moduleName = options.sourcePrefix;
          captureOptions.previousStage = previousStage;
          previousStage = captureOptions.stage;
          nested.addPass(createCaptureExecutableSourcesPass(captureOptions));
        }
        if (options.dumpStage == stage) {
          PrintVariantPassOptions printOptions;
          printOptions.stage = getCodegenStageName(stage).str();
          nested.addPass(createPrintVariantPass(printOptions));
        }
      });
}

/// The (name, `--cpu` entry) of each code variant, in order of preference:
/// the executables' variants (a captured text names its own), else those
/// `--cpu` asks for.
SmallVector<std::pair<std::string, std::string>>
getCodeVariants(ModuleOp moduleOp, const CompileOptions &options) {
  SmallVector<std::pair<std::string, std::string>> variants;
  auto executables = moduleOp.getOps<ExecutableOp>();
  if (!executables.empty()) {
    for (auto variantOp :
         (*executables.begin()).getBlock().getOps<ExecutableVariantOp>())
      variants.emplace_back(variantOp.getSymName().str(),
                            variantOp.getCpu().str());
    return variants;
  }
  for (auto [name, cpu] :
       llvm::zip_equal(getCodeVariantNames(options.cpus), options.cpus))
    variants.emplace_back(name, cpu);
  return variants;
}

/// Writes the module of the compiled IR.
LogicalResult serialize(ModuleOp moduleOp, const CompileOptions &options,
                        llvm::raw_ostream &os, TimingScope &timing) {
  SerializeOptions serializeOptions;
  serializeOptions.moduleName = options.moduleName;
  serializeOptions.debugLevel = options.debugLevel;
  serializeOptions.captureStages = getCaptureStages(options);
  // The embedded texts compress on the context's thread pool while LLVM
  // builds the library on this thread.
  TimingScope sourcesTiming = timing.nest("Embedded sources");
  FailureOr<std::unique_ptr<EmbeddedSources>> sources =
      EmbeddedSources::collect(moduleOp, serializeOptions.debugLevel);
  if (failed(sources))
    return failure();
  sourcesTiming.stop();
  TimingScope libraryTiming = timing.nest("Library (LLVM, ld.lld)");
  CPULibraryOptions libraryOptions;
  libraryOptions.lineTables = options.debugLevel >= 1;
  libraryOptions.lineStage = getLineStage(options);
  libraryOptions.sourcePrefix = options.sourcePrefix;
  libraryOptions.keepFilesDir = options.keepLibraryFilesDir;
  SmallVector<std::pair<std::string, std::string>> variants =
      getCodeVariants(moduleOp, options);
  std::vector<CPULibrary> libraries;
  // Without executables the variants have no code, nor libraries.
  bool hasCode = !moduleOp.getOps<ExecutableOp>().empty();
  for (auto &[name, cpu] : variants) {
    if (!hasCode) {
      libraries.emplace_back().variantName = name;
      continue;
    }
    libraryOptions.variantName = name;
    libraryOptions.targetCPU = cpu;
    FailureOr<CPULibrary> library =
        buildCPULibrary(moduleOp,
                        variants.size() == 1 ? options.moduleName
                                             : options.moduleName + "." + name,
                        libraryOptions);
    if (failed(library))
      return failure();
    libraries.push_back(std::move(*library));
  }
  libraryTiming.stop();
  TimingScope serializeTiming = timing.nest("Module serialization");
  return serializeModule(moduleOp, libraries, serializeOptions, **sources, os);
}

/// `--compile-mode=executable`: the stage the input was captured at.
FailureOr<CodegenStage> getCapturedStage(ModuleOp moduleOp) {
  auto executables = llvm::to_vector(moduleOp.getOps<ExecutableOp>());
  auto other =
      llvm::find_if(moduleOp.getBody()->getOperations(),
                    [](Operation &op) { return !isa<ExecutableOp>(op); });
  if (executables.empty() || other != moduleOp.getBody()->end()) {
    // At the module op: the line of a `module` the file spells out, else
    // (the module the parser wraps around the file's ops, at line 0) the
    // file as a whole.
    InFlightDiagnostic diag =
        moduleOp.emitError()
        << "not a captured stage text: --compile-mode=executable expects a "
           "stage file written by kiln-dump --extract-sources, holding one "
           "kiln.executable with a kiln.stage attribute";
    if (other != moduleOp.getBody()->end())
      diag.attachNote(other->getLoc())
          << "'" << other->getName() << "' is not a kiln.executable";
    return diag;
  }
  std::optional<CodegenStage> stage;
  for (ExecutableOp executableOp : executables) {
    auto name = executableOp->getAttrOfType<StringAttr>(kStageAttrName);
    std::optional<CodegenStage> parsed =
        name ? parseCodegenStageName(name.getValue()) : CodegenStage::Source;
    if (!parsed)
      return executableOp.emitError()
             << "unknown stage '" << name.getValue() << "'; stages are "
             << llvm::join(getCodegenStageNames(), ", ");
    if (stage && *stage != *parsed)
      return executableOp.emitError(
          "executables captured at different stages cannot be compiled "
          "together");
    stage = parsed;
  }
  return *stage;
}

} // namespace

void buildCompilePassPipeline(OpPassManager &pm,
                              const CompileOptions &options) {
  buildInputConversionPassPipeline(pm, options.strictTosa);
  if (options.compileTo == PipelinePhase::Input)
    return;
  buildGlobalOptimizationPassPipeline(pm, options.cpus,
                                      options.accumulateHalfInF32);
  if (options.compileTo == PipelinePhase::GlobalOptimization)
    return;
  buildDispatchPassPipeline(pm, options.cpus, options.dispatchFusion);
  if (options.compileTo == PipelinePhase::Dispatch)
    return;
  buildHostPassPipeline(pm);
  if (options.compileTo == PipelinePhase::Host)
    return;
  addCodegenPasses(pm, options, CodegenStage::Source);
}

LogicalResult compileModule(ModuleOp moduleOp, const CompileOptions &options,
                            llvm::raw_ostream &os) {
  PassManager pm(moduleOp.getContext());
  // `--mlir-timing`: the passes, then what follows them (LLVM and the
  // linker, the module file), in one report.
  DefaultTimingManager timingManager;
  if (options.applyMLIRCommandLineOptions) {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    applyDefaultTimingManagerCLOptions(timingManager);
  }
  TimingScope timing = timingManager.getRootScope();
  TimingScope passTiming = timing.nest("Passes");
  pm.enableTiming(passTiming);
  if (options.mode == CompileMode::Executable) {
    FailureOr<CodegenStage> stage = getCapturedStage(moduleOp);
    if (failed(stage))
      return failure();
    addCodegenPasses(pm, options, *stage);
  } else {
    // Only public functions become entry points of the module.
    if (options.compileTo == PipelinePhase::End &&
        llvm::none_of(moduleOp.getOps<func::FuncOp>(),
                      [](func::FuncOp funcOp) { return funcOp.isPublic(); }))
      moduleOp.emitWarning()
          << "no public functions: the module has nothing to run";
    buildCompilePassPipeline(pm, options);
  }
  if (options.compileTo == PipelinePhase::End && options.embedInputFiles) {
    CaptureInputFilesPassOptions inputFileOptions;
    inputFileOptions.debugLevel = options.debugLevel;
    inputFileOptions.limit = options.embedInputFileLimit;
    inputFileOptions.dirs.assign(options.embedInputDirs.begin(),
                                 options.embedInputDirs.end());
    pm.addPass(createCaptureInputFilesPass(inputFileOptions));
  }
  if (failed(pm.run(moduleOp)))
    return failure();
  passTiming.stop();
  if (options.compileTo != PipelinePhase::End) {
    moduleOp.print(os);
    return success();
  }
  return serialize(moduleOp, options, os, timing);
}

} // namespace mlir::kiln
