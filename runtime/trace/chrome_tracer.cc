//===- chrome_tracer.cc - Chrome Trace Event JSON -------------------------===//
//
// Complete ("X") events with per-thread ids, process and thread names, and
// arguments naming each dispatch's export, stage, file, line, workgroup
// count and input location. The texts the events point at are embedded
// under the top-level "kilnSources" key, so the trace file alone shows each
// dispatch's code. Perfetto and chrome://tracing ignore that key.
//
// Events stream to the file: a writer thread formats and appends each full
// buffer of events while the next fills, so memory stays bounded however
// long the run. Flush writes the thread names and the texts after the last
// event, leaving a complete file; later events overwrite that trailer.
//
//===----------------------------------------------------------------------===//

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "trace/providers.h"
#include "trace/zone_clock.h"

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

/// Events a buffer holds before the writer thread formats and writes them:
/// memory stays bounded (two buffers) however long the run.
constexpr size_t kEventsPerChunk = size_t(1) << 14;

class ChromeTracer final : public Tracer {
 public:
  ChromeTracer(std::string path, TraceOptions options)
      : Tracer(/*enabled=*/true, std::move(options)),
        path_(std::move(path)),
        clock_() {
    filling_.reserve(kEventsPerChunk);
    writing_.reserve(kEventsPerChunk);
    writer_ = std::thread([this] { WriteChunks(); });
  }

  ~ChromeTracer() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    writer_wake_.notify_one();
    writer_.join();
    if (fd_ >= 0) ::close(fd_);
  }

  void PublishSources(const PublishedSources&) override {}
  // A site copy is found again by the address of its TraceSite and of the
  // strings it views; an unloaded module's memory may hold other strings
  // at the same addresses, so every lookup starts anew.
  void UnpublishSources(const PublishedSources&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    site_index_.clear();
  }

  uint64_t BeginZone(const TraceSite&) override { return clock_.Ticks(); }

  void EndZone(const TraceSite& site, uint64_t token) override {
    const uint64_t end = clock_.Ticks();
    const uint32_t tid = CurrentThreadId();
    std::unique_lock<std::mutex> lock(mutex_);
    filling_.push_back({InternSite(site), tid, token, end - token});
    if (filling_.size() == kEventsPerChunk) HandOff(lock);
  }

  Status Flush() override {
    std::unique_lock<std::mutex> lock(mutex_);
    HandOff(lock);
    chunk_written_.wait(lock, [&] { return !chunk_ready_; });
    // Zones ending meanwhile wait on the lock: the trailer goes right after
    // the last event, and the next chunk overwrites it.
    if (!status_.ok()) return status_;
    if (Status opened = OpenFile(); !opened.ok()) return opened;
    std::string out;
    if (events_end_ == 0) AppendHeader(&out);
    AppendThreadNames(&out);
    const size_t events_size = out.size();
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
    if (Status written = WriteAt(out, events_end_); !written.ok())
      return written;
    events_end_ += events_size;
    if (::ftruncate(fd_, static_cast<off_t>(events_end_ + out.size() -
                                            events_size)) != 0)
      return ErrnoToStatus(errno, StrCat("cannot write trace '", path_, "'"));
    return OkStatus();
  }

 private:
  /// What the events of one TraceSite share, copied: the chrome file is
  /// written while the module the site points into may be gone.
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
    /// The views it was copied from, to be recognized by address.
    const char* viewed[4];
    /// The JSON its events end with; made and read by the writer alone.
    std::string formatted;
  };

  struct Event {
    Site* site;         // stable: sites_ is a deque that only grows
    uint32_t tid;
    uint64_t begin;     // clock_ ticks
    uint64_t duration;  // clock_ ticks
  };

  static bool ViewsSame(const Site& copy, const TraceSite& site) {
    return copy.kind == site.kind && copy.line == site.line &&
           copy.viewed[0] == site.name.data() &&
           copy.name.size() == site.name.size() &&
           copy.viewed[1] == site.file.data() &&
           copy.file.size() == site.file.size() &&
           copy.viewed[2] == site.stage.data() &&
           copy.stage.size() == site.stage.size() &&
           copy.viewed[3] == site.input_location.file.data() &&
           copy.input_file.size() == site.input_location.file.size() &&
           copy.input_line == site.input_location.line &&
           copy.input_column == site.input_location.column &&
           std::equal(copy.workgroups, copy.workgroups + 3,
                      site.workgroup_count);
  }

  /// The copy of `site`, made on its first zone; later zones of the same
  /// site copy nothing. A site's address may be reused for another site
  /// (sites on the stack, a module loaded after an unload), hence the
  /// comparison. Called with mutex_ held.
  Site* InternSite(const TraceSite& site) {
    auto [it, inserted] = site_index_.try_emplace(&site, nullptr);
    // Load zones view the caller's path, whose memory may be reused for
    // another path: those few are copied each time.
    if (!inserted && site.kind != ZoneKind::kModuleLoad &&
        ViewsSame(*it->second, site))
      return it->second;
    sites_.push_back({site.kind,
                      std::string(site.name),
                      std::string(site.file),
                      site.line,
                      std::string(site.stage),
                      std::string(site.input_location.file),
                      site.input_location.line,
                      site.input_location.column,
                      {site.workgroup_count[0], site.workgroup_count[1],
                       site.workgroup_count[2]},
                      {site.name.data(), site.file.data(), site.stage.data(),
                       site.input_location.file.data()},
                      /*formatted=*/{}});
    it->second = &sites_.back();
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

  /// Gives the filled buffer to the writer, after it is done with the last
  /// one. Called with mutex_ held through `lock`.
  void HandOff(std::unique_lock<std::mutex>& lock) {
    chunk_written_.wait(lock, [&] { return !chunk_ready_; });
    if (filling_.empty()) return;
    filling_.swap(writing_);
    chunk_ready_ = true;
    writer_wake_.notify_one();
  }

  /// The writer thread: formats and appends each handed-off buffer.
  void WriteChunks() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      writer_wake_.wait(lock, [&] { return chunk_ready_ || stopping_; });
      if (!chunk_ready_) return;
      // Formatted outside the lock: sites and sources are only appended to,
      // and writing_ is the writer's until chunk_ready_ clears.
      lock.unlock();
      std::string out;
      if (events_end_ == 0) AppendHeader(&out);
      for (const Event& event : writing_) {
        NoteThread(event);
        AppendEvent(&out, *event.site, event);
      }
      Status written = OpenFile();
      if (written.ok()) written = WriteAt(out, events_end_);
      lock.lock();
      if (written.ok()) {
        events_end_ += out.size();
      } else if (status_.ok()) {
        status_ = written;
      }
      writing_.clear();
      chunk_ready_ = false;
      chunk_written_.notify_all();
    }
  }

  /// Threads get their names from their first zone's kind.
  void NoteThread(const Event& event) {
    thread_names_.emplace(event.tid, event.site->kind == ZoneKind::kWorkgroups
                                         ? "kiln worker"
                                         : "kiln");
  }

  void AppendHeader(std::string* out) {
    *out += "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    *out += "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\","
            "\"args\":{\"name\":\"kiln\"}}";
  }

  /// Metadata events for the threads seen since the last call.
  void AppendThreadNames(std::string* out) {
    for (const auto& [tid, name] : thread_names_) {
      if (!named_threads_.insert(tid).second) continue;
      *out += ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":" + std::to_string(tid) +
              ",\"name\":\"thread_name\",\"args\":{\"name\":";
      AppendJsonString(out, std::string(name) + " " + std::to_string(tid));
      *out += "}}";
    }
  }

  Status OpenFile() {
    if (fd_ >= 0) return OkStatus();
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                 0644);
    if (fd_ < 0)
      return ErrnoToStatus(errno, StrCat("cannot write trace '", path_, "'"));
    return OkStatus();
  }

  Status WriteAt(std::string_view data, uint64_t offset) {
    while (!data.empty()) {
      const ssize_t n = ::pwrite(fd_, data.data(), data.size(),
                                 static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return ErrnoToStatus(n < 0 ? errno : ENOSPC,
                             StrCat("cannot write trace '", path_, "'"));
      data.remove_prefix(static_cast<size_t>(n));
      offset += static_cast<uint64_t>(n);
    }
    return OkStatus();
  }

  /// Appends `nanoseconds` as microseconds with 3 decimals.
  static void AppendMicroseconds(std::string* out, uint64_t nanoseconds) {
    char digits[24];
    char* end = std::to_chars(digits, digits + sizeof(digits),
                              nanoseconds / 1000).ptr;
    const uint64_t fraction = nanoseconds % 1000;
    *end++ = '.';
    *end++ = static_cast<char>('0' + fraction / 100);
    *end++ = static_cast<char>('0' + fraction / 10 % 10);
    *end++ = static_cast<char>('0' + fraction % 10);
    out->append(digits, end);
  }

  /// The event's own numbers, then its site's part, formatted once.
  void AppendEvent(std::string* out, Site& site, const Event& event) {
    if (site.formatted.empty()) FormatSite(site);
    out->append(",\n{\"ph\":\"X\",\"pid\":1,\"tid\":");
    out->append(std::to_string(event.tid));
    out->append(",\"ts\":");
    AppendMicroseconds(out, clock_.SinceOrigin(event.begin));
    out->append(",\"dur\":");
    AppendMicroseconds(out, clock_.Duration(event.duration));
    out->append(site.formatted);
  }

  /// What every event of `site` ends with: category, name and arguments.
  static void FormatSite(Site& site) {
    std::string* out = &site.formatted;
    out->append(",\"cat\":\"");
    out->append(CategoryName(site.kind));
    out->append("\",\"name\":");
    AppendJsonString(out, site.name);
    out->append(",\"args\":{");
    if (site.kind == ZoneKind::kDispatch ||
        site.kind == ZoneKind::kWorkgroups) {
      char numbers[96];
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
  ZoneClock clock_;  // converted by the writer thread alone

  std::mutex mutex_;
  std::condition_variable writer_wake_;
  std::condition_variable chunk_written_;
  // Guarded by mutex_.
  std::vector<Event> filling_;
  bool chunk_ready_ = false;  // writing_ holds events for the writer
  bool stopping_ = false;
  Status status_;             // the first write error
  std::deque<Site> sites_;
  std::unordered_map<const TraceSite*, Site*> site_index_;
  std::map<std::string, std::string> sources_;
  std::set<std::string, std::less<>> missing_;

  // The writer's while chunk_ready_ is set; Flush's once it has cleared.
  std::vector<Event> writing_;
  int fd_ = -1;
  uint64_t events_end_ = 0;   // file offset after the last event
  std::map<uint32_t, const char*> thread_names_;
  std::set<uint32_t> named_threads_;

  std::thread writer_;
};

}  // namespace

std::unique_ptr<Tracer> CreateChromeTracer(std::string path,
                                           TraceOptions options) {
  return std::make_unique<ChromeTracer>(std::move(path), std::move(options));
}

}  // namespace kiln
