//===- kiln_compile.cpp - compile MLIR programs to kiln modules ----------===//

#include "API/Compiler.h"
#include "API/OutOfMemory.h"
#include "Codegen/CPU/Passes.h"
#include "CompilerToolSupport.h"
#include "Pipeline/Pipeline.h"
#include "Pipeline/Registration.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <csignal>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory kilnCategory("kiln-compile options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir or .onnx>"),
                                          cl::init("-"), cl::cat(kilnCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("file"),
                                           cl::init("-"),
                                           cl::cat(kilnCategory));
static cl::opt<int> debugLevel(
    "executable-debug-level",
    cl::desc("Debug information in executables: 0 export names, 1 + input "
             "locations, 2 + fused-op provenance, 3 + captured IR at every "
             "stage"),
    cl::init(2), cl::cat(kilnCategory));
static cl::list<std::string> targetCPUs(
    "cpu",
    cl::desc("CPU to generate code for: host (default), x86-64-v2, "
             "x86-64-v3, x86-64-v4 or an LLVM x86 CPU name; a list "
             "(x86-64-v4,x86-64-v3,x86-64) makes one module with code for "
             "each, the runtime running the first the machine supports"),
    cl::CommaSeparated, cl::cat(kilnCategory));
// Its values, the stage names, are added from their one list in main.
static cl::opt<kiln::CodegenStage> dumpStage(
    "dump-stage",
    cl::desc("Print every executable variant to stderr when it reaches this "
             "stage"),
    cl::cat(kilnCategory));
static cl::opt<std::string> keepLibraryFiles(
    "keep-library-files",
    cl::desc("Keep the native library's object and shared object as "
             "DIR/<module name>.o and .so (for objdump, llvm-dwarfdump; "
             "the module carries the same .so)"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(kilnCategory));
static cl::opt<bool> accumulateHalfInF32(
    "accumulate-half-in-f32",
    cl::desc("f16 and bf16 reductions accumulate in f32 and round once "
             "(default); =false accumulates in their own type"),
    cl::init(true), cl::cat(kilnCategory));
static cl::opt<bool> reassociateFpReductions(
    "reassociate-fp-reductions",
    cl::desc("Floating-point reductions may add in any order, as vector "
             "lanes find fastest (default); =false adds in the "
             "program's order, slower"),
    cl::init(true), cl::cat(kilnCategory));
static cl::opt<bool> dispatchFusion(
    "dispatch-fusion",
    cl::desc("Fuse ops into shared dispatches (default); =false makes each "
             "input op a dispatch of its own, slower, to check a profile's "
             "time per op (--profile-by=node) against"),
    cl::init(true), cl::cat(kilnCategory));
enum class TosaValidation { Lenient, Strict };
static cl::opt<TosaValidation> tosaValidation(
    "tosa-validation",
    cl::desc("What becomes of TOSA ops with element types outside the TOSA "
             "profiles"),
    cl::values(clEnumValN(TosaValidation::Lenient, "lenient",
                          "compiled as upstream lowers them, with a warning "
                          "(default)"),
               clEnumValN(TosaValidation::Strict, "strict", "errors")),
    cl::init(TosaValidation::Lenient), cl::cat(kilnCategory));
static cl::opt<kiln::CompileMode> compileMode(
    "compile-mode", cl::desc("What the input is"),
    cl::values(clEnumValN(kiln::CompileMode::Module, "module",
                          "a program of functions (default)"),
               clEnumValN(kiln::CompileMode::Executable, "executable",
                          "a captured stage text (kiln-dump "
                          "--extract-sources), compiled from the stage it "
                          "was captured at into a module of that "
                          "executable")),
    cl::init(kiln::CompileMode::Module), cl::cat(kilnCategory));
static cl::list<std::string> captureStages(
    "executable-capture-stages",
    cl::desc("Stages captured at --executable-debug-level=3 (default: all)"),
    cl::CommaSeparated, cl::cat(kilnCategory));
static cl::opt<std::string> lineStage(
    "executable-debug-line-stage",
    cl::desc("At --executable-debug-level=3, the captured stage whose text "
             "the library's DWARF line tables point into (default: the last "
             "captured stage); below level 3 they point into the input"),
    cl::init(""), cl::cat(kilnCategory));
static cl::opt<bool> embedInputFiles(
    "executable-embed-input-files",
    cl::desc("Also embed the input files that export locations name (regular "
             "text files under the input file's directory or an "
             "--executable-embed-input-dir, each at most "
             "--executable-embed-input-files-limit bytes; a warning for "
             "each file left out)"),
    cl::init(false), cl::cat(kilnCategory));
static cl::list<std::string> embedInputDirs(
    "executable-embed-input-dir",
    cl::desc("With --executable-embed-input-files, also embed files under "
             "this directory (repeatable)"),
    cl::value_desc("dir"), cl::cat(kilnCategory));
static const std::string embedInputFileLimitDesc =
    "Largest input file embedded, in bytes (default " +
    std::to_string(kiln::kDefaultEmbedInputFileLimit) + ")";
static cl::opt<uint64_t> embedInputFileLimit(
    "executable-embed-input-files-limit", cl::desc(embedInputFileLimitDesc),
    cl::init(kiln::kDefaultEmbedInputFileLimit), cl::cat(kilnCategory));
static cl::opt<kiln::PipelinePhase> compileTo(
    "compile-to", cl::desc("Stop after a phase and print the IR"),
    cl::values(
        clEnumValN(kiln::PipelinePhase::Input, "input",
                   "verified and converted input"),
        clEnumValN(kiln::PipelinePhase::GlobalOptimization,
                   "global-optimization",
                   "contractions on packed layouts, constants folded"),
        clEnumValN(kiln::PipelinePhase::Dispatch, "dispatch",
                   "host functions of dispatches and outlined executables"),
        clEnumValN(kiln::PipelinePhase::Host, "host",
                   "host programs: instructions, buffers planned by "
                   "liveness"),
        clEnumValN(kiln::PipelinePhase::Codegen, "codegen",
                   "executables lowered to the LLVM dialect"),
        clEnumValN(kiln::PipelinePhase::End, "end",
                   "a serialized module (default)")),
    cl::init(kiln::PipelinePhase::End), cl::cat(kilnCategory));

static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("Check the diagnostics against the input's expected-error, "
             "-warning, -note and -remark comments instead of printing them, "
             "and write nothing (for tests)"),
    cl::init(false), cl::cat(kilnCategory));
static cl::opt<bool> splitInputFile(
    "split-input-file",
    cl::desc("Compile each part of the input between '// -----' lines on its "
             "own (for tests: with --verify-diagnostics, or with a "
             "--compile-to phase, whose outputs are printed apart by the "
             "same line)"),
    cl::init(false), cl::cat(kilnCategory));

static constexpr const char *kToolName = "kiln-compile";

static LogicalResult run(MLIRContext &context) {
  kiln::CompileOptions options;
  if (!targetCPUs.empty())
    options.cpus.assign(targetCPUs.begin(), targetCPUs.end());
  options.debugLevel = debugLevel;
  options.mode = compileMode;
  options.captureStages = captureStages;
  options.lineStage = lineStage;
  options.embedInputFiles = embedInputFiles;
  options.embedInputFileLimit = embedInputFileLimit;
  options.embedInputDirs = embedInputDirs;
  options.strictTosa = tosaValidation == TosaValidation::Strict;
  options.accumulateHalfInF32 = accumulateHalfInF32;
  options.reassociateFpReductions = reassociateFpReductions;
  options.dispatchFusion = dispatchFusion;
  options.keepLibraryFilesDir = keepLibraryFiles;
  if (dumpStage.getNumOccurrences() != 0)
    options.dumpStage = dumpStage.getValue();
  options.compileTo = compileTo;
  options.applyMLIRCommandLineOptions = true;
  if (failed(kiln::verifyCompileOptions(options, llvm::errs(), kToolName)))
    return failure();
  bool writesModule =
      !verifyDiagnostics && options.compileTo == kiln::PipelinePhase::End;
  if (writesModule && outputFilename == "-") {
    llvm::errs() << "kiln-compile: error: no output file; pass -o FILE.kiln\n";
    return failure();
  }
  if (writesModule && splitInputFile) {
    llvm::errs() << "kiln-compile: error: --split-input-file makes a module "
                    "of each part, which one file cannot hold; add "
                    "--verify-diagnostics or --compile-to=PHASE\n";
    return failure();
  }
  // By any spelling: another relative path, a symlink, a hard link.
  bool outputIsInput = false;
  if (inputFilename != "-" && outputFilename != "-" &&
      !llvm::sys::fs::equivalent(inputFilename, outputFilename,
                                 outputIsInput) &&
      outputIsInput) {
    llvm::errs() << "kiln-compile: error: the output file '" << outputFilename
                 << "' is the input file; writing it would lose the "
                    "program (choose another -o)\n";
    return failure();
  }

  FailureOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      kiln::readCompilerInput(context, inputFilename, llvm::errs(), kToolName);
  if (failed(input))
    return failure();

  // A module streams into a file renamed into place once whole; a failed
  // compilation leaves no output file. Other outputs (IR printed at a
  // phase) are buffered.
  std::unique_ptr<kiln::PendingOutputFile> moduleFile;
  if (writesModule) {
    FailureOr<std::unique_ptr<kiln::PendingOutputFile>> file =
        kiln::PendingOutputFile::create(outputFilename, kToolName);
    if (failed(file))
      return failure();
    moduleFile = std::move(*file);
  }
  std::string bytes;
  llvm::raw_string_ostream buffered(bytes);
  raw_ostream &os = moduleFile ? moduleFile->os() : buffered;
  auto compileBuffer = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                           raw_ostream &out) -> LogicalResult {
    if (!verifyDiagnostics || kiln::isModelPath(inputFilename))
      return kiln::compileInput(context, std::move(buffer), inputFilename,
                                options, out, llvm::errs(), kToolName);
    kiln::CompileOptions bufferOptions = kiln::getInputCompileOptions(
        options, inputFilename, buffer->getBuffer());
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    SourceMgrDiagnosticVerifierHandler verifier(sourceMgr, &context);
    (void)kiln::compileSource(sourceMgr, context, bufferOptions, out);
    return verifier.verify();
  };
  LogicalResult compiled =
      splitInputFile ? splitAndProcessBuffer(
                           std::move(*input),
                           [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                               raw_ostream &out) {
                             return compileBuffer(std::move(chunk), out);
                           },
                           os, kDefaultSplitMarker, kDefaultSplitMarker)
                     : compileBuffer(std::move(*input), os);
  if (failed(compiled))
    return failure();
  if (verifyDiagnostics)
    return success();
  if (moduleFile)
    return moduleFile->commit();
  return kiln::writeOutputFile(outputFilename, bytes, kToolName);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Past a file size limit (ulimit -f) a write then fails as on a full
  // disk and is reported, where LLVM's handler would report a crash.
  std::signal(SIGXFSZ, SIG_IGN);
  // Passes first: the pass manager options list them.
  kiln::registerAllPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  // --help shows kiln's options, not the thousands of LLVM and MLIR; those
  // still work. --help-hidden adds MLIR's (--mlir-timing,
  // --mlir-print-ir-after-all, ...): HideUnrelatedOptions makes every other
  // option ReallyHidden, which hides it from --help-hidden too, so MLIR's go
  // back to Hidden (options hidden from both before stay so); LLVM's own
  // code generation flags stay out of both.
  llvm::SmallPtrSet<cl::Option *, 16> reallyHidden;
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getOptionHiddenFlag() == cl::ReallyHidden)
      reallyHidden.insert(option);
  for (StringRef name : kiln::getCodegenStageNames())
    dumpStage.getParser().addLiteralOption(
        name, *kiln::parseCodegenStageName(name), "");
  cl::HideUnrelatedOptions(kilnCategory);
  kiln::setVersionPrinter(kToolName);
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getOptionHiddenFlag() == cl::ReallyHidden &&
        !reallyHidden.contains(option) && name.starts_with("mlir-"))
      option->setHiddenFlag(cl::Hidden);
  cl::ParseCommandLineOptions(
      argc, argv,
      "kiln-compile: compiles a tensor program (func + linalg/tensor/arith/"
      "math, TOSA) or an ONNX model into a kiln module\n\n"
      "  kiln-compile model.mlir -o model.kiln\n"
      "  kiln-compile model.onnx -o model.kiln\n");

  std::unique_ptr<MLIRContext> context = kiln::createCompilerContext();
  // Errors name the line of the input; a dump of the failing op in generic
  // form helps compiler developers, not users, who ask for it with
  // --mlir-print-op-on-diagnostic.
  auto &clOptions = cl::getRegisteredOptions();
  auto printOp = clOptions.find("mlir-print-op-on-diagnostic");
  if (printOp != clOptions.end() && printOp->second->getNumOccurrences() != 0)
    context->printOpOnDiagnostic(true);
  return succeeded(kiln::runReportingOutOfMemory(
             context, [&] { return run(*context); }, llvm::errs(), kToolName))
             ? 0
             : 1;
}
