//===- chrome_tracer.cc - Chrome Trace Event JSON -------------------------===//
//
// Complete ("X") events with per-thread ids, process and thread names, and
// arguments naming each dispatch's export, stage, file, line, workgroup
// count and input location. The texts the events point at are embedded
// under the top-level "kilnSources" key, so the trace file alone shows each
// dispatch's code (up to kMaxEmbeddedTextBytes per text and
// kMaxEmbeddedTextsBytes in all: texts left out are named under
// "kilnSourcesOmitted" with the reason); with a profile, each export's
// hottest lines are an instant event and, as data, under "kilnProfile", and
// how the samples were taken (clock, rate asked and reached) under
// "kilnSampling"; each input op (a model's node) gets a track of its own,
// in a process "kiln input ops", as long as its sampled CPU time.
// Perfetto and chrome://tracing ignore those keys.
//
// Events stream to the file: each thread records its events into a buffer
// of its own, without a lock, and hands each full buffer to a writer thread
// that formats and appends it, so memory stays bounded (a buffer per thread
// and a few queued) however long the run. Flush writes what the threads'
// buffers hold, then the thread names and the texts after the last event,
// leaving a complete file; later events overwrite that trailer.
//
//===----------------------------------------------------------------------===//

#include <fcntl.h>
#include <sys/stat.h>
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

#include "base/json_string.h"
#include "kiln/profiler.h"
#include "kiln/sources.h"
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

const char* CategoryName(ZoneKind kind) {
  switch (kind) {
    case ZoneKind::kModuleLoad:
      return "load";
    case ZoneKind::kFunction:
      return "function";
    case ZoneKind::kDispatch:
      return "dispatch";
    case ZoneKind::kWorkgroups:
      return "workgroups";
  }
  return "zone";
}

/// Events a thread's buffer holds before the writer thread formats and
/// writes them.
constexpr uint32_t kEventsPerChunk = uint32_t(1) << 13;
/// Full buffers waiting for the writer before a thread that fills another
/// one waits for it.
constexpr size_t kQueuedChunks = 2;
/// Sites each thread recognizes without the lock (direct-mapped by address).
constexpr size_t kCachedSites = 16;

/// Tells tracers apart in each thread's cached state (thread_local below),
/// also one created where a destroyed one lived.
std::atomic<uint64_t> g_next_tracer_serial{1};

class ChromeTracer;

/// Live chrome tracers by serial, so that an exiting thread can hand its
/// buffers back to those still alive (ThreadExit). Never destroyed: threads
/// may exit during static destruction.
std::mutex& LiveTracersMutex() {
  static std::mutex* mutex = new std::mutex();
  return *mutex;
}
std::map<uint64_t, ChromeTracer*>& LiveTracers() {
  static auto* tracers = new std::map<uint64_t, ChromeTracer*>();
  return *tracers;
}

class ChromeTracer final : public Tracer {
 public:
  ChromeTracer(std::string path, TraceOptions options)
      : Tracer(/*enabled=*/true, std::move(options)),
        path_(std::move(path)),
        serial_(g_next_tracer_serial.fetch_add(1, std::memory_order_relaxed)),
        clock_() {
    writer_ = std::thread([this] { WriteChunks(); });
    std::lock_guard<std::mutex> lock(LiveTracersMutex());
    LiveTracers()[serial_] = this;
  }

  ~ChromeTracer() override {
    {
      // First: an exiting thread may be handing its buffer back meanwhile.
      std::lock_guard<std::mutex> lock(LiveTracersMutex());
      LiveTracers().erase(serial_);
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    writer_.join();
    if (fd_ >= 0) ::close(fd_);
  }

  uint64_t MaxSourceBytes() const override { return kMaxEmbeddedTextBytes; }

  void PublishSources(const PublishedSources&) override {}
  // A site copy is found again by the address of its TraceSite and of the
  // strings it views; an unloaded module's memory may hold other strings
  // at the same addresses, so every lookup starts anew.
  void UnpublishSources(const PublishedSources&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    site_index_.clear();
    sites_epoch_.fetch_add(1, std::memory_order_relaxed);
  }

  uint64_t BeginZone(const TraceSite&) override { return clock_.Ticks(); }

  /// The hot path: no lock, no allocation, no lookup beyond the thread's
  /// own cache of sites.
  void EndZone(const TraceSite& site, uint64_t token) override {
    const uint64_t end = clock_.Ticks();
    ThreadEvents& thread = CurrentThread();
    Site* copy = CachedSite(thread, site);
    Chunk& chunk = *thread.chunk;
    const uint32_t n = chunk.count.load(std::memory_order_relaxed);
    chunk.events[n] = {copy, token, end - token};
    chunk.count.store(n + 1, std::memory_order_release);
    if (n + 1 == kEventsPerChunk) HandOff(thread);
  }

  /// Each export's hottest lines: an instant event per export among the
  /// events (its args name the lines, their shares and texts; Perfetto
  /// shows them on selection) and the same as data under "kilnProfile",
  /// with the clock and rates of Profile::sampling under "kilnSampling". The
  /// events of a run already streamed to the file, so the lines go once
  /// per export rather than into every dispatch event's args.
  void AddProfile(const Module& module, const Profile& profile) override {
    std::lock_guard<std::mutex> lock(mutex_);
    // Ticks now, nanoseconds at Flush: only the writer, or Flush while it
    // waits, converts (the first conversion fixes the clock's rate).
    const uint64_t now = clock_.Ticks();
    AddInputOpTracks(module, profile, now);
    for (const ProfileExport& ex : profile.exports) {
      std::string lines = "[";
      for (size_t i = 0; i < ex.lines.size() && i < kProfileTopLines; ++i) {
        const ProfileLine& line = ex.lines[i];
        if (i) lines += ",";
        lines += "{\"path\":";
        AppendJsonString(&lines, line.path);
        lines += StrCat(",\"line\":", line.line, ",\"samples\":", line.samples,
                        ",\"text\":");
        std::optional<std::string_view> text;
        if (line.line != 0) {
          EmbedSource(line.path);
          auto embedded = sources_.find(std::string(line.path));
          if (embedded != sources_.end()) {
            text = FindLine(embedded->second, line.line);
          }
        }
        if (text) {
          AppendJsonString(&lines,
                           text->substr(std::min(text->find_first_not_of(" \t"),
                                                 text->size())));
        } else {
          lines += "null";
        }
        lines += "}";
      }
      lines += "]";
      std::string entry = "{\"samples\":" + std::to_string(ex.samples) +
                          ",\"of\":" + std::to_string(profile.samples) +
                          ",\"lines\":" + lines + "}";
      std::string event = ",\n{\"name\":";
      AppendJsonString(&event, ex.export_view.name());
      event +=
          ",\"cat\":\"kiln.profile\",\"ph\":\"i\",\"s\":\"g\",\"pid\":1,"
          "\"tid\":0,\"args\":" +
          entry + ",\"ts\":";
      profile_events_.push_back({now, std::move(event)});
      std::string key;
      AppendJsonString(&key, ex.export_view.name());
      profile_entries_.push_back(key + ":" + entry);
    }
    if (profile.sampling) {
      const ProfileSampling& sampling = *profile.sampling;
      char numbers[160];
      std::snprintf(numbers, sizeof(numbers),
                    ",\"hz\":%u,\"hz_reached\":%.1f,\"threads\":%u,"
                    "\"cpu_seconds\":%.6f",
                    sampling.hz, profile.hz_reached(), sampling.threads,
                    sampling.cpu_seconds);
      profile_sampling_ = "{\"clock\":";
      AppendJsonString(&profile_sampling_, ProfileClockName(sampling.clock));
      profile_sampling_ +=
          StrCat(numbers, ",\"samples\":", profile.samples,
                 ",\"dropped_samples\":", profile.dropped_samples, "}");
    }
  }

  /// A track per input op (a model's node) in a process of its own, each
  /// with one event as long as the op's sampled CPU time, whatever
  /// dispatches it was fused into, and one for the samples on no op's line.
  void AddInputOpTracks(const Module& module, const Profile& profile,
                        uint64_t now) {
    StatusOr<Profile> at_input = RollUpProfile(module, profile, kInputStage);
    if (!at_input.ok() || !profile.sampling) return;
    const ProfileInputOps by_op = ProfileByInputOp(*at_input);
    if (by_op.ops.empty()) return;
    const double us_per_sample = 1e6 * profile.cpu_seconds_per_sample();
    auto add_track = [&](uint32_t tid, std::string_view name, uint64_t samples,
                         std::string args) {
      char dur[32];
      std::snprintf(dur, sizeof(dur), "%.3f", us_per_sample * samples);
      std::string event =
          StrCat(",\n{\"ph\":\"M\",\"pid\":2,\"tid\":", tid,
                 ",\"name\":\"thread_name\",\"args\":{\"name\":");
      AppendJsonString(&event, name);
      event += StrCat("}},\n{\"ph\":\"X\",\"cat\":\"kiln.input_op\",\"pid\":2,",
                      "\"tid\":", tid, ",\"name\":");
      AppendJsonString(&event, name);
      event += StrCat(",\"dur\":", dur, ",\"args\":{\"samples\":", samples,
                      ",\"of\":", profile.samples, args, "},\"ts\":");
      profile_events_.push_back({now, std::move(event)});
    };
    profile_events_.push_back(
        {now,
         ",\n{\"ph\":\"M\",\"pid\":2,\"tid\":0,\"name\":\"process_name\","
         "\"args\":{\"name\":\"kiln input ops (sampled CPU time)\"},\"ts\":"});
    for (size_t i = 0; i < by_op.ops.size(); ++i) {
      const ProfileInputOp& op = by_op.ops[i];
      std::string args = ",\"op_type\":";
      AppendJsonString(&args, op.node.known() ? op.node.op_type : op.op_name);
      args += ",\"location\":";
      AppendJsonString(&args, op.location.ToString());
      args += ",\"dispatches\":[";
      for (size_t e = 0; e < op.exports.size(); ++e) {
        if (e) args += ",";
        AppendJsonString(&args, op.exports[e]);
      }
      args += "]";
      const std::string name =
          op.node.known() ? std::string(op.node.name)
                          : StrCat(op.op_name, " at ", op.location.ToString());
      add_track(static_cast<uint32_t>(i + 1), name, op.samples,
                std::move(args));
    }
    if (by_op.unplaced_samples) {
      add_track(static_cast<uint32_t>(by_op.ops.size() + 1),
                "(on no input op's line)", by_op.unplaced_samples, "");
    }
  }

  Status Flush() override {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.empty() && !writing_; });
    // Zones ending meanwhile record on; a full buffer waits on the lock, so
    // the trailer goes right after the last event written, and the next
    // buffer overwrites it.
    if (!status_.ok()) return status_;
    if (Status opened = OpenFile(); !opened.ok()) return opened;
    std::string out;
    if (events_end_ == 0) AppendHeader(&out);
    for (const auto& [tid, thread] : threads_) {
      Chunk& chunk = *thread->chunk;
      const uint32_t count = chunk.count.load(std::memory_order_acquire);
      AppendEvents(&out, chunk, chunk.consumed, count);
      chunk.consumed = count;
    }
    AppendThreadNames(&out);
    // Written once, among the events.
    for (const auto& [ticks, event] : profile_events_) {
      out += event;
      AppendMicroseconds(&out, clock_.SinceOrigin(ticks));
      out += "}";
    }
    profile_events_.clear();
    const size_t events_size = out.size();
    out += "\n],\n\"kilnProfile\":{";
    for (size_t i = 0; i < profile_entries_.size(); ++i) {
      out += i ? ",\n" : "\n";
      out += profile_entries_[i];
    }
    out += "}";
    if (!profile_sampling_.empty()) {
      out += ",\n\"kilnSampling\":" + profile_sampling_;
    }
    out += ",\n\"kilnSources\":{";
    bool first = true;
    for (const auto& [path, text] : sources_) {
      if (!first) out += ",";
      first = false;
      out += "\n";
      AppendJsonString(&out, path);
      out += ":";
      AppendJsonString(&out, text);
    }
    out += "\n},\n\"kilnSourcesOmitted\":{";
    first = true;
    for (const auto& [path, reason] : omitted_) {
      if (!first) out += ",";
      first = false;
      out += "\n";
      AppendJsonString(&out, path);
      out += ":";
      AppendJsonString(&out, reason);
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
    uint64_t begin;     // clock_ ticks
    uint64_t duration;  // clock_ ticks
  };

  /// One thread's events. The thread writes events[count] and then
  /// publishes count (release), so that Flush can read the events before
  /// count (acquire) while the thread records on.
  struct Chunk {
    uint32_t tid = 0;
    std::atomic<uint32_t> count{0};
    /// Events before it were written by Flush. Guarded by mutex_.
    uint32_t consumed = 0;
    Event events[kEventsPerChunk];
  };

  /// What a thread keeps for this tracer; owned by the tracer, so a thread
  /// may exit before Flush reads its last events.
  struct ThreadEvents {
    uint32_t tid = 0;
    /// The buffer the thread fills: replaced by the thread alone, under
    /// mutex_, and read by Flush under mutex_.
    Chunk* chunk = nullptr;
    // The thread's alone: sites seen lately, valid while sites_epoch_ is
    // `epoch`. A cached site is the copy of `views` while `*key` still
    // views the same strings and numbers.
    uint64_t epoch = 0;
    struct CachedSite {
      const TraceSite* key = nullptr;
      TraceSite views;
      Site* copy = nullptr;
    } cache[kCachedSites];
  };

  /// Per thread: the tracer it last recorded for and its state there.
  struct ThreadSlot {
    uint64_t tracer_serial = 0;
    ThreadEvents* events = nullptr;
  };
  static thread_local ThreadSlot current_;

  ThreadEvents& CurrentThread() {
    ThreadSlot& slot = current_;
    if (slot.tracer_serial == serial_) return *slot.events;
    return AttachThread();
  }

  /// First zone of the calling thread (or first since it recorded for
  /// another tracer).
  [[gnu::noinline]] ThreadEvents& AttachThread();

 public:
  /// The calling thread exits (ThreadExit): each tracer in `serials` still
  /// alive gets its buffer back, and queues what it holds for the writer.
  static void ThreadExited(uint32_t tid, const std::vector<uint64_t>& serials) {
    current_ = {};
    std::lock_guard<std::mutex> lock(LiveTracersMutex());
    for (uint64_t serial : serials) {
      auto it = LiveTracers().find(serial);
      if (it != LiveTracers().end()) it->second->Retire(tid);
    }
  }

 private:
  /// Drops thread `tid`'s state, its buffer queued if it holds events not
  /// yet written, freed otherwise: memory stays bounded by the threads alive
  /// at once, not by all that ever recorded.
  void Retire(uint32_t tid) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = threads_.find(tid);
    if (it == threads_.end()) return;
    Chunk* chunk = it->second->chunk;
    if (chunk->consumed < chunk->count.load(std::memory_order_relaxed)) {
      changed_.wait(lock, [&] { return queue_.size() < kQueuedChunks; });
      queue_.push_back(chunk);
      changed_.notify_all();
    } else {
      free_.push_back(chunk);
    }
    threads_.erase(it);
  }

  /// Whether `a` and `b` view the same strings and hold the same numbers:
  /// every field compared, folded into one branch on the hot path.
  static bool SameViews(const TraceSite& a, const TraceSite& b) {
    auto word = [](const void* p) { return reinterpret_cast<uintptr_t>(p); };
    const uintptr_t differ =
        (word(a.name.data()) ^ word(b.name.data())) |
        (a.name.size() ^ b.name.size()) |
        (word(a.file.data()) ^ word(b.file.data())) |
        (a.file.size() ^ b.file.size()) |
        (word(a.stage.data()) ^ word(b.stage.data())) |
        (a.stage.size() ^ b.stage.size()) |
        (word(a.input_location.file.data()) ^
         word(b.input_location.file.data())) |
        (a.input_location.file.size() ^ b.input_location.file.size()) |
        (a.input_location.line ^ b.input_location.line) |
        (a.input_location.column ^ b.input_location.column) |
        (a.workgroup_count[0] ^ b.workgroup_count[0]) |
        (a.workgroup_count[1] ^ b.workgroup_count[1]) |
        (a.workgroup_count[2] ^ b.workgroup_count[2]) | (a.line ^ b.line) |
        (static_cast<uintptr_t>(a.kind) ^ static_cast<uintptr_t>(b.kind));
    return differ == 0;
  }

  /// The copy of `site` from the thread's cache, else from InternSite.
  Site* CachedSite(ThreadEvents& thread, const TraceSite& site) {
    const uint64_t epoch = sites_epoch_.load(std::memory_order_relaxed);
    ThreadEvents::CachedSite& entry = thread.cache[CacheSlot(site)];
    // A site with an id is known by it; others are compared field by field.
    if (entry.key == &site && thread.epoch == epoch &&
        (site.id != 0 ? entry.views.id == site.id
                      : SameViews(entry.views, site)))
      return entry.copy;
    return CacheSite(thread, site, epoch);
  }

  static size_t CacheSlot(const TraceSite& site) {
    return (reinterpret_cast<uintptr_t>(&site) >> 4) % kCachedSites;
  }

  /// Out of line, as are the other slow paths, so that EndZone's own code
  /// stays short.
  [[gnu::noinline]] Site* CacheSite(ThreadEvents& thread, const TraceSite& site,
                                    uint64_t epoch) {
    ThreadEvents::CachedSite& entry = thread.cache[CacheSlot(site)];
    if (thread.epoch != epoch) {
      for (ThreadEvents::CachedSite& stale : thread.cache) stale.key = nullptr;
      thread.epoch = epoch;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    Site* copy = InternSite(site);
    // Load zones view the caller's path, whose memory may be reused for
    // another path: those few are never cached.
    if (site.kind != ZoneKind::kModuleLoad) entry = {&site, site, copy};
    return copy;
  }

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
    if (path.empty() || missing_.count(path) || omitted_.count(path)) return;
    auto [it, inserted] = sources_.try_emplace(std::string(path));
    if (!inserted) return;
    StatusOr<std::string> text = ReadPublishedSource(
        path, std::min(kMaxEmbeddedTextBytes,
                       kMaxEmbeddedTextsBytes - embedded_bytes_));
    if (text.ok()) {
      embedded_bytes_ += text->size();
      it->second = std::move(text).value();
      return;
    }
    sources_.erase(it);
    // Names without an embedded text (an executable's name, an input file
    // that was not embedded) simply have no entry; a text that could not
    // be read (too large, out of memory, corrupt) says why.
    if (text.status().code() == StatusCode::kNotFound) {
      missing_.emplace(path);
    } else {
      std::string reason = text.status().message();
      if (text.status().code() == StatusCode::kOutOfRange) {
        reason += StrCat("; the trace embeds at most ", kMaxEmbeddedTextBytes,
                         " bytes per text and ", kMaxEmbeddedTextsBytes,
                         " in all (kiln-dump --print-source shows it)");
      }
      omitted_.emplace(path, std::move(reason));
    }
  }

  /// An empty buffer for thread `tid`: a written one, else a new one. At
  /// most a buffer per thread, kQueuedChunks queued and one being written
  /// exist. Called with mutex_ held.
  Chunk* TakeChunk(uint32_t tid) {
    Chunk* chunk;
    if (free_.empty()) {
      chunks_.push_back(std::make_unique<Chunk>());
      chunk = chunks_.back().get();
    } else {
      chunk = free_.back();
      free_.pop_back();
    }
    chunk->tid = tid;
    chunk->count.store(0, std::memory_order_relaxed);
    chunk->consumed = 0;
    return chunk;
  }

  /// Queues the thread's full buffer for the writer, once there is room,
  /// and gives the thread an empty one.
  [[gnu::noinline]] void HandOff(ThreadEvents& thread) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < kQueuedChunks; });
    queue_.push_back(thread.chunk);
    thread.chunk = TakeChunk(thread.tid);
    changed_.notify_all();
  }

  /// The writer thread: formats and appends each queued buffer.
  void WriteChunks() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;
      Chunk* chunk = queue_.front();
      queue_.pop_front();
      const uint32_t from = chunk->consumed;
      // Full, unless its thread exited (Retire).
      const uint32_t to = chunk->count.load(std::memory_order_acquire);
      writing_ = true;
      changed_.notify_all();
      // Formatted outside the lock: sites and sources are only appended to,
      // the chunk is the writer's until it is freed, and Flush waits while
      // writing_ is set.
      lock.unlock();
      std::string& out = writer_out_;
      out.clear();
      if (events_end_ == 0) AppendHeader(&out);
      AppendEvents(&out, *chunk, from, to);
      Status written = OpenFile();
      if (written.ok()) written = WriteAt(out, events_end_);
      lock.lock();
      if (written.ok()) {
        events_end_ += out.size();
      } else if (status_.ok()) {
        status_ = written;
      }
      free_.push_back(chunk);
      writing_ = false;
      changed_.notify_all();
    }
  }

  /// Events [from, to) of `chunk`. Threads get their names from their first
  /// zone's kind. Called by the writer, or by Flush while the writer waits.
  void AppendEvents(std::string* out, const Chunk& chunk, uint32_t from,
                    uint32_t to) {
    if (from == to) return;
    thread_names_.emplace(chunk.tid,
                          chunk.events[from].site->kind == ZoneKind::kWorkgroups
                              ? "kiln worker"
                              : "kiln");
    const std::string prefix =
        ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":" + std::to_string(chunk.tid) +
        ",\"ts\":";
    for (uint32_t i = from; i < to; ++i)
      AppendEvent(out, *chunk.events[i].site, prefix, chunk.events[i]);
  }

  void AppendHeader(std::string* out) {
    *out += "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    *out +=
        "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\","
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
    StatusOr<int> fd = OpenChromeTraceFile(path_, /*truncate=*/true);
    if (!fd.ok()) return fd.status();
    fd_ = *fd;
    return OkStatus();
  }

  Status WriteAt(std::string_view data, uint64_t offset) {
    while (!data.empty()) {
      const ssize_t n =
          ::pwrite(fd_, data.data(), data.size(), static_cast<off_t>(offset));
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
    char* end =
        std::to_chars(digits, digits + sizeof(digits), nanoseconds / 1000).ptr;
    const uint64_t fraction = nanoseconds % 1000;
    *end++ = '.';
    *end++ = static_cast<char>('0' + fraction / 100);
    *end++ = static_cast<char>('0' + fraction / 10 % 10);
    *end++ = static_cast<char>('0' + fraction % 10);
    out->append(digits, end);
  }

  /// The event's own numbers, then its site's part, formatted once;
  /// `prefix`, its thread's, opens the event up to the "ts" value.
  void AppendEvent(std::string* out, Site& site, std::string_view prefix,
                   const Event& event) {
    if (site.formatted.empty()) FormatSite(site);
    out->append(prefix);
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
                    site.workgroups[0], site.workgroups[1], site.workgroups[2]);
      out->append(numbers);
      out->append(",\"input_location\":");
      AppendJsonString(out, SourceLocationView{site.input_file, site.input_line,
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
  const uint64_t serial_;
  ZoneClock clock_;  // converted by the writer thread (or Flush) alone
  /// Advanced by UnpublishSources: threads then drop their cached sites.
  std::atomic<uint64_t> sites_epoch_{0};

  std::mutex mutex_;
  std::condition_variable changed_;  // queue_, writing_ or stopping_
  // Guarded by mutex_.
  std::map<uint32_t, std::unique_ptr<ThreadEvents>> threads_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::vector<Chunk*> free_;
  std::deque<Chunk*> queue_;  // full, for the writer
  bool writing_ = false;      // the writer formats a chunk outside the lock
  bool stopping_ = false;
  Status status_;  // the first write error
  std::deque<Site> sites_;
  std::unordered_map<const TraceSite*, Site*> site_index_;
  std::map<std::string, std::string> sources_;
  /// AddProfile's instant events, until Flush writes them, and its
  /// "kilnProfile" entries ("export":{...}).
  /// (ticks, the event up to its "ts" value) of each instant event.
  std::vector<std::pair<uint64_t, std::string>> profile_events_;
  std::vector<std::string> profile_entries_;
  /// How the last profile's samples were taken ("kilnSampling"), if said.
  std::string profile_sampling_;
  std::set<std::string, std::less<>> missing_;
  /// Texts not embedded, with the reason; the bytes of those embedded.
  std::map<std::string, std::string, std::less<>> omitted_;
  uint64_t embedded_bytes_ = 0;

  // The writer's while writing_ is set; Flush's otherwise.
  int fd_ = -1;
  /// Kept from chunk to chunk: no growth, copies or fresh pages per chunk.
  std::string writer_out_;
  uint64_t events_end_ = 0;  // file offset after the last event
  std::map<uint32_t, const char*> thread_names_;
  std::set<uint32_t> named_threads_;

  std::thread writer_;
};

thread_local ChromeTracer::ThreadSlot ChromeTracer::current_;

/// Tells the tracers a thread recorded for that it exits. Touched only when
/// a thread first records for a tracer, so the hot path's thread_local
/// (ChromeTracer::current_) stays trivial.
struct ThreadExit {
  uint32_t tid = 0;
  std::vector<uint64_t> serials;
  ~ThreadExit() { ChromeTracer::ThreadExited(tid, serials); }
};
thread_local ThreadExit t_thread_exit;

ChromeTracer::ThreadEvents& ChromeTracer::AttachThread() {
  const uint32_t tid = CurrentThreadId();
  ThreadEvents* events;
  bool created = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::unique_ptr<ThreadEvents>& thread = threads_[tid];
    if (!thread) {
      thread = std::make_unique<ThreadEvents>();
      thread->tid = tid;
      thread->chunk = TakeChunk(tid);
      thread->epoch = sites_epoch_.load(std::memory_order_relaxed);
      created = true;
    }
    events = thread.get();
  }
  if (created) {
    // Not under mutex_: ThreadExited takes the two locks in this order.
    std::lock_guard<std::mutex> lock(LiveTracersMutex());
    std::vector<uint64_t>& serials = t_thread_exit.serials;
    serials.erase(std::remove_if(serials.begin(), serials.end(),
                                 [](uint64_t serial) {
                                   return LiveTracers().count(serial) == 0;
                                 }),
                  serials.end());
    serials.push_back(serial_);
    t_thread_exit.tid = tid;
  }
  current_ = {serial_, events};
  return *events;
}

}  // namespace

StatusOr<int> OpenChromeTraceFile(const std::string& path, bool truncate) {
  const std::string context = StrCat("cannot write trace '", path, "'");
  // O_NONBLOCK: with no reader, opening a FIFO fails (ENXIO) at once.
  const int fd = ::open(path.c_str(),
                        O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK |
                            (truncate ? O_TRUNC : O_APPEND),
                        0644);
  if (fd < 0 && errno == ENXIO)
    return InvalidArgumentError(context, ": not a regular file");
  if (fd < 0) return ErrnoToStatus(errno, context);
  struct stat st;
  if (::fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    ::close(fd);
    return InvalidArgumentError(context, ": not a regular file");
  }
  // Writes to a device such as /dev/null block, if at all, as before.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

std::unique_ptr<Tracer> CreateChromeTracer(std::string path,
                                           TraceOptions options) {
  return std::make_unique<ChromeTracer>(std::move(path), std::move(options));
}

}  // namespace kiln
