//===- chrome_tracer.cc - Chrome Trace Event JSON -------------------------===//
//
// Complete ("X") events with per-thread ids, process and thread names, and
// arguments naming each dispatch's export, stage, file, line, workgroup
// count and input location. The texts the events point at are embedded
// under the top-level "kilnSources" key, so the trace file alone shows each
// dispatch's code. Perfetto and chrome://tracing ignore that key.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "trace/providers.h"

namespace kiln {
namespace {

uint64_t NowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

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
    Event event;
    event.kind = site.kind;
    event.name = site.name;
    event.file = site.file;
    event.line = site.line;
    event.stage = site.stage;
    event.input_location = site.input_location.ToString();
    for (int d = 0; d < 3; ++d) event.workgroups[d] = site.workgroup_count[d];
    event.tid = CurrentThreadId();
    event.begin = token - origin_;
    event.duration = end - token;
    std::lock_guard<std::mutex> lock(mutex_);
    // The module is loaded while its zone runs: read the texts events point
    // at now, once each, so that the file is complete whenever it is written.
    if (site.kind == ZoneKind::kDispatch) {
      EmbedSource(site.file);
      if (site.input_location.known()) EmbedSource(site.input_location.file);
    }
    threads_.emplace(event.tid, event.kind == ZoneKind::kWorkgroups
                                    ? "kiln worker"
                                    : "kiln");
    events_.push_back(std::move(event));
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
    for (const Event& event : events_) AppendEvent(&out, event);
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
  struct Event {
    ZoneKind kind;
    std::string name;
    std::string file;
    uint32_t line;
    std::string stage;
    std::string input_location;
    uint32_t workgroups[3];
    uint32_t tid;
    uint64_t begin;     // ns since the tracer was created
    uint64_t duration;  // ns
  };

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

  static void AppendEvent(std::string* out, const Event& event) {
    char numbers[160];
    std::snprintf(numbers, sizeof(numbers),
                  ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,"
                  "\"dur\":%.3f,\"cat\":\"%s\",\"name\":",
                  event.tid, event.begin / 1e3, event.duration / 1e3,
                  CategoryName(event.kind));
    out->append(numbers);
    AppendJsonString(out, event.name);
    out->append(",\"args\":{");
    if (event.kind == ZoneKind::kDispatch ||
        event.kind == ZoneKind::kWorkgroups) {
      out->append("\"export\":");
      AppendJsonString(out, event.name);
      out->append(",\"stage\":");
      AppendJsonString(out, event.stage);
      out->append(",\"file\":");
      AppendJsonString(out, event.file);
      std::snprintf(numbers, sizeof(numbers),
                    ",\"line\":%u,\"workgroup_count\":[%u,%u,%u]", event.line,
                    event.workgroups[0], event.workgroups[1],
                    event.workgroups[2]);
      out->append(numbers);
      out->append(",\"input_location\":");
      AppendJsonString(out, event.input_location);
    } else if (!event.file.empty()) {
      // Load and function zones name no file (see their sites): no
      // misleading empty one.
      out->append("\"file\":");
      AppendJsonString(out, event.file);
    }
    out->append("}}");
  }

  const std::string path_;
  const uint64_t origin_;
  std::mutex mutex_;
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
