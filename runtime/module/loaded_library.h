//===- loaded_library.h - One native library loaded from memory ----*- C++ -*-===//
//
// A library image written to a memfd (or to a file perf can read) and
// dlopen'ed from there. Not a public header.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_LOADED_LIBRARY_H_
#define KILN_RUNTIME_MODULE_LOADED_LIBRARY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/executable_library.h"
#include "kiln/module.h"
#include "kiln/status.h"

namespace kiln {

/// A native library loaded with dlopen. Owns the handle and the file (a
/// memfd, or a file perf can read) it was loaded from: the fd stays open
/// while the library is loaded so that its /proc/PID/fd/N name cannot be
/// reused by another library (dlopen would return the already-loaded one for
/// an equal name).
class LoadedLibrary {
 public:
  LoadedLibrary() = default;
  ~LoadedLibrary();
  LoadedLibrary(LoadedLibrary&& other) noexcept;
  LoadedLibrary& operator=(LoadedLibrary&& other) noexcept;
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  /// Writes `data` to a memfd, or with a non-empty `perf_directory` to the
  /// file <hash>.so there (reused when its bytes are `data`), and dlopens
  /// it; checks the ABI version.
  static StatusOr<LoadedLibrary> Load(const uint8_t* data, size_t size,
                                      std::string_view debug_name,
                                      const std::string& perf_directory = {});

  const kiln_executable_library_v1_t& library() const { return *library_; }
  /// Where the dynamic loader placed the image: address 0 of the library
  /// (and of its LibraryLine offsets) is this address in the process.
  uintptr_t base() const { return base_; }

 private:
  void Reset();

  int fd_ = -1;
  uintptr_t base_ = 0;
  void* handle_ = nullptr;
  const kiln_executable_library_v1_t* library_ = nullptr;
};

/// Keeps `libraries` loaded, their files open, until the process exits (for
/// a tracer that ResolvesCodeLate).
void RetainUntilExit(std::vector<LoadedLibrary> libraries);

/// Where perf-visible libraries go (ModuleLoadOptions::perf_visible_libraries
/// or KILN_PERF=1): $KILN_PERF_DIR, else $XDG_CACHE_HOME/kiln/libraries,
/// else ~/.cache/kiln/libraries; "" when perf was not asked for.
StatusOr<std::string> PerfLibraryDirectory(const ModuleLoadOptions& options);

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_LOADED_LIBRARY_H_
