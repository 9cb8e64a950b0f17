//===- thread_pool.cc - Fork-join pool ------------------------------------===//

#include "kiln/thread_pool.h"

#include <algorithm>

namespace kiln {

ThreadPool::ThreadPool(int thread_count) {
  if (thread_count <= 0) {
    thread_count = static_cast<int>(std::thread::hardware_concurrency());
    if (thread_count <= 0) thread_count = 1;
  }
  workers_.reserve(thread_count - 1);
  for (int i = 1; i < thread_count; ++i) {
    workers_.emplace_back(&ThreadPool::WorkerMain, this,
                          static_cast<uint32_t>(i));
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_available_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::RunIndices(uint32_t worker_id) {
  bool began = false;
  for (;;) {
    const int64_t index = next_index_.fetch_add(1, std::memory_order_relaxed);
    if (index >= count_) break;
    if (scope_ && !began) {
      scope_->begin(scope_->context, worker_id);
      began = true;
    }
    fn_(context_, index, worker_id);
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
    next_index_.store(0, std::memory_order_relaxed);
    helpers_ = static_cast<int>(std::min<int64_t>(count - 1, workers_.size()));
    finished_helpers_ = 0;
    ++generation_;
    job_state_.store(uint64_t{generation_} << 32, std::memory_order_release);
  }
  work_available_.notify_all();

  RunIndices(0);

  // No index is left: close the loop and wait for the helpers that joined.
  const uint64_t state =
      job_state_.fetch_or(kClosedBit, std::memory_order_acq_rel);
  const int joined = static_cast<int>(state & (kClosedBit - 1));
  if (joined > 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    work_done_.wait(lock, [&] { return finished_helpers_ == joined; });
  }
}

void ThreadPool::WorkerMain(uint32_t worker_id) {
  uint32_t seen_generation = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_available_.wait(lock, [&] {
      return stopping_ || generation_ != seen_generation;
    });
    if (stopping_) return;
    seen_generation = generation_;
    // Not needed for this loop (fewer indices than workers).
    if (static_cast<int>(worker_id) > helpers_) continue;
    lock.unlock();

    // Join unless the caller already closed this loop (or moved on).
    bool joined = false;
    uint64_t state = job_state_.load(std::memory_order_acquire);
    while ((state >> 32) == seen_generation && !(state & kClosedBit)) {
      if (job_state_.compare_exchange_weak(state, state + 1,
                                           std::memory_order_acq_rel)) {
        joined = true;
        break;
      }
    }
    if (joined) RunIndices(worker_id);

    lock.lock();
    if (joined) {
      ++finished_helpers_;
      work_done_.notify_one();
    }
  }
}

}  // namespace kiln
