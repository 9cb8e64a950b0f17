//===- ExternalData.cpp - tensors stored beside an ONNX model -------------===//

#include "Import/ONNX/ExternalData.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mlir::kiln::onnx_import {

ExternalDataReader::ExternalDataReader(StringRef modelPath, Location loc)
    : modelPath(modelPath.str()), loc(loc) {}

FailureOr<std::string>
ExternalDataReader::read(const onnx::TensorProto &tensor) {
  auto fail = [&]() {
    return emitError(loc) << "tensor '" << tensor.name()
                          << "' stored as external data: ";
  };
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    uint64_t value = 0;
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      if (!llvm::to_integer(entry.value(), value, 10))
        return fail() << "its " << entry.key() << " '" << entry.value()
                      << "' is not a number";
      if (entry.key() == "offset")
        offset = value;
      else
        length = value;
    }
  }
  if (location.empty())
    return fail() << "no location names its file";
  if (modelPath.empty() || modelPath == "-")
    return fail() << "a model read from standard input has no folder to "
                     "find '"
                  << location << "' in";
  // Only files in the model's folder or below it: no absolute paths, no
  // `..`, and no symlink leading out.
  if (llvm::sys::path::is_absolute(location) ||
      llvm::any_of(llvm::make_range(llvm::sys::path::begin(location),
                                    llvm::sys::path::end(location)),
                   [](StringRef part) { return part == ".."; }))
    return fail() << "its file '" << location
                  << "' is not inside the model's folder";
  SmallString<256> folder(llvm::sys::path::parent_path(modelPath));
  if (folder.empty())
    folder = ".";
  SmallString<256> realFolder, realFile;
  SmallString<256> file(folder);
  llvm::sys::path::append(file, location);
  if (llvm::sys::fs::real_path(folder, realFolder))
    return fail() << "cannot resolve the model's folder '" << folder << "'";
  if (llvm::sys::fs::real_path(file, realFile))
    return fail() << "its file '" << file << "' does not exist";
  if (!StringRef(realFile).starts_with((realFolder + "/").str()))
    return fail() << "its file '" << file
                  << "' leads outside the model's folder";

  int fd = ::open(realFile.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return fail() << "cannot open '" << file << "': " << std::strerror(errno);
  struct stat status;
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(fd);
    return fail() << "'" << file << "' is not a regular file";
  }
  uint64_t size = status.st_size;
  uint64_t count = length.value_or(size > offset ? size - offset : 0);
  if (offset > size || count > size - offset) {
    ::close(fd);
    return fail() << "it asks for " << count << " bytes at offset " << offset
                  << " of '" << file << "', which holds " << size;
  }
  // Read, not mapped: a side file truncated while the compiler runs must
  // not fault.
  std::string bytes(count, '\0');
  uint64_t done = 0;
  while (done < count) {
    ssize_t got = ::pread(fd, bytes.data() + done, count - done, offset + done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      ::close(fd);
      return fail() << "cannot read '" << file << "'"
                    << (got < 0 ? std::string(": ") + std::strerror(errno)
                                : std::string(": it ended early"));
    }
    done += got;
  }
  ::close(fd);
  return bytes;
}

} // namespace mlir::kiln::onnx_import
