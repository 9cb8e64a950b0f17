//===- sampler.cc - Per-thread clocks feeding a sample buffer -------------===//
//
// See kiln/profiler.h for the two clocks and why per thread. The handler
// runs on whichever sampled thread used its CPU time; it touches only the
// active buffer (an atomic pointer), a preallocated array and atomic
// counters, all of which are async-signal-safe, and re-arms a cpu-clock
// event with one ioctl, a system call. Stop detaches the buffer, waits for
// handlers already inside it, then deletes the clocks; the buffer may go
// after that.
//
//===----------------------------------------------------------------------===//

#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "kiln/profiler.h"

namespace kiln {

namespace {

/// Where the handler writes; allocated at Start, never resized.
struct SampleBuffer {
  SampleBuffer(size_t capacity, int generation, size_t max_events)
      : pcs(new uintptr_t[capacity]),
        capacity(capacity),
        generation(generation),
        event_fds(new std::atomic<int>[max_events]),
        max_events(max_events) {}

  /// Whether `fd` is one of this profiler's cpu-clock events: a signal of
  /// a closed event names an fd that may since be something else's.
  bool OwnsEvent(int fd) const {
    const size_t count = event_count.load(std::memory_order_acquire);
    for (size_t i = 0; i < count; ++i) {
      if (event_fds[i].load(std::memory_order_relaxed) == fd) return true;
    }
    return false;
  }

  std::unique_ptr<uintptr_t[]> pcs;
  const size_t capacity;
  /// What this profiler's timers carry in sigev_value: a signal a stopped
  /// profiler's timer queued before it was deleted carries another.
  const int generation;
  /// The cpu-clock events' fds, published to the handler by event_count.
  std::unique_ptr<std::atomic<int>[]> event_fds;
  const size_t max_events;
  std::atomic<size_t> event_count{0};
  /// Samples taken, kept or not (those at capacity and beyond are dropped).
  std::atomic<size_t> taken{0};
};

std::atomic<SampleBuffer*> g_active{nullptr};
/// The generation of the last profiler started.
std::atomic<int> g_generation{0};
/// Handlers between reading g_active and their last use of it.
std::atomic<int> g_in_handler{0};

static_assert(std::atomic<SampleBuffer*>::is_always_lock_free &&
                  std::atomic<size_t>::is_always_lock_free &&
                  std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

void OnSample(int, siginfo_t* info, void* context) {
  // A CPU-time timer's signal comes as SI_TIMER, a cpu-clock event's (its
  // fd's F_SETSIG, sent when the event disables itself) as POLL_HUP; a
  // SIGPROF someone else sends is ignored.
  const bool from_timer = info->si_code == SI_TIMER;
  const bool from_event = info->si_code == POLL_HUP;
  if (!from_timer && !from_event) return;
  const int saved_errno = errno;
  g_in_handler.fetch_add(1, std::memory_order_seq_cst);
  SampleBuffer* buffer = g_active.load(std::memory_order_seq_cst);
  if (buffer && (from_timer ? info->si_value.sival_int == buffer->generation
                            : buffer->OwnsEvent(info->si_fd))) {
    const auto* ucontext = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    const uintptr_t pc =
        static_cast<uintptr_t>(ucontext->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    const uintptr_t pc = static_cast<uintptr_t>(ucontext->uc_mcontext.pc);
#else
#error "kiln's sampler reads the PC of x86-64 and AArch64 only"
#endif
    // One interrupt, one sample: a timer's overruns (periods that expired
    // between two kernel ticks) are not samples of this PC.
    const size_t index = buffer->taken.fetch_add(1, std::memory_order_relaxed);
    if (index < buffer->capacity) buffer->pcs[index] = pc;
    // The event disabled itself at this period's end: count the next one.
    if (from_event) ioctl(info->si_fd, PERF_EVENT_IOC_REFRESH, 1);
  }
  g_in_handler.fetch_sub(1, std::memory_order_seq_cst);
  errno = saved_errno;
}

/// Installs OnSample for SIGPROF, once per process (see kiln/profiler.h).
Status InstallHandler() {
  static std::once_flag once;
  static int error = 0;
  std::call_once(once, [] {
    struct sigaction action = {};
    action.sa_sigaction = OnSample;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGPROF, &action, nullptr) != 0) error = errno;
  });
  if (error != 0) {
    return ErrnoToStatus(error, "cannot install the SIGPROF handler");
  }
  return OkStatus();
}

/// The clock options.clock names, or KILN_PROFILE_CLOCK's for kAuto.
StatusOr<ProfileClock> ChooseClock(ProfileClock asked) {
  if (asked != ProfileClock::kAuto) return asked;
  const char* env = std::getenv("KILN_PROFILE_CLOCK");
  if (!env || !*env) return ProfileClock::kAuto;
  for (ProfileClock clock : {ProfileClock::kAuto, ProfileClock::kCpuClockEvent,
                             ProfileClock::kCpuTimeTimer}) {
    if (ProfileClockName(clock) == env) return clock;
  }
  return InvalidArgumentError("KILN_PROFILE_CLOCK is '", env,
                              "'; expected auto, cpu-clock or timer");
}

double Seconds(const timespec& time) {
  return static_cast<double>(time.tv_sec) + 1e-9 * time.tv_nsec;
}

}  // namespace

std::string_view ProfileClockName(ProfileClock clock) {
  switch (clock) {
    case ProfileClock::kAuto:
      return "auto";
    case ProfileClock::kCpuClockEvent:
      return "cpu-clock";
    case ProfileClock::kCpuTimeTimer:
      return "timer";
  }
  return "auto";
}

class Profiler::Impl {
 public:
  Impl(size_t capacity, int generation, size_t max_threads, uint32_t hz)
      : buffer(capacity, generation, max_threads), hz(hz) {}

  /// Starts sampling thread `tid` (`thread`) on `clock` (kAuto: the
  /// cpu-clock event if the kernel allows it, else timers, for this and
  /// every later thread).
  Status AddThread(pid_t tid, pthread_t thread, ProfileClock* clock) {
    SampledThread& sampled = threads.emplace_back();
    sampled.tid = tid;
    if (int error = pthread_getcpuclockid(thread, &sampled.cpu_clock);
        error != 0) {
      threads.pop_back();
      return ErrnoToStatus(error, StrCat("no CPU-time clock for thread ", tid));
    }
    timespec now;
    clock_gettime(sampled.cpu_clock, &now);
    sampled.cpu_start = Seconds(now);
    if (*clock != ProfileClock::kCpuTimeTimer) {
      const int error = AddEvent(tid);
      if (error == 0) {
        *clock = ProfileClock::kCpuClockEvent;
        return OkStatus();
      }
      if (*clock == ProfileClock::kCpuClockEvent) {
        return FailedPreconditionError(
            ErrnoToStatus(error, StrCat("the kernel refused a cpu-clock event "
                                        "(perf_event_open) on thread ",
                                        tid))
                .message());
      }
      // Refused (perf_event_paranoid above 2, seccomp, no perf events):
      // timers for every thread.
      *clock = ProfileClock::kCpuTimeTimer;
    }
    return AddTimer(tid, sampled.cpu_clock);
  }

  /// Detaches the buffer, then deletes the clocks; keeps the threads' CPU
  /// time so far.
  void Stop() {
    if (!attached) return;
    cpu_seconds = CpuSeconds();
    SampleBuffer* expected = &buffer;
    g_active.compare_exchange_strong(expected, nullptr);
    // A handler that read the buffer before it was detached may still
    // write to it, or re-arm an event.
    while (g_in_handler.load(std::memory_order_seq_cst) != 0) {
      std::this_thread::yield();
    }
    for (timer_t timer : timers) timer_delete(timer);
    timers.clear();
    const size_t events = buffer.event_count.load(std::memory_order_relaxed);
    for (size_t i = 0; i < events; ++i) close(buffer.event_fds[i].load());
    attached = false;
  }

  /// The sampled threads' CPU time since Start.
  double CpuSeconds() const {
    if (!attached) return cpu_seconds;
    double total = 0;
    for (const SampledThread& sampled : threads) {
      timespec now;
      if (clock_gettime(sampled.cpu_clock, &now) == 0) {
        total += Seconds(now) - sampled.cpu_start;
      }
    }
    return total;
  }

  size_t thread_count() const { return threads.size(); }

  SampleBuffer buffer;
  const uint32_t hz;
  ProfileClock clock = ProfileClock::kAuto;
  bool attached = false;

 private:
  struct SampledThread {
    pid_t tid = 0;
    clockid_t cpu_clock = 0;
    double cpu_start = 0;
  };

  /// Opens a cpu-clock event counting `tid`'s user-space CPU time that
  /// sends it SIGPROF at the end of its first period; 0 or an errno.
  int AddEvent(pid_t tid) {
    struct perf_event_attr attr = {};
    attr.size = sizeof(attr);
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = 1000000000ULL / hz;  // nanoseconds of CPU time
    attr.disabled = 1;
    attr.exclude_kernel = 1;  // what perf_event_paranoid 2 allows
    attr.exclude_hv = 1;
    const long fd =
        syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return errno;
    // The fd signals SIGPROF (with si_fd, si_code POLL_HUP) to the thread
    // itself when the event disables itself; the handler re-enables it
    // for one more period (PERF_EVENT_IOC_REFRESH).
    struct f_owner_ex owner = {F_OWNER_TID, tid};
    const int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
        fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
        fcntl(fd, F_SETFL, flags | O_ASYNC) != 0) {
      const int error = errno;
      close(fd);
      return error;
    }
    const size_t index = buffer.event_count.load(std::memory_order_relaxed);
    buffer.event_fds[index].store(static_cast<int>(fd),
                                  std::memory_order_relaxed);
    buffer.event_count.store(index + 1, std::memory_order_release);
    if (ioctl(fd, PERF_EVENT_IOC_REFRESH, 1) != 0) return errno;
    return 0;
  }

  /// Arms a timer on CPU-time clock `cpu_clock` that signals `tid`.
  Status AddTimer(pid_t tid, clockid_t cpu_clock) {
    struct sigevent event = {};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event._sigev_un._tid = tid;
    event.sigev_value.sival_int = buffer.generation;
    timer_t timer;
    if (timer_create(cpu_clock, &event, &timer) != 0) {
      return ErrnoToStatus(errno,
                           StrCat("cannot create a timer for thread ", tid));
    }
    timers.push_back(timer);
    const long period = 1000000000L / hz;
    struct itimerspec spec = {};
    spec.it_interval.tv_sec = period / 1000000000L;
    spec.it_interval.tv_nsec = period % 1000000000L;
    spec.it_value = spec.it_interval;
    if (timer_settime(timer, 0, &spec, nullptr) != 0) {
      return ErrnoToStatus(errno,
                           StrCat("cannot start the timer of thread ", tid));
    }
    return OkStatus();
  }

  std::vector<SampledThread> threads;
  std::vector<timer_t> timers;
  double cpu_seconds = 0;  // once stopped
};

StatusOr<std::unique_ptr<Profiler>> Profiler::Start(
    ThreadPool* pool, const ProfilerOptions& options) {
  if (options.hz < 1 || options.hz > 100000) {
    return InvalidArgumentError("sampling rate ", options.hz,
                                " Hz is outside [1, 100000]");
  }
  if (options.max_samples == 0) {
    return InvalidArgumentError("a profile needs room for samples");
  }
  KILN_ASSIGN_OR_RETURN(ProfileClock clock, ChooseClock(options.clock));
  KILN_RETURN_IF_ERROR(InstallHandler());
  std::vector<ThreadPool::WorkerThread> workers;
  if (pool) workers = pool->worker_threads();
  auto impl = std::make_unique<Impl>(
      options.max_samples,
      g_generation.fetch_add(1, std::memory_order_relaxed) + 1,
      1 + workers.size(), options.hz);
  SampleBuffer* expected = nullptr;
  if (!g_active.compare_exchange_strong(expected, &impl->buffer)) {
    return FailedPreconditionError("another profiler is sampling this process");
  }
  impl->attached = true;
  std::unique_ptr<Profiler> profiler(new Profiler(std::move(impl)));
  Impl& state = *profiler->impl_;
  KILN_RETURN_IF_ERROR(state.AddThread(::gettid(), pthread_self(), &clock));
  for (const ThreadPool::WorkerThread& worker : workers) {
    KILN_RETURN_IF_ERROR(state.AddThread(worker.tid, worker.handle, &clock));
  }
  state.clock = clock;
  return profiler;
}

Profiler::Profiler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Profiler::~Profiler() { Stop(); }

void Profiler::Stop() { impl_->Stop(); }

std::vector<uintptr_t> Profiler::TakeSamples() {
  Stop();
  const SampleBuffer& buffer = impl_->buffer;
  const size_t kept =
      std::min(buffer.taken.load(std::memory_order_relaxed), buffer.capacity);
  return std::vector<uintptr_t>(buffer.pcs.get(), buffer.pcs.get() + kept);
}

uint64_t Profiler::dropped_samples() const {
  const SampleBuffer& buffer = impl_->buffer;
  const size_t taken = buffer.taken.load(std::memory_order_relaxed);
  return taken > buffer.capacity ? taken - buffer.capacity : 0;
}

ProfileSampling Profiler::sampling() const {
  ProfileSampling sampling;
  sampling.clock = impl_->clock;
  sampling.hz = impl_->hz;
  sampling.threads = static_cast<uint32_t>(impl_->thread_count());
  sampling.cpu_seconds = impl_->CpuSeconds();
  return sampling;
}

StatusOr<Profile> Profiler::Resolve(const Module& module) {
  std::vector<uintptr_t> pcs = TakeSamples();
  KILN_ASSIGN_OR_RETURN(Profile profile,
                        ResolveProfile(module, pcs, dropped_samples()));
  profile.sampling = sampling();
  return profile;
}

}  // namespace kiln
