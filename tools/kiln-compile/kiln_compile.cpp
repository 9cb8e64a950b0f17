//===- kiln_compile.cpp - compile MLIR programs to kiln modules ----------===//

#include "Capture/InputFiles.h"
#include "Codegen/CPU/Passes.h"
#include "CompilerToolSupport.h"
#include "Dialect/Kiln/IR/KilnDialect.h"
#ifdef KILN_HAVE_ONNX_IMPORTER
#include "Import/ONNX/Importer.h"
#endif
#include "Input/NestingDepth.h"
#include "Pipeline/Pipeline.h"
#include "Pipeline/Registration.h"
#include "Target/CPU/CPUTarget.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

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
static cl::opt<std::string>
    targetCPU("cpu",
              cl::desc("CPU to generate code for: host, x86-64-v2, "
                       "x86-64-v3, x86-64-v4 or an LLVM x86 CPU name"),
              cl::init("host"), cl::cat(kilnCategory));
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

/// The module name: the input's stem as an identifier.
static std::string getModuleName(StringRef path) {
  std::string stem = path == "-" ? "module" : llvm::sys::path::stem(path).str();
  for (char &c : stem)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return stem.empty() ? "module" : stem;
}

/// "<name>-<hash>": the module name and 8 hex digits of a hash of the input
/// and of every option that changes the code, so that captured texts of two
/// different builds never share a path.
static std::string getSourcePrefix(StringRef moduleName, StringRef input,
                                   const kiln::CompileOptions &options) {
  // The input hashed on its own: copied into the key, a model's bytes
  // would be held twice more.
  uint64_t inputHash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(input.data()), input.size()));
  std::string key =
      (Twine(inputHash) + "\n" + options.cpu + "\n" +
       Twine(options.debugLevel) + "\n" +
       Twine(static_cast<int>(options.mode)) + "\n" +
       Twine(options.accumulateHalfInF32) + "\n" +
       Twine(options.reassociateFpReductions))
          .str();
  uint64_t hash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(key.data()), key.size()));
  std::string prefix;
  llvm::raw_string_ostream os(prefix);
  os << moduleName << "-" << llvm::format_hex_no_prefix(hash >> 32, 8);
  return prefix;
}

static constexpr const char *kToolName = "kiln-compile";

#ifdef KILN_HAVE_ONNX_IMPORTER
/// Imports the ONNX model in `contents` and compiles its program into `os`;
/// at level 3 the program's text, which its locations point into, is
/// embedded as the input file.
static LogicalResult compileModel(std::unique_ptr<llvm::MemoryBuffer> contents,
                                  MLIRContext &context,
                                  const kiln::CompileOptions &options,
                                  raw_ostream &os) {
  kiln::onnx_import::ImportOptions importOptions;
  importOptions.textPath = kiln::getStoredPath(inputFilename + ".mlir");
  // The file's bytes go once parsed: a model is not held twice.
  FailureOr<OwningOpRef<ModuleOp>> moduleOp =
      kiln::onnx_import::importONNXModel(&context, inputFilename,
                                         std::move(contents), importOptions);
  if (failed(moduleOp))
    return failure();
  if (options.debugLevel >= 3 || options.embedInputFiles) {
    std::string text;
    llvm::raw_string_ostream textStream(text);
    kiln::onnx_import::printImportedProgram(**moduleOp, textStream,
                                            /*withWeights=*/false);
    Builder builder(&context);
    auto type = RankedTensorType::get({static_cast<int64_t>(text.size())},
                                      builder.getIntegerType(8));
    (**moduleOp)
        ->setAttr(kiln::kInputFilesAttrName,
                  builder.getDictionaryAttr(builder.getNamedAttr(
                      importOptions.textPath,
                      DenseResourceElementsAttr::get(
                          type, importOptions.textPath,
                          HeapAsmResourceBlob::allocateAndCopyInferAlign(
                              ArrayRef<char>(text.data(), text.size()))))));
  }
  return kiln::compileModule(**moduleOp, options, os);
}
#endif

/// Whether the input is a model file (ONNX) rather than a program's text.
static bool isModelInput() {
  StringRef path = inputFilename;
  return path.ends_with(".onnx") || path.ends_with(".onnxtxt");
}

/// Parses the text of `sourceMgr` and compiles it into `os`; the
/// diagnostics go to the handler registered on `context`.
static LogicalResult compileSource(llvm::SourceMgr &sourceMgr,
                                   MLIRContext &context,
                                   const kiln::CompileOptions &options,
                                   raw_ostream &os) {
  if (failed(kiln::verifyNestingDepth(sourceMgr, &context)))
    return failure();
  OwningOpRef<ModuleOp> moduleOp =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!moduleOp)
    return failure();
  return kiln::compileModule(*moduleOp, options, os);
}

static LogicalResult run(MLIRContext &context) {
  kiln::CompileOptions options;
  options.cpu = targetCPU;
  options.moduleName = getModuleName(inputFilename);
  options.embedInputFiles = embedInputFiles;
  options.embedInputFileLimit = embedInputFileLimit;
  // A location may name any file (/etc/passwd): only those under the
  // input's directory, or one the user names, are embedded.
  if (inputFilename != "-") {
    StringRef inputDir = llvm::sys::path::parent_path(inputFilename);
    options.embedInputDirs.push_back(inputDir.empty() ? "." : inputDir.str());
  }
  for (const std::string &dir : embedInputDirs) {
    if (!llvm::sys::fs::is_directory(dir)) {
      llvm::errs() << "kiln-compile: error: --executable-embed-input-dir: '"
                   << dir << "' is not a directory\n";
      return failure();
    }
    options.embedInputDirs.push_back(dir);
  }
  if (!embedInputDirs.empty() && !embedInputFiles)
    llvm::errs() << "kiln-compile: warning: --executable-embed-input-dir has "
                    "no effect without --executable-embed-input-files\n";
  options.mode = compileMode;
  for (const std::string &stage : captureStages) {
    if (!kiln::parseCodegenStageName(stage)) {
      llvm::errs() << "kiln-compile: error: unknown capture stage '" << stage
                   << "'; stages are "
                   << llvm::join(kiln::getCodegenStageNames(), ", ") << "\n";
      return failure();
    }
    options.captureStages.push_back(stage);
  }
  if (debugLevel < 0 || debugLevel > 3) {
    llvm::errs() << "kiln-compile: error: --executable-debug-level must be "
                    "0, 1, 2 or 3, got "
                 << debugLevel << "\n";
    return failure();
  }
  options.debugLevel = debugLevel;
  if (!captureStages.empty() && debugLevel < 3)
    llvm::errs() << "kiln-compile: warning: --executable-capture-stages has "
                    "no effect below --executable-debug-level=3 (got "
                 << debugLevel << ")\n";
  if (!lineStage.empty()) {
    if (debugLevel < 3)
      llvm::errs() << "kiln-compile: warning: --executable-debug-line-stage "
                      "has no effect below --executable-debug-level=3 (got "
                   << debugLevel << ")\n";
    else if (!llvm::is_contained(kiln::getCaptureStages(options), lineStage)) {
      llvm::errs() << "kiln-compile: error: --executable-debug-line-stage '"
                   << lineStage << "' is not a captured stage; captured: "
                   << llvm::join(kiln::getCaptureStages(options), ", ") << "\n";
      return failure();
    }
    options.lineStage = lineStage;
  }
  options.strictTosa = tosaValidation == TosaValidation::Strict;
  options.accumulateHalfInF32 = accumulateHalfInF32;
  options.reassociateFpReductions = reassociateFpReductions;
  options.keepLibraryFilesDir = keepLibraryFiles;
  if (dumpStage.getNumOccurrences() != 0)
    options.dumpStage = dumpStage.getValue();
  options.compileTo = compileTo;
  if (failed(kiln::verifyTargetCPU(options.cpu))) {
    llvm::errs() << "kiln-compile: error: unknown --cpu '" << options.cpu
                 << "'; use host, x86-64-v2, x86-64-v3, x86-64-v4 or an "
                    "LLVM x86 CPU name (e.g. skylake-avx512)\n";
    return failure();
  }
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

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (isModelInput()) {
#ifdef KILN_HAVE_ONNX_IMPORTER
    // Read as the importer reads: a FIFO is refused, not waited on.
    llvm::SourceMgr noSource;
    SourceMgrDiagnosticHandler diagnostics(noSource, &context);
    ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
      return kiln::printUnpositionedDiagnostic(diag, diagnostics, kToolName);
    });
    FailureOr<std::unique_ptr<llvm::MemoryBuffer>> model =
        kiln::onnx_import::readONNXModelFile(&context, inputFilename);
    if (failed(model))
      return failure();
    input = std::move(*model);
#endif
  }
  if (!input)
    input = openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << "kiln-compile: error: " << error << "\n";
    return failure();
  }

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
    kiln::CompileOptions bufferOptions = options;
    bufferOptions.sourcePrefix =
        getSourcePrefix(options.moduleName, buffer->getBuffer(), options);
    if (isModelInput()) {
      // No source manager holds a model's bytes: the importer frees them.
      llvm::SourceMgr noSource;
      SourceMgrDiagnosticHandler diagnostics(noSource, &context);
      ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
        return kiln::printUnpositionedDiagnostic(diag, diagnostics, kToolName);
      });
#ifdef KILN_HAVE_ONNX_IMPORTER
      return compileModel(std::move(buffer), context, bufferOptions, out);
#else
      return emitError(FileLineColLoc::get(&context, inputFilename, 0, 0))
             << "this kiln-compile was built without the ONNX importer "
                "(-DKILN_BUILD_ONNX=OFF)";
#endif
    }
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    if (verifyDiagnostics) {
      SourceMgrDiagnosticVerifierHandler verifier(sourceMgr, &context);
      (void)compileSource(sourceMgr, context, bufferOptions, out);
      return verifier.verify();
    }
    SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    // Registered last, so consulted first.
    ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
      return kiln::printUnpositionedDiagnostic(diag, diagnostics, kToolName);
    });
    return compileSource(sourceMgr, context, bufferOptions, out);
  };
  LogicalResult compiled =
      splitInputFile ? splitAndProcessBuffer(
                           std::move(input),
                           [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                               raw_ostream &out) {
                             return compileBuffer(std::move(chunk), out);
                           },
                           os, kDefaultSplitMarker, kDefaultSplitMarker)
                     : compileBuffer(std::move(input), os);
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
  // --help shows kiln's options, not the hundreds of LLVM and MLIR; those
  // still work, and --help-hidden lists them: HideUnrelatedOptions makes
  // them ReallyHidden, which hides them from --help-hidden too, so they go
  // back to Hidden (options hidden from both before stay so).
  llvm::SmallPtrSet<cl::Option *, 16> reallyHidden;
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getOptionHiddenFlag() == cl::ReallyHidden)
      reallyHidden.insert(option);
  for (StringRef name : kiln::getCodegenStageNames())
    dumpStage.getParser().addLiteralOption(
        name, *kiln::parseCodegenStageName(name), "");
  cl::HideUnrelatedOptions(kilnCategory);
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getOptionHiddenFlag() == cl::ReallyHidden &&
        !reallyHidden.contains(option))
      option->setHiddenFlag(cl::Hidden);
  cl::ParseCommandLineOptions(
      argc, argv,
      "kiln-compile: compiles a tensor program (func + linalg/tensor/arith/"
      "math, TOSA) or an ONNX model into a kiln module\n\n"
      "  kiln-compile model.mlir -o model.kiln\n"
      "  kiln-compile model.onnx -o model.kiln\n");

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors name the line of the input; a dump of the failing op in generic
  // form helps compiler developers, not users (--mlir-print-op-on-diagnostic).
  auto &clOptions = cl::getRegisteredOptions();
  auto printOp = clOptions.find("mlir-print-op-on-diagnostic");
  if (printOp == clOptions.end() || printOp->second->getNumOccurrences() == 0)
    context.printOpOnDiagnostic(false);
  return succeeded(run(context)) ? 0 : 1;
}
