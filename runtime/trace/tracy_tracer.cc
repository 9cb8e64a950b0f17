//===- tracy_tracer.cc - Zones and embedded sources for Tracy -------------===//
//
// Built only when find_package(Tracy CONFIG) finds the Tracy client. Zones
// carry the export name and the file:line of the chosen stage text; when
// the Tracy viewer asks for a file it does not have, the source callback
// answers from the loaded modules' embedded texts (decompressed into a
// buffer from Tracy's allocator, which Tracy frees) and returns null for
// any other name. The callback runs on Tracy's threads, possibly after main
// returns: it only goes through the source registry, which is never
// destroyed and refuses texts of unloaded modules.
//
//===----------------------------------------------------------------------===//

#include <mutex>

#include <tracy/Tracy.hpp>
#include <tracy/TracyC.h>

#include "trace/providers.h"

namespace kiln {
namespace {

char* AllocateForTracy(size_t size) {
  return static_cast<char*>(tracy::tracy_malloc_fast(size));
}

char* ServeSource(void* /*data*/, const char* filename, size_t& size) {
  return ReadPublishedSourceInto(filename, AllocateForTracy, &size);
}

/// Zone colors by kind (0: Tracy's default).
uint32_t ZoneColor(ZoneKind kind) {
  switch (kind) {
    case ZoneKind::kModuleLoad: return 0x8a6fdf;
    case ZoneKind::kFunction: return 0x4f8fda;
    case ZoneKind::kDispatch: return 0xe58a3a;
    case ZoneKind::kWorkgroups: return 0x5fb35f;
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
    std::call_once(registered_, [] {
      TracySourceCallbackRegister(&ServeSource, nullptr);
    });
  }
  void UnpublishSources(const PublishedSources&) override {}

  uint64_t BeginZone(const TraceSite& site) override {
    const uint64_t source_location = ___tracy_alloc_srcloc_name(
        site.line, site.file.data(), site.file.size(), site.name.data(),
        site.name.size(), site.name.data(), site.name.size(),
        ZoneColor(site.kind));
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
