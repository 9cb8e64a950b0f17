//===- thread_pool_test.cc - ThreadPool tests -----------------------------===//

#include "kiln/thread_pool.h"

#include <sys/resource.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
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

TEST(ThreadPoolBasicTest, EachThreadStartsWithItsOwnShare) {
  // Thread w owns indices [4w, 4w + 4) of 16. Each thread's first task waits
  // (bounded) until all four threads have begun one, so none has finished a
  // task, let alone its share, before every thread took its first index:
  // nothing was taken from another's share yet.
  ThreadPool pool(4);
  std::vector<std::atomic<int64_t>> first(4);
  for (auto& index : first) index = -1;
  std::atomic<int> arrived{0};
  pool.ParallelFor(16, [&](int64_t index, uint32_t worker_id) {
    int64_t unset = -1;
    if (!first[worker_id].compare_exchange_strong(unset, index)) return;
    arrived.fetch_add(1);
    for (int i = 0; i < 2000000 && arrived.load() < 4; ++i) {
      std::this_thread::yield();
    }
  });
  for (uint32_t worker = 0; worker < 4; ++worker) {
    EXPECT_EQ(first[worker].load(), 4 * worker) << "thread " << worker;
  }
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

// A thread that cannot start (here: no address space left for its stack)
// leaves a pool of the threads that did, with a status saying why, instead
// of terminating the process. Sanitizers reserve far more address space
// than any limit this test could set, so it runs in plain builds.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
TEST(ThreadPoolDeathTest, FailedThreadCreationIsAStatus) {
  EXPECT_EXIT(
      {
        struct rlimit limit;
        getrlimit(RLIMIT_AS, &limit);
        // Enough for the process as it is, not for 64 8-MiB stacks more.
        limit.rlim_cur = 256u << 20;
        FILE* maps = std::fopen("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (maps && std::fscanf(maps, "%lu", &pages) == 1)
          limit.rlim_cur += pages * 4096;
        if (maps) std::fclose(maps);
        setrlimit(RLIMIT_AS, &limit);
        ThreadPool pool(64);
        std::atomic<int64_t> sum{0};
        pool.ParallelFor(100, [&](int64_t i, uint32_t) { sum += i; });
        const bool ok = !pool.status().ok() && pool.thread_count() < 64 &&
                        pool.status().message().find("cannot start thread") !=
                            std::string::npos &&
                        sum == 4950;
        std::fprintf(stderr, "%d threads: %s\n", pool.thread_count(),
                     pool.status().ToString().c_str());
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "threads: .*cannot start thread");
}
#endif

}  // namespace
}  // namespace kiln
