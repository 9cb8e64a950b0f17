//===- sampler.cc - Per-thread CPU-time timers feeding a sample buffer ----===//
//
// See kiln/profiler.h for why per-thread CPU-time timers. The handler runs
// on whichever sampled thread used its CPU time; it touches only the active
// buffer (an atomic pointer), a preallocated array and atomic counters, all
// of which are async-signal-safe. Stop deletes the timers, detaches the
// buffer and waits for handlers already inside it before the buffer may go.
//
//===----------------------------------------------------------------------===//

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "kiln/profiler.h"

namespace kiln {

namespace {

/// Where the handler writes; allocated at Start, never resized.
struct SampleBuffer {
  SampleBuffer(size_t capacity, int generation)
      : pcs(new uintptr_t[capacity]),
        capacity(capacity),
        generation(generation) {}
  std::unique_ptr<uintptr_t[]> pcs;
  const size_t capacity;
  /// What this profiler's timers carry in sigev_value: a signal a stopped
  /// profiler's timer queued before it was deleted carries another.
  const int generation;
  /// Samples taken, kept or not (those at capacity and beyond are dropped).
  std::atomic<size_t> taken{0};
};

std::atomic<SampleBuffer*> g_active{nullptr};
/// The generation of the last profiler started.
std::atomic<int> g_generation{0};
/// Handlers between reading g_active and their last write to it.
std::atomic<int> g_in_handler{0};

static_assert(std::atomic<SampleBuffer*>::is_always_lock_free &&
                  std::atomic<size_t>::is_always_lock_free &&
                  std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

void OnSample(int, siginfo_t* info, void* context) {
  // Ours are timer signals; a SIGPROF someone else sends is ignored.
  if (info->si_code != SI_TIMER) return;
  g_in_handler.fetch_add(1, std::memory_order_seq_cst);
  SampleBuffer* buffer = g_active.load(std::memory_order_seq_cst);
  if (buffer && info->si_value.sival_int == buffer->generation) {
    const auto* ucontext = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    const uintptr_t pc =
        static_cast<uintptr_t>(ucontext->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    const uintptr_t pc = static_cast<uintptr_t>(ucontext->uc_mcontext.pc);
#else
#error "kiln's sampler reads the PC of x86-64 and AArch64 only"
#endif
    // The kernel checks CPU-time timers at its scheduler tick (often 250
    // Hz): periods that expired since the last signal come as overruns of
    // this one. Each period is a sample of this PC, so the counts stay
    // proportional to CPU time at any rate.
    const size_t periods =
        1 + static_cast<size_t>(std::clamp(info->si_overrun, 0, 1 << 16));
    const size_t first =
        buffer->taken.fetch_add(periods, std::memory_order_relaxed);
    for (size_t i = first; i < first + periods && i < buffer->capacity; ++i) {
      buffer->pcs[i] = pc;
    }
  }
  g_in_handler.fetch_sub(1, std::memory_order_seq_cst);
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

}  // namespace

class Profiler::Impl {
 public:
  Impl(size_t capacity, int generation) : buffer(capacity, generation) {}

  /// Arms a timer on the CPU-time clock of `thread` that signals `tid`.
  Status AddThread(pid_t tid, pthread_t thread, uint32_t hz) {
    clockid_t clock;
    if (int error = pthread_getcpuclockid(thread, &clock); error != 0) {
      return ErrnoToStatus(error, StrCat("no CPU-time clock for thread ", tid));
    }
    struct sigevent event = {};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGPROF;
    event._sigev_un._tid = tid;
    event.sigev_value.sival_int = buffer.generation;
    timer_t timer;
    if (timer_create(clock, &event, &timer) != 0) {
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

  void Stop() {
    for (timer_t timer : timers) timer_delete(timer);
    timers.clear();
    if (!attached) return;
    SampleBuffer* expected = &buffer;
    g_active.compare_exchange_strong(expected, nullptr);
    // A handler that read the buffer before it was detached may still write.
    while (g_in_handler.load(std::memory_order_seq_cst) != 0) {
      std::this_thread::yield();
    }
    attached = false;
  }

  SampleBuffer buffer;
  std::vector<timer_t> timers;
  bool attached = false;
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
  KILN_RETURN_IF_ERROR(InstallHandler());
  auto impl = std::make_unique<Impl>(
      options.max_samples,
      g_generation.fetch_add(1, std::memory_order_relaxed) + 1);
  SampleBuffer* expected = nullptr;
  if (!g_active.compare_exchange_strong(expected, &impl->buffer)) {
    return FailedPreconditionError("another profiler is sampling this process");
  }
  impl->attached = true;
  std::unique_ptr<Profiler> profiler(new Profiler(std::move(impl)));
  Impl& state = *profiler->impl_;
  KILN_RETURN_IF_ERROR(state.AddThread(::gettid(), pthread_self(), options.hz));
  if (pool) {
    for (const ThreadPool::WorkerThread& worker : pool->worker_threads()) {
      KILN_RETURN_IF_ERROR(
          state.AddThread(worker.tid, worker.handle, options.hz));
    }
  }
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

Profile Profiler::Resolve(const Module& module) {
  std::vector<uintptr_t> pcs = TakeSamples();
  return ResolveProfile(module, pcs, dropped_samples());
}

}  // namespace kiln
