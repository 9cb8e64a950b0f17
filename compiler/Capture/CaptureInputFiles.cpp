//===- CaptureInputFiles.cpp - input files the exports name, embedded ------===//
//
// Reads the input files that export locations (and, from level 2, the
// provenance of each export) name, within limits that keep a location
// naming /etc/passwd, a binary or a 100 GB file from turning into a read
// of it, and attaches their texts to the module, where the serializer finds
// them with the captured stage texts.
//
//===----------------------------------------------------------------------===//

#include "Capture/InputFiles.h"
#include "Capture/Passes.h"
#include "Dialect/Kiln/IR/InputOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"

#include <map>

namespace mlir::kiln {
#define GEN_PASS_DEF_CAPTUREINPUTFILESPASS
#include "Capture/Passes.h.inc"

namespace {

/// Whether the real path `file` is under one of the real directories `dirs`.
bool isUnderDirectory(StringRef file, ArrayRef<std::string> dirs) {
  return llvm::any_of(dirs, [&](StringRef dir) {
    return file.starts_with(dir) &&
           (dir.ends_with("/") ||
            (file.size() > dir.size() && file[dir.size()] == '/'));
  });
}

/// Reads an input file for embedding if it is a regular text file within
/// `limit` bytes under one of the real directories `dirs`; otherwise warns
/// and returns nothing. Never reads more than `limit` bytes. Warnings about
/// what the file holds carry no location in it: showing its line would read
/// it whole, print bytes that are not text, or show a file nobody asked
/// to embed.
std::optional<std::string> readInputFile(FileLineColLoc loc, uint64_t limit,
                                         ArrayRef<std::string> dirs) {
  StringRef path = loc.getFilename();
  Location outsideFile = UnknownLoc::get(loc.getContext());
  // A diagnostic about the file as a whole ("FILE: warning: ...").
  Location wholeFile = FileLineColLoc::get(loc.getFilename(), 0, 0);
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) || !llvm::sys::fs::exists(status)) {
    emitWarning(loc) << "input file '" << path
                     << "' named by a location does not exist; not embedded";
    return std::nullopt;
  }
  // Symlinks resolved: a link in the input's directory may lead anywhere.
  SmallString<256> realPath;
  if (llvm::sys::fs::real_path(path, realPath) ||
      !isUnderDirectory(realPath, dirs)) {
    emitWarning(wholeFile) << "input file '" << path
                           << "', named by a location at line " << loc.getLine()
                           << ", is not under the input file's directory or an "
                              "--executable-embed-input-dir; not embedded";
    return std::nullopt;
  }
  if (!llvm::sys::fs::is_regular_file(status)) {
    emitWarning(outsideFile)
        << "input file '" << path << "' is not a regular file; not embedded";
    return std::nullopt;
  }
  if (status.getSize() > limit) {
    emitWarning(wholeFile) << "input file '" << path
                           << "', named by a location at line " << loc.getLine()
                           << ", is " << status.getSize()
                           << " bytes, above the " << limit
                           << "-byte limit; not embedded";
    return std::nullopt;
  }
  int fd = -1;
  SmallString<256> openedPath;
  if (llvm::sys::fs::openFileForRead(path, fd, llvm::sys::fs::OF_None,
                                     &openedPath)) {
    emitWarning(wholeFile) << "cannot read input file '" << path
                           << "'; not embedded";
    return std::nullopt;
  }
  llvm::scope_exit closeFile(
      [&] { llvm::sys::Process::SafelyCloseFileDescriptor(fd); });
  // What is read is what was checked, even if the file was replaced since
  // (by a symlink leading out, or by something larger).
  llvm::sys::fs::file_status opened;
  if (llvm::sys::fs::status(fd, opened) ||
      !llvm::sys::fs::is_regular_file(opened) || opened.getSize() > limit ||
      !isUnderDirectory(openedPath, dirs)) {
    emitWarning(wholeFile) << "input file '" << path
                           << "' changed while being read; not embedded";
    return std::nullopt;
  }
  // Read, not mapped: a file truncated meanwhile must not fault.
  auto buffer = llvm::MemoryBuffer::getOpenFileSlice(
      llvm::sys::fs::convertFDToNativeFile(fd), path, opened.getSize(), 0,
      /*IsVolatile=*/true);
  if (!buffer) {
    emitWarning(wholeFile) << "cannot read input file '" << path
                           << "'; not embedded";
    return std::nullopt;
  }
  StringRef text = (*buffer)->getBuffer();
  if (text.contains('\0')) {
    emitWarning(outsideFile)
        << "input file '" << path << "' is binary; not embedded";
    return std::nullopt;
  }
  warnIfAboveProfilerSourceSizeLimit(loc, "input file", path, text.size());
  return text.str();
}

struct CaptureInputFilesPass
    : impl::CaptureInputFilesPassBase<CaptureInputFilesPass> {
  using CaptureInputFilesPassBase::CaptureInputFilesPassBase;

  void runOnOperation() override {
    ModuleOp moduleOp = getOperation();
    // Stored path -> first location naming it (read by its own spelling).
    std::map<std::string, FileLineColLoc> referencedFiles;
    auto reference = [&](Location loc) {
      if (std::optional<FileLineColLoc> fileLoc = findFileLoc(loc))
        referencedFiles.try_emplace(getStoredPath(fileLoc->getFilename()),
                                    *fileLoc);
    };
    moduleOp.walk([&](ExecutableExportOp exportOp) {
      if (debugLevel >= 1)
        reference(exportOp.getLoc());
      if (debugLevel >= 2)
        if (auto provenance =
                exportOp->getAttrOfType<ArrayAttr>(kProvenanceAttrName))
          for (Attribute entry : provenance)
            if (auto loc = dyn_cast<LocationAttr>(entry))
              reference(loc);
    });
    // Compared by real path: "." and a symlink to the input's directory
    // name it too.
    std::vector<std::string> realDirs;
    for (const std::string &dir : dirs) {
      SmallString<256> realDir;
      if (!llvm::sys::fs::real_path(dir, realDir))
        realDirs.push_back(realDir.str().str());
    }
    Builder builder(&getContext());
    // Texts the front end made (an imported model's program) are there
    // already, and no file holds them.
    SmallVector<NamedAttribute> files;
    if (auto given = moduleOp->getAttrOfType<DictionaryAttr>(kInputFilesAttrName))
      llvm::append_range(files, given.getValue());
    for (auto &[path, loc] : referencedFiles) {
      if (llvm::any_of(files, [&](NamedAttribute file) {
            return file.getName().getValue() == path;
          }))
        continue;
      std::optional<std::string> text = readInputFile(loc, limit, realDirs);
      if (!text)
        continue;
      auto type = RankedTensorType::get({static_cast<int64_t>(text->size())},
                                        builder.getIntegerType(8));
      files.push_back(builder.getNamedAttr(
          path, DenseResourceElementsAttr::get(
                    type, path,
                    HeapAsmResourceBlob::allocateAndCopyInferAlign(
                        ArrayRef<char>(text->data(), text->size())))));
    }
    if (!files.empty())
      moduleOp->setAttr(kInputFilesAttrName, builder.getDictionaryAttr(files));
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::kiln
