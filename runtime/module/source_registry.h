//===- source_registry.h - Source tables of the loaded modules ----*- C++ -*-===//
//
// Every loaded module links its source table here (an intrusive list: no
// allocation) for as long as it is loaded, so that providers can serve a
// text by name from any thread, including a profiler's own threads after
// main returns, and never touch an unloaded module: a lookup holds the
// registry lock, and unloading takes it. Kept by the modules (module.cc),
// read by the trace layer above them (ReadPublishedSource, kiln/trace.h).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_MODULE_SOURCE_REGISTRY_H_
#define KILN_RUNTIME_MODULE_SOURCE_REGISTRY_H_

#include <mutex>
#include <string_view>

#include "kiln/trace.h"

namespace kiln {

class SourceRegistry {
 public:
  /// A module's published sources with the registry's links, owned by the
  /// module (module/module_impl.h) so that linking allocates nothing.
  struct Entry {
    PublishedSources sources;
    Entry* previous = nullptr;
    Entry* next = nullptr;
  };

  /// The process's registry; never destroyed.
  static SourceRegistry& Global();

  /// Links `entry` in; no allocation.
  void Add(Entry* entry);
  /// Unlinks `entry`; returns once no lookup uses it any more.
  void Remove(Entry* entry);

  /// Calls `fn(file)` with the source file `path` of the most recently
  /// loaded module that has it, holding the registry lock (the module
  /// cannot unload meanwhile). Returns false when no loaded module has it.
  template <typename Fn>
  bool With(std::string_view path, Fn&& fn) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Entry* node = head_; node; node = node->next) {
      if (std::optional<SourceFileView> file =
              node->sources.table->Find(path)) {
        fn(*file);
        return true;
      }
    }
    return false;
  }

 private:
  SourceRegistry() = default;

  std::mutex mutex_;
  Entry* head_ = nullptr;
};

}  // namespace kiln

#endif  // KILN_RUNTIME_MODULE_SOURCE_REGISTRY_H_
