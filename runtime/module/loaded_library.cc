//===- loaded_library.cc - One native library loaded from memory ----------===//
//
// Each Library blob is written to an anonymous memfd and dlopen'ed through
// /proc/PID/fd/N, so nothing touches the file system; for perf
// (ModuleLoadOptions::perf_visible_libraries, KILN_PERF=1) it is a file on
// disk instead, which perf reads after the process exits. The image is
// checked first (elf_image.h), and the library must answer
// kiln_executable_library_query for ABI version 2.
//
//===----------------------------------------------------------------------===//

#include "module/loaded_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "kiln/file_descriptor.h"
#include "kiln/output_files.h"
#include "kiln/sources.h"
#include "module/elf_image.h"

namespace kiln {

namespace {

// The dynamic loader knows a library by its path string first, and an object
// may outlive its dlclose (RTLD_NODELETE, or a profiler such as Tracy that
// makes dlclose a no-op): dlopen of a reused /proc/PID/fd/N would then
// return the old code. So each load spells the path differently: the load's
// number in binary as no-op segments, "./" for 1 and "/" for 0, between
// "fd/" and N (load 6 of fd 5: "/proc/PID/fd/././/5"). A new memfd is a new
// inode, so the loader's second test (device and inode) finds nothing
// either. The directory is /proc/PID, not /proc/self: a debugger reads the
// library by the name the loader records, and /proc/self there would be
// the debugger's own descriptor (gdb blocks reading a pipe of its own).
std::string UniqueLibraryPath(int fd) {
  static std::atomic<uint64_t> next_load{0};
  const uint64_t load = next_load.fetch_add(1, std::memory_order_relaxed);
  std::string path = StrCat("/proc/", ::getpid(), "/fd/");
  for (int bit = 63 - (load ? __builtin_clzll(load) : 64); bit >= 0; --bit) {
    path += (load >> bit) & 1 ? "./" : "/";
  }
  path += std::to_string(fd);
  return path;
}

Status WriteAll(int fd, const uint8_t* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoToStatus(errno, "cannot write library to memfd");
    }
    done += static_cast<size_t>(n);
  }
  return OkStatus();
}

}  // namespace

LoadedLibrary::~LoadedLibrary() { Reset(); }

LoadedLibrary::LoadedLibrary(LoadedLibrary&& other) noexcept
    : fd_(other.fd_),
      base_(other.base_),
      handle_(other.handle_),
      library_(other.library_) {
  other.fd_ = -1;
  other.base_ = 0;
  other.handle_ = nullptr;
  other.library_ = nullptr;
}

LoadedLibrary& LoadedLibrary::operator=(LoadedLibrary&& other) noexcept {
  if (this != &other) {
    Reset();
    std::swap(fd_, other.fd_);
    std::swap(base_, other.base_);
    std::swap(handle_, other.handle_);
    std::swap(library_, other.library_);
  }
  return *this;
}

void RetainUntilExit(std::vector<LoadedLibrary> libraries) {
  static std::mutex* mutex = new std::mutex();
  // Never destroyed: a profiler's thread may read them during exit.
  static std::vector<LoadedLibrary>* retained =
      new std::vector<LoadedLibrary>();
  std::lock_guard<std::mutex> lock(*mutex);
  for (LoadedLibrary& library : libraries) {
    retained->push_back(std::move(library));
  }
}

void LoadedLibrary::Reset() {
  // dlclose before closing the fd, whose number names the mapped file.
  if (handle_) dlclose(handle_);
  if (fd_ >= 0) ::close(fd_);
  handle_ = nullptr;
  fd_ = -1;
  base_ = 0;
  library_ = nullptr;
}

namespace {

// Opens `path` and returns its descriptor when the file holds exactly
// `data`, or none when it is missing or holds other bytes. The descriptor,
// not the name, is what gets loaded, so a file replaced after the
// comparison changes nothing; the file must be this user's and writable by
// no one else, who could otherwise rewrite its pages after the comparison.
StatusOr<std::optional<FileDescriptor>> OpenIfHolds(const std::string& path,
                                                    const uint8_t* data,
                                                    size_t size) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return std::optional<FileDescriptor>();
    return ErrnoToStatus(errno, StrCat("cannot open '", path, "'"));
  }
  struct stat info;
  if (::fstat(fd.get(), &info) != 0) {
    return ErrnoToStatus(errno, StrCat("cannot stat '", path, "'"));
  }
  if (!S_ISREG(info.st_mode) || info.st_uid != ::geteuid() ||
      (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return FailedPreconditionError(
        "'", path,
        "' is not a regular file of this user writable only by "
        "it: remove it");
  }
  if (static_cast<uint64_t>(info.st_size) != size) {
    return std::optional<FileDescriptor>();
  }
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (mapped == MAP_FAILED) {
    return ErrnoToStatus(errno, StrCat("cannot map '", path, "'"));
  }
  const bool same = std::memcmp(mapped, data, size) == 0;
  ::munmap(mapped, size);
  if (!same) return std::optional<FileDescriptor>();
  return std::optional<FileDescriptor>(std::move(fd));
}

// A descriptor of <hash>.so in `directory` holding `data`, written there
// first when missing (or holding other bytes: a hash collision or a damaged
// file is replaced).
StatusOr<FileDescriptor> OpenPerfLibraryFile(const std::string& directory,
                                             const uint8_t* data, size_t size) {
  KILN_ASSIGN_OR_RETURN(OutputDirectory out,
                        OutputDirectory::OpenOrCreate(directory));
  // FormatHash's digits without its "0x".
  const std::string name =
      StrCat(FormatHash(HashSource(data, size)).substr(2), ".so");
  const std::string path = out.FilePath(name);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  KILN_ASSIGN_OR_RETURN(std::optional<FileDescriptor> fd,
                        OpenIfHolds(path, data, size));
  for (IfFileExists if_exists : {IfFileExists::kFail, IfFileExists::kReplace}) {
    if (fd) return std::move(*fd);
    // Writable by this user alone whatever the umask (002 lets the group
    // write), as OpenIfHolds requires.
    Status written = out.WriteFile(name, bytes, if_exists, 0644);
    // Written meanwhile by another process loading the same library.
    if (!written.ok() && written.code() != StatusCode::kFailedPrecondition) {
      return written;
    }
    KILN_ASSIGN_OR_RETURN(fd, OpenIfHolds(path, data, size));
  }
  if (fd) return std::move(*fd);
  return DataLossError("'", path, "' does not hold the library just written");
}

}  // namespace

StatusOr<LoadedLibrary> LoadedLibrary::Load(const uint8_t* data, size_t size,
                                            std::string_view debug_name,
                                            const std::string& perf_directory) {
  KILN_RETURN_IF_ERROR(CheckElfImage(data, size));
  LoadedLibrary loaded;
  if (!perf_directory.empty()) {
    KILN_ASSIGN_OR_RETURN(FileDescriptor file,
                          OpenPerfLibraryFile(perf_directory, data, size));
    loaded.fd_ = file.Release();
  } else {
    // memfd names are limited to 249 bytes.
    const std::string memfd_name(debug_name.substr(0, 200));
    loaded.fd_ = memfd_create(memfd_name.c_str(), MFD_CLOEXEC);
    if (loaded.fd_ < 0) return ErrnoToStatus(errno, "memfd_create failed");
    KILN_RETURN_IF_ERROR(WriteAll(loaded.fd_, data, size));
  }

  const std::string path = UniqueLibraryPath(loaded.fd_);
  loaded.handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded.handle_) {
    const char* error = dlerror();
    return FailedPreconditionError("dlopen failed: ",
                                   error ? error : "unknown error");
  }
  struct link_map* map = nullptr;
  if (dlinfo(loaded.handle_, RTLD_DI_LINKMAP, &map) != 0 || !map) {
    const char* error = dlerror();
    return FailedPreconditionError("dlinfo failed: ",
                                   error ? error : "unknown error");
  }
  loaded.base_ = static_cast<uintptr_t>(map->l_addr);
  auto query = reinterpret_cast<kiln_executable_library_query_fn_t>(
      dlsym(loaded.handle_, KILN_EXECUTABLE_LIBRARY_QUERY_NAME));
  if (!query) {
    return InvalidArgumentError("no symbol '" KILN_EXECUTABLE_LIBRARY_QUERY_NAME
                                "'");
  }
  const kiln_executable_library_header_t** header_ptr =
      query(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST, nullptr);
  if (!header_ptr || !*header_ptr) {
    return UnimplementedError(
        "library cannot serve executable library ABI version ",
        static_cast<int>(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST),
        " (a module compiled by an older kiln: recompile it with this one)");
  }
  const uint32_t version = (*header_ptr)->version;
  if (version != KILN_EXECUTABLE_LIBRARY_VERSION_LATEST) {
    return UnimplementedError(
        "library answered with ABI version ", version,
        " (this runtime supports version ",
        static_cast<int>(KILN_EXECUTABLE_LIBRARY_VERSION_LATEST), ")");
  }
  // The query returns a pointer to the header pointer, which is the first
  // member of the versioned library structure.
  loaded.library_ =
      reinterpret_cast<const kiln_executable_library_v1_t*>(header_ptr);
  const kiln_export_table_v1_t& exports = loaded.library_->exports;
  if (exports.count > 0 &&
      (!exports.ptrs || !exports.names || !exports.descriptors)) {
    return InvalidArgumentError("export table has ", exports.count,
                                " entries but null arrays");
  }
  return loaded;
}

StatusOr<std::string> PerfLibraryDirectory(const ModuleLoadOptions& options) {
  const char* requested = std::getenv("KILN_PERF");
  if (!options.perf_visible_libraries &&
      !(requested && std::string_view(requested) == "1")) {
    return std::string();
  }
  if (const char* dir = std::getenv("KILN_PERF_DIR"); dir && *dir) {
    return std::string(dir);
  }
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache) {
    return StrCat(cache, "/kiln/libraries");
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return StrCat(home, "/.cache/kiln/libraries");
  }
  return FailedPreconditionError(
      "libraries visible to perf need a directory: set KILN_PERF_DIR (or "
      "XDG_CACHE_HOME or HOME)");
}

}  // namespace kiln
