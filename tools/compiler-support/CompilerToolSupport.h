//===- CompilerToolSupport.h - what the compiler's tools share ----*- C++ -*-===//
//
// kiln-compile and kiln-import-onnx write their outputs the same way.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_COMPILERSUPPORT_COMPILERTOOLSUPPORT_H_
#define KILN_TOOLS_COMPILERSUPPORT_COMPILERTOOLSUPPORT_H_

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir::kiln {

/// Makes --version print "TOOL VERSION (module format N, LLVM X.Y.Z)".
void setVersionPrinter(StringRef toolName);

/// A file written through a temporary file beside it, renamed into place
/// when committed: a failed write (a full disk) or a failed compilation
/// leaves the old file, or none, never a truncated one. Errors are printed
/// as "TOOL: error: ...".
class PendingOutputFile {
public:
  static FailureOr<std::unique_ptr<PendingOutputFile>>
  create(StringRef path, StringRef toolName);
  /// Discards the temporary file unless committed.
  ~PendingOutputFile();

  raw_ostream &os() { return *stream; }
  /// Flushes, and renames the file into place if everything was written.
  LogicalResult commit();

private:
  PendingOutputFile(StringRef path, StringRef toolName,
                    llvm::sys::fs::TempFile temp);
  LogicalResult fail(const Twine &why);

  std::string path, toolName;
  llvm::sys::fs::TempFile temp;
  std::unique_ptr<llvm::raw_fd_ostream> stream;
  bool done = false;
};

/// Writes `bytes` to `path` ("-": stdout), through a PendingOutputFile.
LogicalResult writeOutputFile(StringRef path, StringRef bytes,
                              StringRef toolName);

} // namespace mlir::kiln

#endif // KILN_TOOLS_COMPILERSUPPORT_COMPILERTOOLSUPPORT_H_
