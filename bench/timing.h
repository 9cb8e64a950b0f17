//===- timing.h - Timing shared by the benchmarks ------------------*- C++ -*-===//
//
// Figures are medians of repeated runs after a warm-up, and the best of
// rounds that measure every contender in turn, so that a moment of load
// elsewhere slows one round of all contenders rather than one figure.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCH_TIMING_H_
#define KILN_BENCH_TIMING_H_

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

namespace kiln::bench {

/// How long `body` runs before it is timed. One run touches the pages and
/// warms the caches; the rest let the kernel place threads that slept
/// through the settle (some guest kernels wake a thread of little recent
/// use on its waker's busy CPU, and keep it there for tens of milliseconds,
/// so a short burst of calls on two threads runs at one's speed).
constexpr std::chrono::milliseconds kWarmUp{50};

/// Median seconds of `repetitions` runs of `body`, after running it for
/// kWarmUp (at least once).
inline double MedianSeconds(int repetitions,
                            const std::function<void()>& body) {
  const auto warm_until = std::chrono::steady_clock::now() + kWarmUp;
  do {
    body();
  } while (std::chrono::steady_clock::now() < warm_until);
  std::vector<double> times;
  for (int i = 0; i < repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    body();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// The best over `rounds` of each contender's figure, the contenders
/// measured in turn within each round: measure(c) for c in [0, count).
/// Before each measurement the caller idles `settle`: threads a contender
/// leaves waiting busily after its call (OpenBLAS's spin for about 2^28
/// cycles) would otherwise take a core from the next one.
inline std::vector<double> BestOfRounds(
    int rounds, size_t count, const std::function<double(size_t)>& measure,
    std::chrono::milliseconds settle = std::chrono::milliseconds(0)) {
  std::vector<double> best(count, 1e300);
  for (int round = 0; round < rounds; ++round)
    for (size_t c = 0; c < count; ++c) {
      std::this_thread::sleep_for(settle);
      best[c] = std::min(best[c], measure(c));
    }
  return best;
}

}  // namespace kiln::bench

#endif  // KILN_BENCH_TIMING_H_
