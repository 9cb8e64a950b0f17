//===- LinkerTool.cpp - ld.lld, the object to a shared object ------------===//

#include "Target/CPU/LinkerTool.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Program.h"

#include <string>

namespace mlir::kiln {
namespace {

/// ld.lld beside the LLVM tools kiln was built with (where Debian's lld-22
/// puts it), else on PATH.
FailureOr<std::string> findLinker(Location loc) {
  for (StringRef name : {"ld.lld-22", "ld.lld"}) {
    auto path = llvm::sys::findProgramByName(name, {KILN_LLVM_TOOLS_DIR});
    if (path)
      return *path;
    path = llvm::sys::findProgramByName(name);
    if (path)
      return *path;
  }
  return emitError(loc) << "cannot find ld.lld (install lld-22)";
}

} // namespace

LogicalResult linkSharedLibrary(Location loc, ArrayRef<StringRef> objectPaths,
                                StringRef libraryPath) {
  FailureOr<std::string> linkerPath = findLinker(loc);
  if (failed(linkerPath))
    return failure();
  SmallVector<StringRef> args = {*linkerPath,   "-shared", "--build-id=none",
                                 "-z",          "now",     "-z",
                                 "noexecstack", "-z",      "text",
                                 "-O2",         "-o",      libraryPath};
  llvm::append_range(args, objectPaths);
  std::string linkError;
  int status = llvm::sys::ExecuteAndWait(*linkerPath, args, std::nullopt, {},
                                         /*secondsToWait=*/0, 0, &linkError);
  if (status != 0)
    return emitError(loc) << "ld.lld failed (" << status << "): " << linkError;
  return success();
}

} // namespace mlir::kiln
