//===- InputFiles.cpp - input files as the module names them -------------===//

#include "Capture/InputFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlir::kiln {

std::string getStoredPath(StringRef filename) {
  SmallString<256> path(filename);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  if (!path.empty() && *llvm::sys::path::begin(path) == "..") {
    // `<cwd>/../m.mlir`: the `..` goes again.
    if (!llvm::sys::fs::make_absolute(path))
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  }
  return path.str().str();
}

} // namespace mlir::kiln
