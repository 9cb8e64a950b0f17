//===- thread_pool.h - Fork-join pool for dispatch workgroups ------*- C++ -*-===//
//
// A fixed set of worker threads that run ParallelFor loops. The calling thread
// takes part in every loop, so a pool of N threads starts N - 1 workers. Each
// thread the loop plans for owns a contiguous share of its indices, the same
// share in every loop of that count, and takes them from the front; one that
// runs out takes the others' from the back, so uneven workgroups, and workers
// late to join, balance themselves. Consecutive dispatches over the same rows
// thus mostly read what the same core wrote, where indices dealt out in turn
// interleave the cores' rows (AMD Zen 4, 2 threads, interleaved runs of AVX-512
// and of x86-64-v3 code: the ResNet block 0.99-1.02x, the transformer layer
// 0.95-1.08x (1.01-1.08x but one x86-64-v3 run), the MLP 0.98-1.09x). A loop
// costs one condition variable broadcast, and the caller never waits for a
// worker that has not woken up yet: workers join a loop only while indices
// remain, so thousands of small dispatches do not pay a thread wake-up each.
// After a loop a worker spins for a moment (about 100 us) before it sleeps: the
// dispatches of one call follow each other within microseconds, and a spinning
// worker joins the next one at once instead of a wake-up later. No thread is
// created after construction.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_THREAD_POOL_H_
#define KILN_THREAD_POOL_H_

#include <pthread.h>
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "kiln/status.h"

namespace kiln {

class ThreadPool {
 public:
  /// A pool of `thread_count` threads including the caller; 0 picks
  /// std::thread::hardware_concurrency(). 1 runs every loop on the caller.
  explicit ThreadPool(int thread_count = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Number of threads that run loops, including the caller; worker ids are
  /// in [0, thread_count()).
  int thread_count() const { return static_cast<int>(workers_.size()) + 1; }

  /// A worker thread (not the caller), for a sampler that arms a timer on
  /// each (kiln/profiler.h).
  struct WorkerThread {
    pid_t tid;         // Linux thread id (gettid)
    pthread_t handle;  // its POSIX handle
  };
  /// Every worker, known from construction on (each records its id when it
  /// starts; the constructor waits for that).
  std::vector<WorkerThread> worker_threads();

  /// OK, or why fewer threads than asked for started: thread_count() says
  /// how many did, and the pool still runs every loop on them. Tools treat
  /// it as an error.
  const Status& status() const { return status_; }

  /// Calls fn(index, worker_id) for every index in [0, count) exactly once
  /// and returns when all calls have finished. The caller runs as worker 0.
  /// Loops from different threads are serialized. `fn` must not call
  /// ParallelFor on the same pool.
  template <typename Fn>
  void ParallelFor(int64_t count, Fn&& fn) {
    ParallelFor(count, std::forward<Fn>(fn), nullptr);
  }

  /// Calls made on a worker around its share of one loop: `begin` before the
  /// first index it runs, `end` after its last (both on that worker's
  /// thread; a worker that runs no index sees neither).
  struct WorkerScope {
    void (*begin)(void* context, uint32_t worker_id) = nullptr;
    void (*end)(void* context, uint32_t worker_id) = nullptr;
    void* context = nullptr;
  };

  /// ParallelFor with a WorkerScope (none when null), e.g. a trace zone per
  /// worker.
  template <typename Fn>
  void ParallelFor(int64_t count, Fn&& fn, const WorkerScope* scope) {
    using FnType = std::remove_reference_t<Fn>;
    ParallelForImpl(
        count,
        [](void* context, int64_t index, uint32_t worker_id) {
          (*static_cast<FnType*>(context))(index, worker_id);
        },
        const_cast<void*>(static_cast<const void*>(&fn)), scope);
  }

 private:
  using TaskFn = void (*)(void* context, int64_t index, uint32_t worker_id);

  void ParallelForImpl(int64_t count, TaskFn fn, void* context,
                       const WorkerScope* scope);
  void WorkerMain(uint32_t worker_id);
  // Takes indices from its share, then from the others', until none is
  // left.
  void RunIndices(uint32_t worker_id);

  std::vector<std::thread> workers_;
  // Linux thread id of each worker (worker_tids_[i] is worker i + 1's),
  // written under mutex_ as it starts.
  std::vector<pid_t> worker_tids_;
  Status status_;

  // One loop runs at a time.
  std::mutex call_mutex_;

  // Guards the fields below except job_state_ and shares_.
  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable work_done_;
  uint32_t generation_ = 0;  // bumped for every loop that involves workers
  // Also read by spinning workers, without the mutex.
  std::atomic<bool> stopping_{false};
  // Workers 1..helpers_ may join this loop. Atomic: a worker slow to look
  // may read the next loop's count; it then skips or fails to join (the
  // join checks the generation), which is harmless.
  std::atomic<int> helpers_{0};
  // Joined helpers that have finished; written under mutex_, read by the
  // caller spinning without it.
  std::atomic<int> finished_helpers_{0};

  // The current loop; written under mutex_ before generation_ is bumped and
  // stable until every helper that joined it has finished.
  TaskFn fn_ = nullptr;
  void* context_ = nullptr;
  const WorkerScope* scope_ = nullptr;
  int64_t count_ = 0;
  // Indices are taken in chunks of chunk_ (1 unless the count exceeds what
  // a share's 32-bit halves hold).
  int64_t chunk_ = 1;
  // The shares of the threads the loop plans for (the caller's first), one
  // per thread: front << 32 | back, in chunks; [front, back) remain.
  int participants_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> shares_;

  // generation << 32 | closed << 31 | number of helpers that joined. A
  // helper joins only while the loop is open; the caller closes it when it
  // runs out of indices and then waits just for the helpers that joined, not
  // for workers that have not woken up yet (they skip the closed loop).
  // Stored with release after the loop's fields, so a worker that sees a
  // new generation here (spinning, without the mutex) sees the loop too.
  static constexpr uint64_t kClosedBit = uint64_t{1} << 31;
  std::atomic<uint64_t> job_state_{0};
};

}  // namespace kiln

#endif  // KILN_THREAD_POOL_H_
