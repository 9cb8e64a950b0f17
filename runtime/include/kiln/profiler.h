//===- profiler.h - Sampling where kernels spend their time --------*- C++ -*-===//
//
// A Profiler samples the program counter of every thread that runs kernels
// (the thread that starts it and the workers of a ThreadPool) at a fixed
// rate of each thread's CPU time, and maps the samples through the module's
// address -> line table (compiled in from the library's own line tables) to
// exports and lines of the embedded stage texts. Nothing on the target is
// needed beyond the module: no perf tool, no debugger, no DWARF parsing.
//
// Each thread gets its own clock that interrupts it with SIGPROF, one of:
//
//  - the cpu-clock event: perf_event_open's software cpu-clock counter on
//    that thread (user space only), driven by an hrtimer, so it fires at the
//    rate asked, up to tens of kHz. Its fd signals the thread itself
//    (F_SETOWN_EX, F_OWNER_TID) and disables itself after each period; the
//    handler re-arms it (PERF_EVENT_IOC_REFRESH). Debian's default
//    perf_event_paranoid (2) allows it: a process may profile itself in
//    user space.
//  - CPU-time timers, where perf_event_open is refused (a kernel without
//    perf events, a stricter perf_event_paranoid, seccomp): a POSIX timer on
//    the thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID through
//    pthread_getcpuclockid) sending SIGPROF to it (SIGEV_THREAD_ID). The
//    kernel checks these only at its scheduler tick (often 250 Hz), so a
//    rate above the tick is not reached, and a call shorter than a tick may
//    go unsampled. Periods that expired between two ticks (timer overruns)
//    are not counted as samples: a sample is one interrupt, at one PC.
//
// Either way every thread is sampled in proportion to its own CPU time, the
// signal lands on the thread that used it, a sleeping thread costs nothing
// and yields no samples, and a worker spinning for the next loop is
// sampled as host time. The Profile says which clock ran and the rate it
// reached (samples per second of the sampled threads' CPU time), which
// the tools print beside the rate asked.
//
// The signal handler only reads the interrupted PC from its ucontext and
// stores it at the next index of a buffer allocated at Start (an atomic
// counter), then re-arms a cpu-clock event: it allocates nothing, takes no
// lock and makes no call but that ioctl. When no Profiler runs, nothing of
// this costs anything: no clock exists, and the dispatch path has no
// profiling code at all.
//
// One Profiler samples at a time per process. Its handler stays installed
// for SIGPROF once a profiler has started (a late signal after Stop must
// find a handler that ignores it, not the default action, which ends the
// process).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PROFILER_H_
#define KILN_PROFILER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/debug_info.h"
#include "kiln/module.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "kiln/thread_pool.h"

namespace kiln {

/// What interrupts the sampled threads (see above).
enum class ProfileClock : uint8_t {
  /// ProfilerOptions only: the cpu-clock event where the kernel allows it,
  /// else CPU-time timers; the environment variable KILN_PROFILE_CLOCK
  /// (cpu-clock or timer) chooses instead.
  kAuto,
  /// perf_event_open's software cpu-clock event per thread.
  kCpuClockEvent,
  /// A POSIX timer on each thread's CPU-time clock.
  kCpuTimeTimer,
};

/// "auto", "cpu-clock" or "timer": as KILN_PROFILE_CLOCK and the tools'
/// reports name them.
std::string_view ProfileClockName(ProfileClock clock);

struct ProfilerOptions {
  /// Samples per second of each thread's CPU time (1 to 100000).
  uint32_t hz = 1000;
  /// Samples kept, over all threads (8 bytes each, allocated at Start);
  /// later ones are counted as dropped.
  size_t max_samples = size_t{1} << 20;
  /// The clock to sample by; kAuto: the best the kernel allows.
  ProfileClock clock = ProfileClock::kAuto;
};

/// Samples on one line of an export's code.
struct ProfileLine {
  /// Index into Module::sources() of the line's text; kNoSource for a line
  /// of an input file the module does not embed (or no line).
  uint32_t source = kNoSource;
  uint32_t line = 0;  // 1-based; 0: code the line table names no line for
  uint64_t samples = 0;
  /// The text's path (a view into the module); empty when line is 0.
  std::string_view path;
};

/// The samples in one export's code.
struct ProfileExport {
  ExportView export_view;
  uint64_t samples = 0;
  /// By samples, most first (then by source and line).
  std::vector<ProfileLine> lines;
};

/// How a Profiler took its samples.
struct ProfileSampling {
  ProfileClock clock = ProfileClock::kAuto;
  /// The rate asked (ProfilerOptions::hz).
  uint32_t hz = 0;
  /// Threads sampled: the caller and the pool's workers.
  uint32_t threads = 0;
  /// CPU time the sampled threads used while sampled (user and system:
  /// the cpu-clock event samples user space only, so time in the kernel,
  /// page faults say, lowers the rate reached).
  double cpu_seconds = 0;
};

/// Samples resolved against a module.
struct Profile {
  /// Every sample kept.
  uint64_t samples = 0;
  /// Samples outside the module's kernels (the runtime, the host program,
  /// a worker waiting for work).
  uint64_t host_samples = 0;
  /// Samples lost because the buffer was full.
  uint64_t dropped_samples = 0;
  /// Exports with at least one sample, most samples first.
  std::vector<ProfileExport> exports;
  /// Set by Profiler::Resolve; absent in a profile made otherwise.
  std::optional<ProfileSampling> sampling;

  /// The rate reached: samples taken (kept or dropped) per second of the
  /// sampled threads' CPU time; 0 without sampling or CPU time.
  double hz_reached() const;
  /// The CPU time each sample stands for: the sampled threads' CPU time
  /// over the samples taken; 0 without sampling or samples.
  double cpu_seconds_per_sample() const;
};

/// Aggregates sampled program counters by export and line of `module`
/// (Module::LocateCode); what the module's kernels do not hold is host time.
/// Fails when the module's address -> line tables are bad
/// (Module::UnpackCodeLines).
StatusOr<Profile> ResolveProfile(const Module& module,
                                 const std::vector<uintptr_t>& pcs,
                                 uint64_t dropped_samples);

/// How many of an export's hottest lines the reports show.
inline constexpr size_t kProfileTopLines = 10;

/// The stage name that RollUpProfile takes for the input program.
inline constexpr std::string_view kInputStage = "input";

/// `profile` with each export's lines followed back through the module's
/// cross-stage line maps (SourceTable::origin) to lines of the text of
/// `stage` (one of Module::capture_stage), or of the input program for
/// kInputStage. A line that came from several lines splits its samples
/// evenly among them (the first get the remainder); samples on lines with
/// no counterpart there count as line 0. Lines already in the input
/// program (what line tables at levels 1 and 2 name) stay as they are for
/// kInputStage. Fails if the module has no such stage.
StatusOr<Profile> RollUpProfile(const Module& module, const Profile& profile,
                                std::string_view stage);

/// The input op of `ex`'s own dispatch (FusedOpView::site 0) that input
/// line `path`:`line` lies in: the innermost whose text spans it, so that
/// the lines of an op's body are its own (a profile rolled up to the input
/// stage has such lines).
std::optional<FusedOpView> FindLineOp(const ExportView& ex,
                                      std::string_view path, uint32_t line);

/// The samples of one input op, or of one node of an imported model (ONNX),
/// whatever dispatches it was fused into.
struct ProfileInputOp {
  /// The node (known() for a model's node), else the op as the program
  /// wrote it, at its location.
  InputNodeView node;
  std::string_view op_name;
  SourceLocationView location;
  uint64_t samples = 0;
  /// The exports its samples fell in, most samples first.
  std::vector<std::string_view> exports;
};

/// A profile per input op.
struct ProfileInputOps {
  /// Ops with samples, most first.
  std::vector<ProfileInputOp> ops;
  /// Samples in the module's kernels, and those of them on no input op's
  /// line (code the line table names no line for, or a line no op of the
  /// export's provenance spans).
  uint64_t kernel_samples = 0;
  uint64_t unplaced_samples = 0;
};

/// `profile`, rolled up to the input program's lines, per input op: each
/// line's samples go to FindLineOp's op, split evenly with the ops standing
/// for it in the other dispatches that share the export's kernel (identical
/// kernels are merged, and do the same work), and a node's ops count as one.
ProfileInputOps ProfileByInputOp(const Profile& profile);

/// The samples of `ex` on no input op's line (see ProfileInputOps).
uint64_t UnplacedSamples(const ProfileExport& ex);

class Profiler {
 public:
  /// Starts sampling the calling thread and every worker of `pool` (may be
  /// null: the caller only), which must outlive the sampling (Stop or
  /// destruction). Samples of every thread go to one buffer. Fails if
  /// another Profiler is sampling, or the clocks cannot be created (also
  /// if options.clock asks for the cpu-clock event and the kernel refuses
  /// it: FailedPrecondition).
  static StatusOr<std::unique_ptr<Profiler>> Start(
      ThreadPool* pool, const ProfilerOptions& options = {});
  /// Stops sampling if still running.
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  /// Stops every clock; samples taken so far are kept. Idempotent.
  void Stop();

  /// The program counters sampled (stops first).
  std::vector<uintptr_t> TakeSamples();
  /// Samples that found the buffer full.
  uint64_t dropped_samples() const;
  /// The clock chosen at Start, the rate asked, the threads sampled and
  /// their CPU time so far (all of it once stopped).
  ProfileSampling sampling() const;

  /// Stops and resolves the samples against `module`, with sampling()
  /// (fails as ResolveProfile does).
  StatusOr<Profile> Resolve(const Module& module);

  class Impl;  // profile/sampler.cc

 private:
  explicit Profiler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kiln

#endif  // KILN_PROFILER_H_
