//===- output_files.cc - How kiln's tools write files ---------------------===//

#include "kiln/output_files.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <filesystem>

#include "kiln/printable.h"

namespace kiln {
namespace {

Status WriteAll(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "write failed");
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

/// Creates a file for writing in the directory `dir` under a new name:
/// hidden, after `name` (so a leftover shows what it was for), never one a
/// normalized relative path can take. `mode` is less the umask.
StatusOr<FileDescriptor> CreateTemporaryFile(int dir, std::string_view name,
                                             std::string* temp_name,
                                             mode_t mode = 0666) {
  static std::atomic<uint64_t> counter{0};
  constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (int attempt = 0; attempt < 100; ++attempt) {
    uint64_t bits = 0;
    if (::getrandom(&bits, sizeof(bits), 0) !=
        static_cast<ssize_t>(sizeof(bits))) {
      bits = (uint64_t(::getpid()) << 32) ^ counter.fetch_add(1);
    }
    // A name of at most 64 + 16 bytes, far below NAME_MAX.
    std::string temp = StrCat(".", name.substr(0, 64), ".kiln-");
    for (int i = 0; i < 10; ++i, bits /= 36) temp.push_back(kDigits[bits % 36]);
    FileDescriptor fd(
        ::openat(dir, temp.c_str(),
                 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode));
    if (fd.get() >= 0) {
      *temp_name = std::move(temp);
      return fd;
    }
    if (errno != EEXIST) return ErrnoToStatus(errno, "cannot create a file");
  }
  return ErrnoToStatus(EEXIST, "cannot create a file");
}

/// Gives the temporary file `temp` in `dir` its final `name`.
Status MoveIntoPlace(int dir, const std::string& temp, const std::string& name,
                     IfFileExists if_exists, const std::string& shown) {
  if (if_exists == IfFileExists::kReplace) {
    if (::renameat(dir, temp.c_str(), dir, name.c_str()) == 0) {
      return OkStatus();
    }
    return ErrnoToStatus(errno, StrCat("cannot write '", shown, "'"));
  }
  if (::renameat2(dir, temp.c_str(), dir, name.c_str(), RENAME_NOREPLACE) ==
      0) {
    return OkStatus();
  }
  // File systems without RENAME_NOREPLACE: link() too creates a name only
  // where there is none.
  if (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) {
    if (::linkat(dir, temp.c_str(), dir, name.c_str(), 0) == 0) {
      ::unlinkat(dir, temp.c_str(), 0);
      return OkStatus();
    }
  }
  if (errno == EEXIST) return FailedPreconditionError("'", shown, "' exists");
  return ErrnoToStatus(errno, StrCat("cannot write '", shown, "'"));
}

/// Writes `data` as the file `name` in the directory `dir` through a
/// temporary file; `shown` names it in errors.
Status WriteInDirectory(int dir, const std::string& name, std::string_view data,
                        IfFileExists if_exists, const std::string& shown,
                        mode_t mode = 0666) {
  std::string temp;
  StatusOr<FileDescriptor> created =
      CreateTemporaryFile(dir, name, &temp, mode);
  if (!created.ok()) {
    return std::move(created).status().Prepend(
        StrCat("cannot write '", shown, "'"));
  }
  FileDescriptor file = std::move(created).value();
  Status status = WriteAll(file.get(), data);
  // A file that replaces another is synced first: a crash must not leave
  // it empty where the old one was whole.
  if (status.ok() && if_exists == IfFileExists::kReplace &&
      ::fsync(file.get()) != 0) {
    status = ErrnoToStatus(errno, "sync failed");
  }
  // Some file systems report a full disk only here.
  if (file.Close() != 0 && status.ok()) {
    status = ErrnoToStatus(errno, "write failed");
  }
  if (status.ok()) {
    status = MoveIntoPlace(dir, temp, name, if_exists, shown);
  } else {
    status.Prepend(StrCat("cannot write '", shown, "'"));
  }
  if (!status.ok()) ::unlinkat(dir, temp.c_str(), 0);
  return status;
}

}  // namespace

Status WriteFileAtomically(const std::string& path, std::string_view data) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") {
    return InvalidArgumentError("cannot write '", path,
                                "': it names a directory");
  }
  FileDescriptor dir_fd(
      ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() < 0) {
    return ErrnoToStatus(errno, StrCat("cannot write '", path, "'"));
  }
  return WriteInDirectory(dir_fd.get(), name, data, IfFileExists::kReplace,
                          path);
}

StatusOr<std::string> NormalizeRelativePath(std::string_view path) {
  if (path.empty()) return InvalidArgumentError("empty path");
  if (path.find('\0') != std::string_view::npos) {
    return InvalidArgumentError("path contains a NUL byte");
  }
  // A name the tools escape to show it (a newline, ESC, a bidi override)
  // forges lines and terminal output wherever it is listed later.
  if (const std::string shown = Printable(path); shown != path) {
    return InvalidArgumentError("path holds control characters ('", shown,
                                "')");
  }
  if (path.back() == '/') {
    return InvalidArgumentError("path names a directory");
  }
  std::string normal;
  // Directories on the way, then the file.
  int depth = -1;
  for (size_t begin = 0; begin <= path.size();) {
    size_t end = path.find('/', begin);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view component = path.substr(begin, end - begin);
    begin = end + 1;
    if (component.empty() || component == ".") continue;
    if (component == "..") {
      return InvalidArgumentError("'..' component would leave the directory");
    }
    if (component.front() == '.') {
      return InvalidArgumentError("'", component,
                                  "' is a hidden name (it starts with '.')");
    }
    if (!normal.empty()) normal.push_back('/');
    normal.append(component);
    if (++depth > kMaxOutputPathDepth) {
      return InvalidArgumentError("path is more than ", kMaxOutputPathDepth,
                                  " directories deep");
    }
  }
  if (normal.empty()) return InvalidArgumentError("path names a directory");
  // Longer, the file could be written (each directory is opened relative
  // to its parent) but not named afterwards.
  if (normal.size() >= PATH_MAX) {
    return InvalidArgumentError("path is ", normal.size(),
                                " bytes long, more than the system's limit "
                                "of ",
                                PATH_MAX - 1);
  }
  return normal;
}

StatusOr<OutputDirectory> OutputDirectory::OpenOrCreate(
    const std::string& path) {
  if (path.empty()) return InvalidArgumentError("no directory given");
  std::error_code error;
  std::filesystem::create_directories(path, error);  // like mkdir -p
  if (error) {
    return ErrnoToStatus(error.value(), StrCat("cannot create '", path, "'"));
  }
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) {
    return ErrnoToStatus(errno, StrCat("cannot open '", path, "'"));
  }
  return OutputDirectory(path, std::move(fd));
}

StatusOr<OutputDirectory> OutputDirectory::CreateNew(const std::string& path) {
  if (path.empty()) return InvalidArgumentError("no directory given");
  // "d/" is "d": its parent is ".", not "d".
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const std::filesystem::path parent =
      std::filesystem::path(trimmed).parent_path();
  if (!parent.empty()) {
    std::error_code error;
    std::filesystem::create_directories(parent, error);
    if (error) {
      return ErrnoToStatus(error.value(),
                           StrCat("cannot create '", parent.string(), "'"));
    }
  }
  if (::mkdir(trimmed.c_str(), 0755) != 0) {
    if (errno == EEXIST) {
      return FailedPreconditionError(
          "'", path, "' exists; give a directory that does not exist yet");
    }
    return ErrnoToStatus(errno, StrCat("cannot create '", path, "'"));
  }
  // Opened without following: a symlink put in its place since is refused.
  FileDescriptor fd(
      ::open(trimmed.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) {
    return ErrnoToStatus(errno, StrCat("cannot open '", path, "'"));
  }
  return OutputDirectory(path, std::move(fd));
}

std::string OutputDirectory::FilePath(std::string_view relative) const {
  std::string file = path_;
  if (file.back() != '/') file.push_back('/');
  file.append(relative);
  return file;
}

Status OutputDirectory::WriteFile(std::string_view relative,
                                  std::string_view data, IfFileExists if_exists,
                                  mode_t mode) const {
  KILN_ASSIGN_OR_RETURN(std::string normal, NormalizeRelativePath(relative));
  // Each directory on the way is opened relative to its parent without
  // following a symlink, so none can lead outside, whenever it was planted.
  FileDescriptor opened;
  int dir = fd_.get();
  size_t begin = 0;
  for (size_t slash; (slash = normal.find('/', begin)) != std::string::npos;
       begin = slash + 1) {
    const std::string component = normal.substr(begin, slash - begin);
    const std::string shown =
        FilePath(std::string_view(normal).substr(0, slash));
    if (::mkdirat(dir, component.c_str(), 0755) != 0 && errno != EEXIST) {
      return ErrnoToStatus(errno,
                           StrCat("cannot create directory '", shown, "'"));
    }
    FileDescriptor next(
        ::openat(dir, component.c_str(),
                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (next.get() < 0) {
      if (errno == ELOOP || errno == ENOTDIR) {
        return InvalidArgumentError(
            "'", shown, "' exists and is a symlink or not a directory");
      }
      return ErrnoToStatus(errno,
                           StrCat("cannot open directory '", shown, "'"));
    }
    opened = std::move(next);
    dir = opened.get();
  }
  return WriteInDirectory(dir, normal.substr(begin), data, if_exists,
                          FilePath(normal), mode);
}

}  // namespace kiln
