//===- zone_clock.h - Cheap timestamps for trace zones ------------*- C++ -*-===//

#ifndef KILN_RUNTIME_TRACE_ZONE_CLOCK_H_
#define KILN_RUNTIME_TRACE_ZONE_CLOCK_H_

#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace kiln {

/// Timestamps taken on every zone's begin and end: the CPU's time-stamp
/// counter where the kernel keeps time with it (clocksource "tsc": constant
/// rate, the same on every CPU), steady_clock otherwise. Reading the counter
/// costs less than half of steady_clock::now() (24 against 55 ns in a VM),
/// and a dispatch zone takes two. Ticks become nanoseconds off the hot path,
/// at one rate fixed by the first conversion, so that every event of a trace
/// is converted alike.
class ZoneClock {
 public:
  ZoneClock();

  /// Inline: read twice per dispatch. Unfenced, so the read overlaps the
  /// work around it instead of waiting for it to retire.
  uint64_t Ticks() const {
#if defined(__x86_64__)
    if (counts_tsc_) return __rdtsc();
#endif
    return SteadyNanoseconds();
  }
  /// Nanoseconds from the clock's creation to `ticks`.
  uint64_t SinceOrigin(uint64_t ticks);
  /// Nanoseconds in `ticks` of duration.
  uint64_t Duration(uint64_t ticks);

 private:
  static uint64_t SteadyNanoseconds();
  void Calibrate();

  bool counts_tsc_;
  uint64_t origin_ticks_;
  uint64_t origin_ns_;
  double ns_per_tick_ = 0;  // 0 until the first conversion
};

}  // namespace kiln

#endif  // KILN_RUNTIME_TRACE_ZONE_CLOCK_H_
