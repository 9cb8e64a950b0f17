//===- trace.h - Tracing providers ---------------------------------*- C++ -*-===//
//
// One tracing interface with several providers: null (the default, near zero
// cost), console, chrome (Chrome Trace Event JSON for Perfetto and
// chrome://tracing) and tracy (when built with Tracy). Every provider
// implements every hook, including publishing a module's source table,
// even where it does nothing with it.
//
// The runtime reports zones (module load, host function call, dispatch,
// optionally each worker's batch of workgroups) to the process's tracer.
// A dispatch zone points at code: the entry of its export in the embedded
// text of the chosen stage, else the export's location in the input
// program, else the executable's name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRACE_H_
#define KILN_TRACE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/debug_info.h"
#include "kiln/sources.h"
#include "kiln/status.h"

namespace kiln {

class Module;
struct Profile;

/// A module's source table as published to tracers: owned by the module
/// (no copy, no allocation) and valid while the module is loaded.
struct PublishedSources {
  const Module* module = nullptr;
  const SourceTable* table = nullptr;
  std::string_view module_name;
};

enum class ZoneKind : uint8_t {
  kModuleLoad,
  kFunction,
  kDispatch,
  kWorkgroups,  // one worker's share of a dispatch
};

/// What a zone shows. Built once per function or export and reused for
/// every zone of it; the strings are views into the module (or the caller)
/// and stay valid while the module is loaded.
struct TraceSite {
  ZoneKind kind = ZoneKind::kDispatch;
  std::string_view name;  // export, function or module name
  /// The code the zone points at: a stage text's path, an input file, or
  /// the executable's name (line 0) when nothing better is recorded.
  std::string_view file;
  uint32_t line = 0;
  /// The captured stage `file` is the text of ("" when it is not one).
  std::string_view stage;
  /// The export's canonical location in the input program, if recorded.
  SourceLocationView input_location;
  /// Workgroup count of a dispatch.
  uint32_t workgroup_count[3] = {1, 1, 1};
  /// 0, or an id no other content ever had: MakeDispatchSite gives each
  /// site it builds a new one, and whoever changes a copy resets it to 0.
  /// Providers may then know a site again by its address and id alone.
  uint64_t id = 0;
};

/// Options shared by every provider.
struct TraceOptions {
  /// The stage whose text dispatch zones point at; "" picks the earliest
  /// stage each export has captured.
  std::string stage;
  /// Also a zone per worker for its batch of workgroups of each dispatch.
  bool workgroup_zones = false;
  /// console: print the lines around each export's entry, once.
  bool print_source = false;
};

/// A tracing provider. Zone hooks may be called from any thread, and zones
/// nest per thread (begin and end on the same thread).
class Tracer {
 public:
  virtual ~Tracer();

  /// False for the null provider: the runtime then skips all zone work.
  bool enabled() const { return enabled_; }
  const TraceOptions& options() const { return options_; }

  /// The source table of a module that just loaded. Must not allocate or
  /// copy: keep the pointer, look texts up later (binary search) through
  /// the source registry.
  virtual void PublishSources(const PublishedSources& sources) = 0;
  /// The module is unloading: stop using its sources once this returns.
  virtual void UnpublishSources(const PublishedSources& sources) = 0;

  /// Starts a zone for `site` on the calling thread; the returned token is
  /// handed back to EndZone (e.g. a start time or a profiler context).
  virtual uint64_t BeginZone(const TraceSite& site) = 0;
  virtual void EndZone(const TraceSite& site, uint64_t token) = 0;

  /// A sampled profile of `module` (kiln/profiler.h; its lines those of
  /// the stage the tools chose), before Flush: providers that keep a file
  /// add each export's hottest lines beside its dispatch zones, with the
  /// texts they name. The default ignores it.
  virtual void AddProfile(const Module& module, const Profile& profile);
  /// True for a sampling profiler that resolves code addresses after the
  /// fact, when it is asked (Tracy): the runtime then keeps every loaded
  /// library mapped, and readable at its path, until the process exits,
  /// instead of unloading it with its module.
  virtual bool ResolvesCodeLate() const { return false; }
  /// The largest text the provider's viewer shows (Tracy's client sends
  /// none larger) or its file embeds (chrome), or 0 when any size is shown.
  virtual uint64_t MaxSourceBytes() const { return 0; }
  /// Writes what the provider buffered (the chrome file, the console
  /// summary). Called once at the end; zones may not follow it.
  virtual Status Flush() = 0;

 protected:
  Tracer(bool enabled, TraceOptions options)
      : enabled_(enabled), options_(std::move(options)) {}

 private:
  const bool enabled_;
  const TraceOptions options_;
};

/// Where zones of export `view` of `module` point under `options`: the
/// entry's line in the chosen stage's text (the earliest captured when
/// options.stage is empty), else the export's input location, else the
/// executable's name with line 0.
TraceSite MakeDispatchSite(const Module& module, const ExportView& view,
                           const TraceOptions& options);

/// The embedded texts that dispatch zones of `module` point at under
/// `options` and that are larger than `max_bytes`, each once, by path.
std::vector<SourceFileView> FindZoneTextsLargerThan(const Module& module,
                                                    const TraceOptions& options,
                                                    uint64_t max_bytes);

/// The process's tracer: the null provider unless SetTracer installed one.
Tracer& GetTracer();
/// Installs `tracer` (borrowed; nullptr restores the null provider). Install
/// it before loading modules: they publish their sources on load.
void SetTracer(Tracer* tracer);

/// Creates a provider from `spec`: "null", "console", "chrome=PATH" or
/// "tracy" (only in builds with Tracy). Console output goes to stderr.
StatusOr<std::unique_ptr<Tracer>> CreateTracer(std::string_view spec,
                                               TraceOptions options);

/// The names CreateTracer accepts in this build, e.g. "null, console,
/// chrome=FILE".
std::string_view AvailableTracers();

/// RAII zone on the process tracer; does nothing when tracing is off.
class ScopedZone {
 public:
  explicit ScopedZone(const TraceSite& site) : site_(site) {
    Tracer& tracer = GetTracer();
    if (tracer.enabled()) {
      tracer_ = &tracer;
      token_ = tracer.BeginZone(site_);
    }
  }
  ~ScopedZone() {
    if (tracer_) tracer_->EndZone(site_, token_);
  }
  ScopedZone(const ScopedZone&) = delete;
  ScopedZone& operator=(const ScopedZone&) = delete;

 private:
  const TraceSite& site_;
  Tracer* tracer_ = nullptr;
  uint64_t token_ = 0;
};

/// The source file `path` of any loaded module, decompressed with its hash
/// checked, while that module cannot unload; NotFound when no loaded module
/// has it, OutOfRange (before decompressing) when it is larger than
/// `max_bytes`. Providers use this to serve texts.
StatusOr<std::string> ReadPublishedSource(std::string_view path,
                                          uint64_t max_bytes = kMaxSourceSize);

/// Same into `buffer` from `allocate(size)` (e.g. a profiler's allocator):
/// returns the buffer and sets `*size`, or nullptr when no loaded module has
/// the file or it cannot be read.
char* ReadPublishedSourceInto(std::string_view path,
                              char* (*allocate)(size_t size), size_t* size);

}  // namespace kiln

#endif  // KILN_TRACE_H_
