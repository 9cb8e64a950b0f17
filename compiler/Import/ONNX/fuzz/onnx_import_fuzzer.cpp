//===- onnx_import_fuzzer.cpp - libFuzzer target for the ONNX importer ----===//
//
// Imports each input as a model (ONNX's text format where it starts with
// '<', a binary protobuf otherwise), verifies and prints what it makes. A
// refusal is an answer; a crash, a sanitizer report or a verifier failure
// on a module the importer accepted is a finding.
//
//===----------------------------------------------------------------------===//

#include "Import/ONNX/Importer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    kiln::onnx_import::registerImportDialects(*result);
    return result;
  }();
  // A context per input: nothing one model interns reaches the next.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  // A path in no folder: external data the model names cannot be found.
  StringRef path = "/nonexistent/fuzz.onnx";
  auto contents = llvm::MemoryBuffer::getMemBufferCopy(
      StringRef(reinterpret_cast<const char *>(data), size), path);
  kiln::onnx_import::ImportOptions options;
  FailureOr<OwningOpRef<ModuleOp>> moduleOp =
      kiln::onnx_import::importONNXModel(&context, path, std::move(contents),
                                         options);
  if (failed(moduleOp))
    return 0;
  if (failed(verify(**moduleOp))) {
    llvm::errs() << "the importer made a module that does not verify\n";
    std::abort();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  kiln::onnx_import::printImportedProgram(**moduleOp, os, true);
  return 0;
}
