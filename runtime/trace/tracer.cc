//===- tracer.cc - Process tracer, null provider, factory -----------------===//

#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <set>

#include "kiln/module.h"
#include "kiln/trace.h"
#include "module/source_registry.h"
#include "trace/providers.h"

namespace kiln {

Tracer::~Tracer() = default;

void Tracer::AddProfile(const Module&, const Profile&) {}

//===----------------------------------------------------------------------===//
// Texts of the loaded modules, for providers
//===----------------------------------------------------------------------===//

StatusOr<std::string> ReadPublishedSource(std::string_view path,
                                          uint64_t max_bytes) {
  StatusOr<std::string> text =
      NotFoundError("no loaded module has source '", path, "'");
  SourceRegistry::Global().With(path, [&](const SourceFileView& file) {
    text =
        file.uncompressed_size > max_bytes
            ? OutOfRangeError("source '", path, "' is ", file.uncompressed_size,
                              " bytes, more than the limit of ", max_bytes)
            : file.Decompress();
  });
  return text;
}

char* ReadPublishedSourceInto(std::string_view path,
                              char* (*allocate)(size_t size), size_t* size) {
  char* buffer = nullptr;
  SourceRegistry::Global().With(path, [&](const SourceFileView& file) {
    char* candidate = allocate(file.uncompressed_size);
    if (!candidate) return;
    if (file.DecompressInto(candidate, file.uncompressed_size).ok()) {
      buffer = candidate;
      *size = file.uncompressed_size;
    }
    // A buffer the allocator handed out but that holds no valid text is
    // left to the allocator's owner (profilers free what they allocate).
  });
  return buffer;
}

TraceSite MakeDispatchSite(const Module& module, const ExportView& view,
                           const TraceOptions& options) {
  static std::atomic<uint64_t> next_id{1};
  TraceSite site;
  site.kind = ZoneKind::kDispatch;
  site.id = next_id.fetch_add(1, std::memory_order_relaxed);
  site.name = view.name();
  site.input_location = view.location();
  const std::array<uint32_t, 3> count = view.workgroup_count();
  for (int d = 0; d < 3; ++d) site.workgroup_count[d] = count[d];
  std::optional<StageLocationView> stage;
  if (options.stage.empty()) {
    if (view.stage_location_count() > 0) stage = view.stage_location(0);
  } else if (std::optional<uint32_t> index =
                 module.FindCaptureStage(options.stage)) {
    stage = view.FindStageLocation(*index);
  }
  if (stage) {
    site.file = stage->path;
    site.line = stage->line;
    site.stage = stage->stage_name;
  } else if (site.input_location.known()) {
    site.file = site.input_location.file;
    site.line = site.input_location.line;
  } else {
    site.file = view.executable_name();
  }
  return site;
}

std::vector<SourceFileView> FindZoneTextsLargerThan(const Module& module,
                                                    const TraceOptions& options,
                                                    uint64_t max_bytes) {
  std::vector<SourceFileView> found;
  std::set<std::string_view> seen;
  for (uint32_t e = 0; e < module.executable_count(); ++e) {
    for (uint32_t x = 0; x < module.export_count(e); ++x) {
      StatusOr<ExportView> view = module.GetExport(e, x);
      if (!view.ok()) continue;
      const TraceSite site = MakeDispatchSite(module, *view, options);
      if (!seen.insert(site.file).second) continue;
      std::optional<SourceFileView> file = module.sources().Find(site.file);
      if (file && file->uncompressed_size > max_bytes) found.push_back(*file);
    }
  }
  return found;
}

//===----------------------------------------------------------------------===//
// Null provider and the process tracer
//===----------------------------------------------------------------------===//

namespace {

/// Does nothing; enabled() is false, so the runtime does not even call it
/// for zones.
class NullTracer final : public Tracer {
 public:
  NullTracer() : Tracer(/*enabled=*/false, TraceOptions()) {}
  void PublishSources(const PublishedSources&) override {}
  void UnpublishSources(const PublishedSources&) override {}
  uint64_t BeginZone(const TraceSite&) override { return 0; }
  void EndZone(const TraceSite&, uint64_t) override {}
  Status Flush() override { return OkStatus(); }
};

NullTracer& GetNullTracer() {
  static NullTracer* tracer = new NullTracer();
  return *tracer;
}

std::atomic<Tracer*> g_tracer{nullptr};

}  // namespace

Tracer& GetTracer() {
  Tracer* tracer = g_tracer.load(std::memory_order_acquire);
  return tracer ? *tracer : GetNullTracer();
}

void SetTracer(Tracer* tracer) {
  g_tracer.store(tracer, std::memory_order_release);
}

std::string_view AvailableTracers() {
#ifdef KILN_HAVE_TRACY
  return "null, console, chrome=FILE, tracy";
#else
  return "null, console, chrome=FILE";
#endif
}

StatusOr<std::unique_ptr<Tracer>> CreateTracer(std::string_view spec,
                                               TraceOptions options) {
  if (spec == "null" || spec.empty()) {
    return std::unique_ptr<Tracer>(new NullTracer());
  }
  if (spec == "console") return CreateConsoleTracer(std::move(options));
  if (spec.substr(0, 7) == "chrome=") {
    std::string path(spec.substr(7));
    if (path.empty()) {
      return InvalidArgumentError("--trace=chrome=FILE needs a file name");
    }
    // Found out now, not after the run: the file is written at the end.
    StatusOr<int> fd = OpenChromeTraceFile(path, /*truncate=*/false);
    if (!fd.ok()) return fd.status();
    ::close(*fd);
    return CreateChromeTracer(std::move(path), std::move(options));
  }
  if (spec == "chrome") {
    return InvalidArgumentError(
        "--trace=chrome needs a file: --trace=chrome=/tmp/trace.json");
  }
  if (spec == "tracy") {
#ifdef KILN_HAVE_TRACY
    return CreateTracyTracer(std::move(options));
#else
    return InvalidArgumentError(
        "this build has no Tracy provider; configure with Tracy installed "
        "(find_package(Tracy CONFIG)) to use --trace=tracy");
#endif
  }
  return InvalidArgumentError("unknown tracer '", spec, "'; choose one of ",
                              AvailableTracers());
}

}  // namespace kiln
