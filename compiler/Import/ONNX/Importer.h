//===- Importer.h - ONNX models to kiln input programs ------------*- C++ -*-===//
//
// The ONNX front end: a model file in, a program of func, linalg, tensor,
// arith and math ops out, which kiln-compile then compiles as it would a
// hand-written one. The program is printed to a text (deterministic, its
// weights after the functions so that they never move a line), and every
// op's location names the node it stands for and points at its own line in
// that text: the text is the input program that provenance, traces and
// profiles refer to.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORT_ONNX_IMPORTER_H_
#define KILN_IMPORT_ONNX_IMPORTER_H_

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::kiln::onnx_import {

struct ImportOptions {
  /// The name of the imported text, which locations point into: by default
  /// the model's path with `.mlir` appended.
  std::string textPath;
  /// The name of the function the graph becomes.
  std::string functionName = "main";
};

/// Reads the model file at `path` as the importer does (a regular file
/// only: a FIFO is refused, not waited on). Errors name the file.
FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readONNXModelFile(MLIRContext *context, StringRef path);

/// Imports the model at `path` (read from `contents` when given, freed
/// once parsed). Errors, reported on `context`, name the file, or the node
/// at fault.
FailureOr<OwningOpRef<ModuleOp>>
importONNXModel(MLIRContext *context, StringRef path,
                std::unique_ptr<llvm::MemoryBuffer> contents,
                const ImportOptions &options);

/// Prints the model as the importer reads it, in ONNX's text format:
/// converted to the library's newest opset, ops defined as functions of
/// other ops expanded, every value typed by shape inference.
LogicalResult printLoadedONNXModel(MLIRContext *context, StringRef path,
                                   std::unique_ptr<llvm::MemoryBuffer> contents,
                                   raw_ostream &os);

/// Prints an imported program as its locations expect. `withWeights`: the
/// weights' bytes follow the program, which then compiles on its own;
/// otherwise only their names and types show (the embedded text).
void printImportedProgram(ModuleOp moduleOp, raw_ostream &os,
                          bool withWeights);

/// The dialects the importer builds with.
void registerImportDialects(DialectRegistry &registry);

} // namespace mlir::kiln::onnx_import

#endif // KILN_IMPORT_ONNX_IMPORTER_H_
