//===- CompilerToolSupport.cpp - what the compiler's tools share ----------===//

#include "CompilerToolSupport.h"

#include "kiln/module_format.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::kiln {

void setVersionPrinter(StringRef toolName) {
  static std::string name;
  name = toolName.str();
  llvm::cl::SetVersionPrinter([](raw_ostream& os) {
    os << name << " " KILN_VERSION " (module format " << KILN_MODULE_VERSION
       << ", LLVM " LLVM_VERSION_STRING ")\n";
  });
}

PendingOutputFile::PendingOutputFile(StringRef path, StringRef toolName,
                                     llvm::sys::fs::TempFile temp)
    : path(path.str()), toolName(toolName.str()), temp(std::move(temp)) {
  stream = std::make_unique<llvm::raw_fd_ostream>(this->temp.FD,
                                                  /*shouldClose=*/false);
}

FailureOr<std::unique_ptr<PendingOutputFile>>
PendingOutputFile::create(StringRef path, StringRef toolName) {
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp) {
    llvm::errs() << toolName << ": error: cannot write '" << path
                 << "': " << llvm::toString(temp.takeError()) << "\n";
    return failure();
  }
  return std::unique_ptr<PendingOutputFile>(
      new PendingOutputFile(path, toolName, std::move(*temp)));
}

PendingOutputFile::~PendingOutputFile() {
  if (done)
    return;
  stream.reset();
  llvm::consumeError(temp.discard());
}

LogicalResult PendingOutputFile::fail(const Twine &why) {
  llvm::errs() << toolName << ": error: cannot write '" << path
               << "': " << why << "\n";
  return failure();
}

LogicalResult PendingOutputFile::commit() {
  stream->flush();
  if (stream->has_error()) {
    // A stream's error, cleared: reported here, not as a crash at exit.
    std::error_code error = stream->error();
    stream->clear_error();
    return fail(error.message());
  }
  stream.reset();
  done = true;
  if (llvm::Error kept = temp.keep(path))
    return fail(llvm::toString(std::move(kept)));
  return success();
}

LogicalResult writeOutputFile(StringRef path, StringRef bytes,
                              StringRef toolName) {
  if (path == "-") {
    llvm::outs() << bytes;
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      std::error_code error = llvm::outs().error();
      llvm::outs().clear_error();
      llvm::errs() << toolName << ": error: cannot write '" << path
                   << "': " << error.message() << "\n";
      return failure();
    }
    return success();
  }
  FailureOr<std::unique_ptr<PendingOutputFile>> file =
      PendingOutputFile::create(path, toolName);
  if (failed(file))
    return failure();
  (*file)->os() << bytes;
  return (*file)->commit();
}

} // namespace mlir::kiln
