//===- thread_pool_test.cc - ThreadPool tests -----------------------------===//

#include "kiln/thread_pool.h"

#include <atomic>
#include <memory>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace kiln {
namespace {

class ThreadPoolTest : public ::testing::TestWithParam<int> {};

TEST_P(ThreadPoolTest, EveryIndexRunsExactlyOnce) {
  ThreadPool pool(GetParam());
  EXPECT_EQ(pool.thread_count(), GetParam());
  for (int64_t count : {0, 1, 7, 10000}) {
    SCOPED_TRACE(count);
    std::unique_ptr<std::atomic<int>[]> hits(new std::atomic<int>[count + 1]);
    for (int64_t i = 0; i <= count; ++i) hits[i] = 0;
    std::atomic<bool> bad_worker{false};
    pool.ParallelFor(count, [&](int64_t index, uint32_t worker_id) {
      hits[index].fetch_add(1);
      if (worker_id >= static_cast<uint32_t>(pool.thread_count())) {
        bad_worker = true;
      }
    });
    for (int64_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << i;
    EXPECT_EQ(hits[count].load(), 0);
    EXPECT_FALSE(bad_worker.load());
  }
}

TEST_P(ThreadPoolTest, ReusableForManySmallLoops) {
  ThreadPool pool(GetParam());
  std::atomic<int64_t> sum{0};
  int64_t expected = 0;
  for (int call = 0; call < 3000; ++call) {
    const int64_t count = call % 13;
    pool.ParallelFor(count, [&](int64_t index, uint32_t) {
      sum.fetch_add(index + 1, std::memory_order_relaxed);
    });
    expected += count * (count + 1) / 2;
    // ParallelFor returns only after all of its work is done.
    ASSERT_EQ(sum.load(), expected) << "call " << call;
  }
}

TEST_P(ThreadPoolTest, WorkerIdsAreDistinctPerConcurrentTask) {
  // Tasks running at the same time never share a worker id: a per-worker
  // scratch slot is never used by two tasks at once.
  ThreadPool pool(GetParam());
  std::vector<std::atomic<int>> busy(pool.thread_count());
  for (auto& b : busy) b = 0;
  std::atomic<bool> collision{false};
  pool.ParallelFor(2000, [&](int64_t, uint32_t worker_id) {
    if (busy[worker_id].fetch_add(1) != 0) collision = true;
    for (volatile int spin = 0; spin < 200; ++spin) {
    }
    busy[worker_id].fetch_sub(1);
  });
  EXPECT_FALSE(collision.load());
}

INSTANTIATE_TEST_SUITE_P(Threads, ThreadPoolTest, ::testing::Values(1, 2, 8));

TEST(ThreadPoolBasicTest, UsesSeveralWorkers) {
  ThreadPool pool(4);
  std::mutex mutex;
  std::set<uint32_t> seen;
  std::atomic<int> arrived{0};
  // Each of the first four tasks waits (bounded) until four are running, so
  // all threads must have taken part.
  pool.ParallelFor(4, [&](int64_t, uint32_t worker_id) {
    arrived.fetch_add(1);
    for (int i = 0; i < 2000000 && arrived.load() < 4; ++i) {
      std::this_thread::yield();
    }
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(worker_id);
  });
  EXPECT_EQ(seen.size(), 4u);
}

TEST(ThreadPoolBasicTest, DefaultUsesHardwareConcurrency) {
  ThreadPool pool;
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  EXPECT_EQ(pool.thread_count(), hardware > 0 ? hardware : 1);
}

TEST(ThreadPoolBasicTest, ConcurrentCallersAreSerialized) {
  ThreadPool pool(3);
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int call = 0; call < 200; ++call) {
        pool.ParallelFor(50, [&](int64_t, uint32_t) { total.fetch_add(1); });
      }
    });
  }
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(total.load(), 4 * 200 * 50);
}

}  // namespace
}  // namespace kiln
