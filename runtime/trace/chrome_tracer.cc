//===- chrome_tracer.cc - Chrome Trace Event JSON -------------------------===//
//
// Complete ("X") events with per-thread ids, process and thread names, and
// arguments naming each dispatch's export, stage, file, line, workgroup
// count and input location. The texts the events point at are embedded
// under the top-level "kilnSources" key, so the trace file alone shows each
// dispatch's code. Perfetto and chrome://tracing ignore that key.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/providers.h"

namespace kiln {
namespace {

/// Small per-thread ids in order of first use: readable in the viewers.
uint32_t CurrentThreadId() {
  static std::atomic<uint32_t> next{1};
  thread_local uint32_t id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

/// Appends `text` as a JSON string literal.
void AppendJsonString(std::string* out, std::string_view text) {
  out->push_back('"');
  for (unsigned char c : text) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          out->append(escaped);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

const char* CategoryName(ZoneKind kind) {
  switch (kind) {
    case ZoneKind::kModuleLoad: return "load";
    case ZoneKind::kFunction: return "function";
    case ZoneKind::kDispatch: return "dispatch";
    case ZoneKind::kWorkgroups: return "workgroups";
  }
  return "zone";
}

class ChromeTracer final : public Tracer {
 public:
  ChromeTracer(std::string path, TraceOptions options)
      : Tracer(/*enabled=*/true, std::move(options)),
        path_(std::move(path)),
        origin_(NowNanoseconds()) {}

  void PublishSources(const PublishedSources&) override {}
  void UnpublishSources(const PublishedSources&) override {}

  uint64_t BeginZone(const TraceSite&) override { return NowNanoseconds(); }

  void EndZone(const TraceSite& site, uint64_t token) override {
    const uint64_t end = NowNanoseconds();
    const uint32_t tid = CurrentThreadId();
    std::lock_guard<std::mutex> lock(mutex_);
    threads_.emplace(tid, site.kind == ZoneKind::kWorkgroups ? "kiln worker"
                                                             : "kiln");
    events_.push_back({InternSite(site), tid, token - origin_, end - token});
  }

  Status Flush() override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    out += "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\","
           "\"args\":{\"name\":\"kiln\"}}";
    for (const auto& [tid, name] : threads_) {
      out += ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(tid) +
             ",\"name\":\"thread_name\",\"args\":{\"name\":";
      AppendJsonString(&out, std::string(name) + " " + std::to_string(tid));
      out += "}}";
    }
    for (const Event& event : events_)
      AppendEvent(&out, sites_[event.site], event);
    out += "\n],\n\"kilnSources\":{";
    bool first = true;
    for (const auto& [path, text] : sources_) {
      if (!first) out += ",";
      first = false;
      out += "\n";
      AppendJsonString(&out, path);
      out += ":";
      AppendJsonString(&out, text);
    }
    out += "\n}}\n";
    FILE* file = std::fopen(path_.c_str(), "wb");
    if (!file) {
      return ErrnoToStatus(errno, StrCat("cannot write trace '", path_, "'"));
    }
    const bool written = std::fwrite(out.data(), 1, out.size(), file) ==
                         out.size();
    if (std::fclose(file) != 0 || !written) {
      return ErrnoToStatus(errno, StrCat("cannot write trace '", path_, "'"));
    }
    return OkStatus();
  }

 private:
  /// What the events of one TraceSite share, copied: the chrome file is
  /// written at exit, when the module the site points into may be gone.
  struct Site {
    ZoneKind kind;
    std::string name;
    std::string file;
    uint32_t line;
    std::string stage;
    std::string input_file;
    uint32_t input_line;
    uint32_t input_column;
    uint32_t workgroups[3];

    bool Matches(const TraceSite& site) const {
      return kind == site.kind && name == site.name && file == site.file &&
             line == site.line && stage == site.stage &&
             input_file == site.input_location.file &&
             input_line == site.input_location.line &&
             input_column == site.input_location.column &&
             std::equal(workgroups, workgroups + 3, site.workgroup_count);
    }
  };

  struct Event {
    uint32_t site;      // index into sites_
    uint32_t tid;
    uint64_t begin;     // ns since the tracer was created
    uint64_t duration;  // ns
  };

  /// The index of `site`'s copy in sites_, made on its first zone; later
  /// zones of the same site copy nothing. A site's address may be reused
  /// by another module after an unload, hence the comparison. Called with
  /// mutex_ held.
  uint32_t InternSite(const TraceSite& site) {
    auto [it, inserted] = site_index_.try_emplace(&site, 0);
    if (!inserted && sites_[it->second].Matches(site)) return it->second;
    it->second = static_cast<uint32_t>(sites_.size());
    sites_.push_back({site.kind,
                      std::string(site.name),
                      std::string(site.file),
                      site.line,
                      std::string(site.stage),
                      std::string(site.input_location.file),
                      site.input_location.line,
                      site.input_location.column,
                      {site.workgroup_count[0], site.workgroup_count[1],
                       site.workgroup_count[2]}});
    // The module is loaded while its zone runs: read the texts events point
    // at now, once each, so that the file is complete whenever it is written.
    if (site.kind == ZoneKind::kDispatch) {
      EmbedSource(site.file);
      if (site.input_location.known()) EmbedSource(site.input_location.file);
    }
    return it->second;
  }

  void EmbedSource(std::string_view path) {
    if (path.empty() || missing_.count(path)) return;
    auto [it, inserted] = sources_.try_emplace(std::string(path));
    if (!inserted) return;
    StatusOr<std::string> text = ReadPublishedSource(path);
    // Names without an embedded text (an executable's name, an input file
    // that was not embedded) simply have no entry.
    if (text.ok()) {
      it->second = std::move(text).value();
    } else {
      sources_.erase(it);
      missing_.emplace(path);
    }
  }

  static void AppendEvent(std::string* out, const Site& site,
                          const Event& event) {
    char numbers[160];
    std::snprintf(numbers, sizeof(numbers),
                  ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,"
                  "\"dur\":%.3f,\"cat\":\"%s\",\"name\":",
                  event.tid, event.begin / 1e3, event.duration / 1e3,
                  CategoryName(site.kind));
    out->append(numbers);
    AppendJsonString(out, site.name);
    out->append(",\"args\":{");
    if (site.kind == ZoneKind::kDispatch ||
        site.kind == ZoneKind::kWorkgroups) {
      out->append("\"export\":");
      AppendJsonString(out, site.name);
      out->append(",\"stage\":");
      AppendJsonString(out, site.stage);
      out->append(",\"file\":");
      AppendJsonString(out, site.file);
      std::snprintf(numbers, sizeof(numbers),
                    ",\"line\":%u,\"workgroup_count\":[%u,%u,%u]", site.line,
                    site.workgroups[0], site.workgroups[1],
                    site.workgroups[2]);
      out->append(numbers);
      out->append(",\"input_location\":");
      AppendJsonString(out, SourceLocationView{site.input_file,
                                               site.input_line,
                                               site.input_column}
                                .ToString());
    } else if (!site.file.empty()) {
      // Load and function zones name no file (see their sites): no
      // misleading empty one.
      out->append("\"file\":");
      AppendJsonString(out, site.file);
    }
    out->append("}}");
  }

  const std::string path_;
  const uint64_t origin_;
  std::mutex mutex_;
  std::vector<Site> sites_;
  std::unordered_map<const TraceSite*, uint32_t> site_index_;
  std::vector<Event> events_;
  std::map<uint32_t, const char*> threads_;
  std::map<std::string, std::string> sources_;
  std::set<std::string, std::less<>> missing_;
};

}  // namespace

std::unique_ptr<Tracer> CreateChromeTracer(std::string path,
                                           TraceOptions options) {
  return std::make_unique<ChromeTracer>(std::move(path), std::move(options));
}

}  // namespace kiln
