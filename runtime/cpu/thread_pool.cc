//===- thread_pool.cc - Fork-join pool ------------------------------------===//

#include "kiln/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <system_error>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace kiln {

namespace {

/// How long a worker waits for the next loop, and the caller for the
/// helpers to finish theirs, spinning before it sleeps: a wake-up through
/// the kernel takes tens of microseconds, longer than many dispatches.
constexpr std::chrono::microseconds kSpinTime{100};

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

/// Takes the next chunk from the front of `share` (front << 32 | back), or
/// from its back; false when the share is empty.
bool TakeChunk(std::atomic<uint64_t>& share, bool from_back, int64_t* chunk) {
  uint64_t range = share.load(std::memory_order_relaxed);
  for (;;) {
    const uint64_t front = range >> 32, back = range & 0xffffffffu;
    if (front >= back) return false;
    const uint64_t taken =
        from_back ? (front << 32) | (back - 1) : ((front + 1) << 32) | back;
    if (share.compare_exchange_weak(range, taken, std::memory_order_relaxed)) {
      *chunk = static_cast<int64_t>(from_back ? back - 1 : front);
      return true;
    }
  }
}

}  // namespace

ThreadPool::ThreadPool(int thread_count) {
  if (thread_count <= 0) {
    thread_count = static_cast<int>(std::thread::hardware_concurrency());
    if (thread_count <= 0) thread_count = 1;
  }
  shares_ = std::make_unique<std::atomic<uint64_t>[]>(thread_count);
  workers_.reserve(thread_count - 1);
  worker_tids_.assign(thread_count - 1, 0);
  for (int i = 1; i < thread_count; ++i) {
    try {
      workers_.emplace_back(&ThreadPool::WorkerMain, this,
                            static_cast<uint32_t>(i));
    } catch (const std::system_error& error) {
      // Out of threads or memory for their stacks: the pool runs on those
      // it has, and says why it has no more.
      status_ = ResourceExhaustedError("cannot start thread ", i + 1, " of ",
                                       thread_count, ": ", error.what());
      std::lock_guard<std::mutex> lock(mutex_);
      worker_tids_.resize(workers_.size());
      break;
    }
  }
  // Every worker records its thread id first thing; wait for them all.
  std::unique_lock<std::mutex> lock(mutex_);
  work_done_.wait(lock, [&] {
    return std::count(worker_tids_.begin(), worker_tids_.end(), 0) == 0;
  });
}

std::vector<ThreadPool::WorkerThread> ThreadPool::worker_threads() {
  std::vector<WorkerThread> threads;
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < workers_.size(); ++i) {
    threads.push_back({worker_tids_[i], workers_[i].native_handle()});
  }
  return threads;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_.store(true, std::memory_order_relaxed);
  }
  work_available_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::RunIndices(uint32_t worker_id) {
  bool began = false;
  const int own = static_cast<int>(worker_id);
  for (int offset = 0; offset < participants_; ++offset) {
    const int victim = (own + offset) % participants_;
    int64_t chunk;
    while (TakeChunk(shares_[victim], /*from_back=*/offset != 0, &chunk)) {
      if (scope_ && !began) {
        scope_->begin(scope_->context, worker_id);
        began = true;
      }
      const int64_t end = std::min(count_, (chunk + 1) * chunk_);
      for (int64_t index = chunk * chunk_; index < end; ++index) {
        fn_(context_, index, worker_id);
      }
    }
  }
  if (began) scope_->end(scope_->context, worker_id);
}

void ThreadPool::ParallelForImpl(int64_t count, TaskFn fn, void* context,
                                 const WorkerScope* scope) {
  if (count <= 0) return;
  // A single index is cheaper on the caller alone than waking anybody.
  if (count == 1 || workers_.empty()) {
    if (scope) scope->begin(scope->context, 0);
    for (int64_t i = 0; i < count; ++i) fn(context, i, 0);
    if (scope) scope->end(scope->context, 0);
    return;
  }

  std::lock_guard<std::mutex> call_lock(call_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = fn;
    context_ = context;
    scope_ = scope;
    count_ = count;
    const int helpers =
        static_cast<int>(std::min<int64_t>(count - 1, workers_.size()));
    helpers_.store(helpers, std::memory_order_relaxed);
    chunk_ = count / (int64_t{1} << 31) + 1;
    const int64_t chunks = (count + chunk_ - 1) / chunk_;
    participants_ = helpers + 1;
    for (int p = 0; p < participants_; ++p) {
      const uint64_t front = static_cast<uint64_t>(chunks * p / participants_);
      const uint64_t back =
          static_cast<uint64_t>(chunks * (p + 1) / participants_);
      shares_[p].store(front << 32 | back, std::memory_order_relaxed);
    }
    finished_helpers_.store(0, std::memory_order_relaxed);
    ++generation_;
    job_state_.store(uint64_t{generation_} << 32, std::memory_order_release);
  }
  work_available_.notify_all();

  RunIndices(0);

  // No index is left: close the loop and wait for the helpers that joined.
  const uint64_t state =
      job_state_.fetch_or(kClosedBit, std::memory_order_acq_rel);
  const int joined = static_cast<int>(state & (kClosedBit - 1));
  auto done = [&] {
    return finished_helpers_.load(std::memory_order_acquire) == joined;
  };
  const auto spin_end = std::chrono::steady_clock::now() + kSpinTime;
  for (uint32_t spins = 1; !done(); ++spins) {
    if (spins % 64 == 0 && std::chrono::steady_clock::now() >= spin_end) {
      std::unique_lock<std::mutex> lock(mutex_);
      work_done_.wait(lock, done);
      break;
    }
    CpuRelax();
  }
}

void ThreadPool::WorkerMain(uint32_t worker_id) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    worker_tids_[worker_id - 1] = ::gettid();
  }
  // No loop runs before the constructor returns: this wakes only it.
  work_done_.notify_all();
  uint32_t seen_generation = 0;
  for (;;) {
    // Spin for the next loop, then sleep until one is published.
    uint64_t state = job_state_.load(std::memory_order_acquire);
    const auto spin_end = std::chrono::steady_clock::now() + kSpinTime;
    for (uint32_t spins = 1; (state >> 32) == seen_generation; ++spins) {
      if (stopping_.load(std::memory_order_relaxed)) return;
      // The clock is read every 64 spins, not on every one.
      if (spins % 64 == 0 && std::chrono::steady_clock::now() >= spin_end) {
        std::unique_lock<std::mutex> lock(mutex_);
        work_available_.wait(lock, [&] {
          return stopping_.load(std::memory_order_relaxed) ||
                 generation_ != seen_generation;
        });
        if (stopping_.load(std::memory_order_relaxed)) return;
        state = job_state_.load(std::memory_order_acquire);
        break;
      }
      CpuRelax();
      state = job_state_.load(std::memory_order_acquire);
    }
    seen_generation = static_cast<uint32_t>(state >> 32);
    // Not needed for this loop (fewer indices than workers).
    if (static_cast<int>(worker_id) > helpers_.load(std::memory_order_relaxed))
      continue;

    // Join unless the caller already closed this loop (or moved on).
    bool joined = false;
    while ((state >> 32) == seen_generation && !(state & kClosedBit)) {
      if (job_state_.compare_exchange_weak(state, state + 1,
                                           std::memory_order_acq_rel)) {
        joined = true;
        break;
      }
    }
    if (!joined) continue;
    RunIndices(worker_id);
    std::lock_guard<std::mutex> lock(mutex_);
    finished_helpers_.fetch_add(1, std::memory_order_release);
    work_done_.notify_one();
  }
}

}  // namespace kiln
