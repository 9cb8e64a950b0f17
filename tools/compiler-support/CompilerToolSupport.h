//===- CompilerToolSupport.h - what the compiler's tools share ----*- C++ -*-===//
//
// kiln-compile and kiln-import-onnx report errors and write their outputs
// the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMPILERSUPPORT_COMPILERTOOLSUPPORT_H_
#define KILN_TOOLS_COMPILERSUPPORT_COMPILERTOOLSUPPORT_H_

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

namespace mlir::kiln {

/// Prints a diagnostic that names no position in a file: about a file as a
/// whole (at line 0, where the parser puts the module it wraps around a
/// file's ops, and where importers report about a model) as
/// "FILE: error: ...", and one without a location as "TOOL: error: ...", not
/// as "FILE:0:0:" and "<unknown>:0:". Its notes, and every other diagnostic,
/// go to `sourceMgrHandler`. Fails for the diagnostics it leaves to it.
LogicalResult
printUnpositionedDiagnostic(Diagnostic &diag,
                            SourceMgrDiagnosticHandler &sourceMgrHandler,
                            StringRef toolName);

/// Writes `bytes` to `path` ("-": stdout) through a temporary file renamed
/// into place: a failed write (a full disk) leaves the old file, or none,
/// never a truncated one. Errors are printed as "TOOL: error: ...".
LogicalResult writeOutputFile(StringRef path, StringRef bytes,
                              StringRef toolName);

} // namespace mlir::kiln

#endif // KILN_TOOLS_COMPILERSUPPORT_COMPILERTOOLSUPPORT_H_
