//===- CompilerToolSupport.cpp - what the compiler's tools share ----------===//

#include "CompilerToolSupport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::kiln {

LogicalResult
printUnpositionedDiagnostic(Diagnostic &diag,
                            SourceMgrDiagnosticHandler &sourceMgrHandler,
                            StringRef toolName) {
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
      .print(fileLoc ? nullptr : toolName.str().c_str(), llvm::errs());
  for (Diagnostic &note : diag.getNotes())
    sourceMgrHandler.emitDiagnostic(note.getLocation(), note.str(),
                                    note.getSeverity());
  return success();
}

LogicalResult writeOutputFile(StringRef path, StringRef bytes,
                              StringRef toolName) {
  auto fail = [&](const Twine &why) {
    llvm::errs() << toolName << ": error: cannot write '" << path
                 << "': " << why << "\n";
    return failure();
  };
  // A stream's error, cleared: reported here, not as a crash at exit.
  auto takeError = [](llvm::raw_fd_ostream &os) {
    std::error_code error = os.error();
    os.clear_error();
    return error;
  };
  if (path == "-") {
    llvm::outs() << bytes;
    llvm::outs().flush();
    if (llvm::outs().has_error())
      return fail(takeError(llvm::outs()).message());
    return success();
  }
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp)
    return fail(llvm::toString(temp.takeError()));
  std::error_code error;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << bytes;
    os.flush();
    if (os.has_error())
      error = takeError(os);
  }
  if (error) {
    llvm::consumeError(temp->discard());
    return fail(error.message());
  }
  if (llvm::Error kept = temp->keep(path))
    return fail(llvm::toString(std::move(kept)));
  return success();
}

} // namespace mlir::kiln
