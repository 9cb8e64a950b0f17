//===- Compiler.h - the compiler as a library --------------------*- C++ -*-===//
//
// What kiln-compile does with a file, for any caller (the tool, the Python
// package): read a program or a model, compile it with options that are
// this call's own (no process-wide flags), and report errors as the tool
// prints them. Each compile uses the MLIRContext it is given; compiles on
// contexts of their own may run in several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_API_COMPILER_H_
#define KILN_API_COMPILER_H_

#include "Pipeline/Pipeline.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir::kiln {

/// A context with every dialect kiln compiles loaded, whose errors do not
/// dump the op they are about (a user reads the input's line instead),
/// ready for compiles run with runReportingOutOfMemory.
std::unique_ptr<MLIRContext> createCompilerContext();

/// Whether `path` names a model file (ONNX) rather than a program's text.
bool isModelPath(StringRef path);

/// The module name of the input at `path`: its stem as an identifier.
std::string getModuleName(StringRef path);

/// "<name>-<hash>": the module name and 8 hex digits of a hash of the input
/// and of every option that changes the code, so that captured texts of two
/// different builds never share a path.
std::string getSourcePrefix(StringRef moduleName, StringRef input,
                            const CompileOptions &options);

/// `options` for compiling `input`, the contents of `path`: the module
/// name and source prefix come from them, and files under the input's
/// directory may be embedded.
CompileOptions getInputCompileOptions(CompileOptions options, StringRef path,
                                      StringRef input);

/// Checks what a compile cannot start with (a debug level out of range, an
/// unknown CPU or stage, an embed directory that is not one), printing
/// "TOOL: error: --FLAG ..." to `errors`, and warns there about options
/// that have no effect.
LogicalResult verifyCompileOptions(const CompileOptions &options,
                                   raw_ostream &errors, StringRef toolName);

/// Reads the input at `path` ("-": stdin) as compileInput takes it; a model
/// as the importer reads it (a FIFO is refused, not waited on).
FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
readCompilerInput(MLIRContext &context, StringRef path, raw_ostream &errors,
                  StringRef toolName);

/// Compiles `input`, the contents of `path` (a program's text, or a model
/// when isModelPath), into `os`: a module, or the IR at
/// `options.compileTo`, with getInputCompileOptions. Diagnostics are printed to
/// `diagnostics` as kiln-compile prints them ("FILE:LINE:COL: error: ...").
LogicalResult compileInput(MLIRContext &context,
                           std::unique_ptr<llvm::MemoryBuffer> input,
                           StringRef path, CompileOptions options,
                           raw_ostream &os, raw_ostream &diagnostics,
                           StringRef toolName);

/// Parses the program in the main buffer of `sourceMgr` (refusing one
/// nested deeper than the compiler recurses safely) and compiles it with
/// `options` as given into `os`; diagnostics go to the handlers registered
/// on `context`.
LogicalResult compileSource(llvm::SourceMgr &sourceMgr, MLIRContext &context,
                            const CompileOptions &options, raw_ostream &os);

} // namespace mlir::kiln

#endif // KILN_API_COMPILER_H_
