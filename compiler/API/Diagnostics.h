//===- Diagnostics.h - diagnostics as kiln's tools print them -----*- C++ -*-===//

#ifndef KILN_API_DIAGNOSTICS_H_
#define KILN_API_DIAGNOSTICS_H_

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::kiln {

/// Prints a diagnostic that names no position in a file to `os`: about a
/// file as a whole (at line 0, where the parser puts the module it wraps
/// around a file's ops, and where importers report about a model) as
/// "FILE: error: ...", and one without a location as "TOOL: error: ...",
/// not as "FILE:0:0:" and "<unknown>:0:". Its notes, and every other
/// diagnostic, go to `sourceMgrHandler`. Fails for the diagnostics it
/// leaves to it.
LogicalResult
printUnpositionedDiagnostic(Diagnostic &diag,
                            SourceMgrDiagnosticHandler &sourceMgrHandler,
                            StringRef toolName, raw_ostream &os);

} // namespace mlir::kiln

#endif // KILN_API_DIAGNOSTICS_H_
