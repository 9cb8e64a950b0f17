//===- Compiler.cpp - the compiler as a library ---------------------------===//

#include "API/Compiler.h"

#include "API/Diagnostics.h"
#include "API/OutOfMemory.h"

#include "Dialect/Kiln/IR/KilnDialect.h"
#include "Input/NestingDepth.h"
#include "Pipeline/Registration.h"
#include "Target/CPU/CPUTarget.h"
#ifdef KILN_HAVE_ONNX_IMPORTER
#include "Import/ONNX/Importer.h"
#endif
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Location.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace mlir::kiln {

std::unique_ptr<MLIRContext> createCompilerContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  context->printOpOnDiagnostic(false);
  prepareForOutOfMemory(*context);
  return context;
}

bool isModelPath(StringRef path) {
  return path.ends_with(".onnx") || path.ends_with(".onnxtxt");
}

std::string getModuleName(StringRef path) {
  std::string stem = path == "-" ? "module" : llvm::sys::path::stem(path).str();
  for (char &c : stem)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return stem.empty() ? "module" : stem;
}

std::string getSourcePrefix(StringRef moduleName, StringRef input,
                            const CompileOptions &options) {
  // The input hashed on its own: copied into the key, a model's bytes
  // would be held twice more.
  uint64_t inputHash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(input.data()), input.size()));
  std::string key = (Twine(inputHash) + "\n" + llvm::join(options.cpus, ",") +
                     "\n" + Twine(options.debugLevel) + "\n" +
                     Twine(static_cast<int>(options.mode)) + "\n" +
                     Twine(options.accumulateHalfInF32) + "\n" +
                     Twine(options.reassociateFpReductions) + "\n" +
                     Twine(options.dispatchFusion))
                        .str();
  uint64_t hash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(key.data()), key.size()));
  std::string prefix;
  llvm::raw_string_ostream os(prefix);
  os << moduleName << "-" << llvm::format_hex_no_prefix(hash >> 32, 8);
  return prefix;
}

CompileOptions getInputCompileOptions(CompileOptions options, StringRef path,
                                      StringRef input) {
  options.moduleName = getModuleName(path);
  options.sourcePrefix = getSourcePrefix(options.moduleName, input, options);
  // A location may name any file (/etc/passwd): only those under the
  // input's directory, or one the caller names, are embedded.
  if (path != "-") {
    StringRef inputDir = llvm::sys::path::parent_path(path);
    options.embedInputDirs.insert(options.embedInputDirs.begin(),
                                  inputDir.empty() ? "." : inputDir.str());
  }
  return options;
}

LogicalResult verifyCompileOptions(const CompileOptions &options,
                                   raw_ostream &errors, StringRef toolName) {
  auto error = [&]() -> raw_ostream & {
    return errors << toolName << ": error: ";
  };
  auto warning = [&]() -> raw_ostream & {
    return errors << toolName << ": warning: ";
  };
  if (options.debugLevel < 0 || options.debugLevel > 3) {
    error() << "--executable-debug-level must be 0, 1, 2 or 3, got "
            << options.debugLevel << "\n";
    return failure();
  }
  for (const std::string &stage : options.captureStages) {
    if (!parseCodegenStageName(stage)) {
      error() << "unknown capture stage '" << stage << "'; stages are "
              << llvm::join(getCodegenStageNames(), ", ") << "\n";
      return failure();
    }
  }
  if (!options.captureStages.empty() && options.debugLevel < 3)
    warning() << "--executable-capture-stages has no effect below "
                 "--executable-debug-level=3 (got "
              << options.debugLevel << ")\n";
  if (!options.lineStage.empty()) {
    if (options.debugLevel < 3) {
      warning() << "--executable-debug-line-stage has no effect below "
                   "--executable-debug-level=3 (got "
                << options.debugLevel << ")\n";
    } else if (!llvm::is_contained(getCaptureStages(options),
                                   options.lineStage)) {
      error() << "--executable-debug-line-stage '" << options.lineStage
              << "' is not a captured stage; captured: "
              << llvm::join(getCaptureStages(options), ", ") << "\n";
      return failure();
    }
  }
  for (const std::string &dir : options.embedInputDirs) {
    if (!llvm::sys::fs::is_directory(dir)) {
      error() << "--executable-embed-input-dir: '" << dir
              << "' is not a directory\n";
      return failure();
    }
  }
  if (!options.embedInputDirs.empty() && !options.embedInputFiles)
    warning() << "--executable-embed-input-dir has no effect without "
                 "--executable-embed-input-files\n";
  if (options.cpus.empty()) {
    error() << "--cpu names no CPU\n";
    return failure();
  }
  llvm::StringSet<> cpusSeen;
  for (const std::string &cpu : options.cpus) {
    if (failed(verifyTargetCPU(cpu))) {
      error() << "unknown --cpu '" << cpu
              << "'; use host, x86-64-v2, x86-64-v3, x86-64-v4 or an LLVM x86 "
                 "CPU name (e.g. skylake-avx512), or a list of them\n";
      return failure();
    }
    if (!cpusSeen.insert(cpu).second) {
      error() << "--cpu lists '" << cpu << "' twice\n";
      return failure();
    }
  }
  return success();
}

FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readCompilerInput(MLIRContext &context, StringRef path, raw_ostream &errors,
                  StringRef toolName) {
  if (isModelPath(path)) {
#ifdef KILN_HAVE_ONNX_IMPORTER
    llvm::SourceMgr noSource;
    SourceMgrDiagnosticHandler diagnostics(noSource, &context, errors);
    ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
      return printUnpositionedDiagnostic(diag, diagnostics, toolName, errors);
    });
    return onnx_import::readONNXModelFile(&context, path);
#endif
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(path, &error);
  if (!input) {
    errors << toolName << ": error: " << error << "\n";
    return failure();
  }
  return input;
}

LogicalResult compileSource(llvm::SourceMgr &sourceMgr, MLIRContext &context,
                            const CompileOptions &options, raw_ostream &os) {
  if (failed(verifyNestingDepth(sourceMgr, &context)))
    return failure();
  // Parsed with ops of any dialect, so that one kiln does not read is
  // reported as such, every one of them, rather than as the parser's advice
  // to pass a flag kiln-compile does not have.
  context.allowUnregisteredDialects(true);
  OwningOpRef<ModuleOp> moduleOp =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  context.allowUnregisteredDialects(false);
  if (!moduleOp)
    return failure();
  llvm::StringSet<> reported;
  moduleOp->walk([&](Operation *op) {
    if (op->isRegistered())
      return WalkResult::advance();
    if (reported.insert(op->getName().getStringRef()).second)
      op->emitError() << "'" << op->getName()
                      << "' is not an op kiln compiles: its dialect '"
                      << op->getName().getDialectNamespace()
                      << "' is not one kiln reads";
    return WalkResult::advance();
  });
  if (!reported.empty())
    return failure();
  return compileModule(*moduleOp, options, os);
}

/// Imports the ONNX model in `contents` and compiles its program into `os`;
/// at level 3 the program's text, which its locations point into, is
/// embedded as the input file.
static LogicalResult compileModel(std::unique_ptr<llvm::MemoryBuffer> contents,
                                  StringRef path, MLIRContext &context,
                                  const CompileOptions &options,
                                  raw_ostream &os) {
#ifdef KILN_HAVE_ONNX_IMPORTER
  onnx_import::ImportOptions importOptions;
  importOptions.textPath = getStoredPath(path.str() + ".mlir");
  // The file's bytes go once parsed: a model is not held twice.
  FailureOr<OwningOpRef<ModuleOp>> moduleOp = onnx_import::importONNXModel(
      &context, path, std::move(contents), importOptions);
  if (failed(moduleOp))
    return failure();
  if (options.debugLevel >= 3 || options.embedInputFiles) {
    std::string text;
    llvm::raw_string_ostream textStream(text);
    onnx_import::printImportedProgram(**moduleOp, textStream,
                                      /*withWeights=*/false);
    Builder builder(&context);
    auto type = RankedTensorType::get({static_cast<int64_t>(text.size())},
                                      builder.getIntegerType(8));
    (**moduleOp)
        ->setAttr(kInputFilesAttrName,
                  builder.getDictionaryAttr(builder.getNamedAttr(
                      importOptions.textPath,
                      DenseResourceElementsAttr::get(
                          type, importOptions.textPath,
                          HeapAsmResourceBlob::allocateAndCopyInferAlign(
                              ArrayRef<char>(text.data(), text.size()))))));
  }
  return compileModule(**moduleOp, options, os);
#else
  return emitError(FileLineColLoc::get(&context, path, 0, 0))
         << "this kiln was built without the ONNX importer "
            "(-DKILN_BUILD_ONNX=OFF)";
#endif
}

LogicalResult compileInput(MLIRContext &context,
                           std::unique_ptr<llvm::MemoryBuffer> input,
                           StringRef path, CompileOptions options,
                           raw_ostream &os, raw_ostream &diagnostics,
                           StringRef toolName) {
  options =
      getInputCompileOptions(std::move(options), path, input->getBuffer());
  if (isModelPath(path)) {
    // No source manager holds a model's bytes: the importer frees them.
    llvm::SourceMgr noSource;
    SourceMgrDiagnosticHandler handler(noSource, &context, diagnostics);
    ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
      return printUnpositionedDiagnostic(diag, handler, toolName, diagnostics);
    });
    return compileModel(std::move(input), path, context, options, os);
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);
  // Registered last, so consulted first.
  ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
    return printUnpositionedDiagnostic(diag, handler, toolName, diagnostics);
  });
  return compileSource(sourceMgr, context, options, os);
}

} // namespace mlir::kiln
