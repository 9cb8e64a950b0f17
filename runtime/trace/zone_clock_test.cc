//===- zone_clock_test.cc - Trace zone timestamps -------------------------===//

#include "trace/zone_clock.h"

#include <chrono>
#include <thread>

#include "gtest/gtest.h"

namespace kiln {
namespace {

// Ticks convert to the nanoseconds steady_clock measured over the same
// interval (within a generous bound: the thread may sleep longer), and
// conversion keeps the order of the ticks.
TEST(ZoneClockTest, TicksConvertToElapsedNanoseconds) {
  ZoneClock clock;
  const auto start = std::chrono::steady_clock::now();
  const uint64_t begin = clock.Ticks();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const uint64_t end = clock.Ticks();
  const uint64_t measured =
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - start)
          .count();
  const uint64_t duration = clock.Duration(end - begin);
  EXPECT_GE(duration, uint64_t{19'000'000});
  EXPECT_LE(duration, measured + 1'000'000);
  EXPECT_LE(clock.SinceOrigin(begin), clock.SinceOrigin(end));
  EXPECT_GE(clock.SinceOrigin(end) - clock.SinceOrigin(begin),
            uint64_t{19'000'000});
  // Ticks before the origin (none are taken) convert to the origin.
  EXPECT_EQ(clock.SinceOrigin(0), 0u);
}

}  // namespace
}  // namespace kiln
