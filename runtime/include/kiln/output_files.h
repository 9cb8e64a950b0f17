//===- output_files.h - How kiln's tools write files ---------------*- C++ -*-===//
//
// Every file a tool writes appears whole or not at all: it is written to a
// temporary file in its directory and renamed into place, so a full disk
// leaves no truncated file. Files a module names (extracted sources, dumped
// dispatches) are written below a directory the user chose, each component
// opened relative to its parent without following symlinks, and never over
// an existing file unless the user asked for that.
//
// Part of kiln_runtime: besides the tools' files, the runtime writes the
// library files perf reads (ModuleLoadOptions::perf_visible_libraries).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_OUTPUT_FILES_H_
#define KILN_OUTPUT_FILES_H_

#include <sys/types.h>

#include <string>
#include <string_view>

#include "kiln/file_descriptor.h"
#include "kiln/status.h"

namespace kiln {

/// Writes `data` to `path`, replacing whatever file is there: through a
/// temporary file beside it, synced, then renamed over `path`. On failure
/// the old file (or none) is left, and no temporary file; a symlink at
/// `path` is replaced, not followed. Errors name `path`.
Status WriteFileAtomically(const std::string& path, std::string_view data);

/// Most directories a written path may go down (DIR/a/b/c.mlir goes down
/// 2).
inline constexpr int kMaxOutputPathDepth = 64;

/// `path` as written below a directory: leading '/'s dropped (an absolute
/// path lands below it), empty and "." components dropped. Refuses what
/// could name something outside the directory or hidden in it: an empty
/// path, a NUL byte, a '..' component, a component starting with '.' (such
/// as ".bashrc" or ".ssh/"), a path naming a directory; and what could not
/// be shown or used afterwards: characters Printable escapes (newline, ESC,
/// bidi overrides), more than kMaxOutputPathDepth directories, PATH_MAX
/// bytes or more.
StatusOr<std::string> NormalizeRelativePath(std::string_view path);

/// What OutputDirectory::WriteFile does when the file exists.
enum class IfFileExists {
  kFail,     // a FailedPrecondition error; the file is untouched
  kReplace,  // replaced as a whole (never written through: it may be a
             // hard link)
};

/// A directory that files named by a module are written below.
class OutputDirectory {
 public:
  /// Opens the directory `path`, creating it and its parents when missing.
  static StatusOr<OutputDirectory> OpenOrCreate(const std::string& path);
  /// Creates the directory `path` (and its missing parents); an existing
  /// `path`, of any kind, is an error, so that the directory holds only
  /// what is written through it.
  static StatusOr<OutputDirectory> CreateNew(const std::string& path);

  /// Writes `data` to `relative` (normalized by NormalizeRelativePath)
  /// below the directory, creating the directories on the way. No symlink
  /// is followed, whether planted before or during the write. Errors name
  /// the file as FilePath does. The file gets `mode` less the umask (0666:
  /// whatever the umask allows; 0644: never writable by others).
  Status WriteFile(std::string_view relative, std::string_view data,
                   IfFileExists if_exists, mode_t mode = 0666) const;

  /// `relative` (already normalized) as a path from the current directory.
  std::string FilePath(std::string_view relative) const;
  const std::string& path() const { return path_; }

 private:
  OutputDirectory(std::string path, FileDescriptor fd)
      : path_(std::move(path)), fd_(std::move(fd)) {}

  std::string path_;
  FileDescriptor fd_;
};

}  // namespace kiln

#endif  // KILN_OUTPUT_FILES_H_
