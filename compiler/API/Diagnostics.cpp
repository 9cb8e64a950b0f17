//===- Diagnostics.cpp - diagnostics as kiln's tools print them -----------===//

#include "API/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::kiln {

LogicalResult
printUnpositionedDiagnostic(Diagnostic &diag,
                            SourceMgrDiagnosticHandler &sourceMgrHandler,
                            StringRef toolName, raw_ostream &os) {
  Location loc = diag.getLocation();
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  if (!isa<UnknownLoc>(loc) && !(fileLoc && fileLoc.getLine() == 0))
    return failure();
  llvm::SourceMgr::DiagKind kind = llvm::SourceMgr::DK_Error;
  if (diag.getSeverity() == DiagnosticSeverity::Warning)
    kind = llvm::SourceMgr::DK_Warning;
  else if (diag.getSeverity() == DiagnosticSeverity::Remark)
    kind = llvm::SourceMgr::DK_Remark;
  else if (diag.getSeverity() == DiagnosticSeverity::Note)
    kind = llvm::SourceMgr::DK_Note;
  StringRef file = fileLoc ? fileLoc.getFilename().getValue() : "";
  llvm::SMDiagnostic(file, kind, diag.str())
      .print(fileLoc ? nullptr : toolName.str().c_str(), os);
  for (Diagnostic &note : diag.getNotes())
    sourceMgrHandler.emitDiagnostic(note.getLocation(), note.str(),
                                    note.getSeverity());
  return success();
}

} // namespace mlir::kiln
