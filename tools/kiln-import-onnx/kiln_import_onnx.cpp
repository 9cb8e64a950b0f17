//===- kiln_import_onnx.cpp - print the program kiln imports from ONNX ----===//

#include "API/Diagnostics.h"
#include "CompilerToolSupport.h"
#include "Import/ONNX/Importer.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <csignal>

using namespace mlir;
namespace cl = llvm::cl;

static constexpr const char *kToolName = "kiln-import-onnx";

static cl::OptionCategory importCategory("kiln-import-onnx options");

static cl::opt<std::string>
    inputFilename(cl::Positional,
                  cl::desc("<model: .onnx, or ONNX's text format>"),
                  cl::Required, cl::cat(importCategory));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("file"),
                                           cl::init("-"),
                                           cl::cat(importCategory));
static cl::opt<bool> elideWeights(
    "elide-weights",
    cl::desc("Leave the weights' bytes out (their names and types show); "
             "the text then no longer compiles on its own"),
    cl::init(false), cl::cat(importCategory));
static cl::opt<std::string> functionName(
    "function-name", cl::desc("Name of the function the graph becomes"),
    cl::init("main"), cl::cat(importCategory));
static cl::opt<bool> printModel(
    "print-onnx",
    cl::desc("Print the model as the importer reads it instead, in ONNX's "
             "text format: converted to the newest opset, ops defined as "
             "functions of other ops expanded, every value typed"),
    cl::init(false), cl::cat(importCategory));
static cl::opt<bool> splitInputFile(
    "split-input-file",
    cl::desc("Import each part of a text model between '# -----' lines on "
             "its own, printing the programs apart by the same line, each "
             "that imports even if another is refused (for tests)"),
    cl::init(false), cl::cat(importCategory));

/// Imports one model (`contents`, or the file when absent) and prints its
/// program to `os`.
static LogicalResult
importAndPrint(MLIRContext &context,
               std::unique_ptr<llvm::MemoryBuffer> contents, raw_ostream &os) {
  if (printModel)
    return kiln::onnx_import::printLoadedONNXModel(&context, inputFilename,
                                                   std::move(contents), os);
  kiln::onnx_import::ImportOptions options;
  options.functionName = functionName;
  FailureOr<OwningOpRef<ModuleOp>> moduleOp =
      kiln::onnx_import::importONNXModel(&context, inputFilename,
                                         std::move(contents), options);
  if (failed(moduleOp))
    return failure();
  kiln::onnx_import::printImportedProgram(**moduleOp, os, !elideWeights);
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  std::signal(SIGXFSZ, SIG_IGN);
  cl::HideUnrelatedOptions(importCategory);
  kiln::setVersionPrinter(kToolName);
  cl::ParseCommandLineOptions(
      argc, argv,
      "kiln-import-onnx: prints the program kiln-compile makes of an ONNX "
      "model: func, linalg, tensor, arith and math ops, each located at the "
      "node it stands for and at its own line of this text\n\n"
      "  kiln-import-onnx model.onnx -o model.mlir\n");

  DialectRegistry registry;
  kiln::onnx_import::registerImportDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  ScopedDiagnosticHandler unpositioned(&context, [&](Diagnostic &diag) {
    return kiln::printUnpositionedDiagnostic(diag, diagnostics, kToolName,
                                             llvm::errs());
  });

  // Buffered, so that a failed import leaves no output file.
  std::string text;
  llvm::raw_string_ostream os(text);
  LogicalResult imported = failure();
  if (splitInputFile) {
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> input =
        openInputFile(inputFilename, &error);
    if (!input) {
      llvm::errs() << kToolName << ": error: " << error << "\n";
      return 1;
    }
    imported = splitAndProcessBuffer(
        std::move(input),
        [&](std::unique_ptr<llvm::MemoryBuffer> chunk, raw_ostream &out) {
          return importAndPrint(context, std::move(chunk), out);
        },
        os, "# -----", "// -----");
  } else {
    imported = importAndPrint(context, nullptr, os);
  }
  // Split, each part that imports is printed even if another does not,
  // as mlir-opt does: a test holds imported and refused models together.
  if (failed(imported) && !splitInputFile)
    return 1;
  if (failed(kiln::writeOutputFile(outputFilename, text, kToolName)))
    return 1;
  return succeeded(imported) ? 0 : 1;
}
