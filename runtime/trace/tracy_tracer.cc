//===- tracy_tracer.cc - Zones and embedded sources for Tracy -------------===//
//
// Built only when find_package(Tracy CONFIG) finds the Tracy client. Zones
// carry the export name and the file:line of the chosen stage text; when
// the Tracy viewer asks for a file it does not have, the source callback
// answers from the loaded modules' embedded texts (decompressed into a
// buffer from Tracy's allocator, which Tracy frees), then from the texts of
// modules unloaded since, and returns null for any other name. The callback
// runs on Tracy's threads, possibly after main returns: it goes through the
// source registry, which is never destroyed and refuses texts of unloaded
// modules, and through the retained copies below, never destroyed either.
//
// Tracy asks for a zone's file once, when the capture first sees the zone's
// source location: after a short run has unloaded its module (kiln-run
// unloads before main returns; TRACY_NO_EXIT then keeps the process for
// Tracy). So a module's stored (compressed) texts are copied when it
// unloads, and decompressed (hash checked) only if Tracy asks. Sampled
// frames are symbolized as late, from the library's file and DWARF, so the
// runtime keeps libraries mapped until exit (ResolvesCodeLate).
//
//===----------------------------------------------------------------------===//

#include <tracy/TracyC.h>

#include <mutex>
#include <string>
#include <string_view>
#include <tracy/Tracy.hpp>
#include <unordered_map>

#include "kiln/module_format.h"
#include "kiln/sources.h"
#include "trace/providers.h"

namespace kiln {
namespace {

char* AllocateForTracy(size_t size) {
  return static_cast<char*>(tracy::tracy_malloc_fast(size));
}

/// Source files of unloaded modules, by path (a later unload replaces an
/// earlier one of the same path). Never destroyed.
class RetainedSources {
 public:
  static RetainedSources& Global() {
    static RetainedSources* retained = new RetainedSources();
    return *retained;
  }

  /// Copies the stored bytes of every file of `table`.
  void Retain(const SourceTable& table) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (uint32_t i = 0; i < table.size(); ++i) {
      const SourceFileView file = table.file(i);
      Stored& stored = files_[std::string(file.path)];
      stored.view = file;
      stored.bytes.assign(reinterpret_cast<const char*>(file.stored_data),
                          file.stored_size);
    }
  }

  /// Like ReadPublishedSourceInto, over the retained files.
  char* ReadInto(std::string_view path, size_t* size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = files_.find(std::string(path));
    if (it == files_.end()) return nullptr;
    SourceFileView file = it->second.view;
    file.path = it->first;
    file.stored_data =
        reinterpret_cast<const uint8_t*>(it->second.bytes.data());
    file.stored_size = it->second.bytes.size();
    char* buffer = AllocateForTracy(file.uncompressed_size);
    if (!buffer) return nullptr;
    if (!file.DecompressInto(buffer, file.uncompressed_size).ok()) {
      tracy::tracy_free_fast(buffer);
      return nullptr;
    }
    *size = file.uncompressed_size;
    return buffer;
  }

 private:
  struct Stored {
    SourceFileView view;  // its pointers are into the unloaded module
    std::string bytes;
  };
  RetainedSources() = default;
  std::mutex mutex_;
  std::unordered_map<std::string, Stored> files_;
};

char* ServeSource(void* /*data*/, const char* filename, size_t& size) {
  if (char* text = ReadPublishedSourceInto(filename, AllocateForTracy, &size)) {
    return text;
  }
  return RetainedSources::Global().ReadInto(filename, &size);
}

/// Zone colors by kind (0: Tracy's default). Not named ZoneColor: that is a
/// Tracy.hpp macro.
uint32_t KindColor(ZoneKind kind) {
  switch (kind) {
    case ZoneKind::kModuleLoad:
      return 0x8a6fdf;
    case ZoneKind::kFunction:
      return 0x4f8fda;
    case ZoneKind::kDispatch:
      return 0xe58a3a;
    case ZoneKind::kWorkgroups:
      return 0x5fb35f;
  }
  return 0;
}

class TracyTracer final : public Tracer {
 public:
  explicit TracyTracer(TraceOptions options)
      : Tracer(/*enabled=*/true, std::move(options)) {}

  void PublishSources(const PublishedSources&) override {
    // Registering is idempotent; done on first publish so that a tracer
    // that never sees a module leaves Tracy's default behavior alone.
    std::call_once(registered_,
                   [] { TracySourceCallbackRegister(&ServeSource, nullptr); });
  }
  void UnpublishSources(const PublishedSources& sources) override {
    // Tracy may ask for these texts after the module is gone.
    if (sources.table) RetainedSources::Global().Retain(*sources.table);
  }

  // Tracy symbolizes sampled frames when the capture asks, which can be
  // after a short run has unloaded its module.
  bool ResolvesCodeLate() const override { return true; }
  uint64_t MaxSourceBytes() const override {
    return KILN_TRACY_MAX_SOURCE_BYTES;
  }

  uint64_t BeginZone(const TraceSite& site) override {
    const uint64_t source_location = ___tracy_alloc_srcloc_name(
        site.line, site.file.data(), site.file.size(), site.name.data(),
        site.name.size(), site.name.data(), site.name.size(),
        KindColor(site.kind));
    TracyCZoneCtx context =
        ___tracy_emit_zone_begin_alloc(source_location, /*active=*/1);
    return (uint64_t{context.id} << 32) | static_cast<uint32_t>(context.active);
  }

  void EndZone(const TraceSite&, uint64_t token) override {
    TracyCZoneCtx context;
    context.id = static_cast<uint32_t>(token >> 32);
    context.active = static_cast<int32_t>(token & 0xffffffffu);
    ___tracy_emit_zone_end(context);
  }

  Status Flush() override { return OkStatus(); }

 private:
  std::once_flag registered_;
};

}  // namespace

std::unique_ptr<Tracer> CreateTracyTracer(TraceOptions options) {
  return std::make_unique<TracyTracer>(std::move(options));
}

}  // namespace kiln
