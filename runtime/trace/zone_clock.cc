//===- zone_clock.cc - Cheap timestamps for trace zones -------------------===//

#include "trace/zone_clock.h"

#include <fstream>
#include <string>

#include "trace/providers.h"

namespace kiln {
namespace {

/// Whether the kernel's own clock is the time-stamp counter: it then trusts
/// the counter to tick at a constant rate, in step on every CPU.
bool KernelTimesWithTsc() {
#if defined(__x86_64__)
  std::ifstream file(
      "/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return std::getline(file, name) && name == "tsc";
#else
  return false;
#endif
}

/// Shortest interval the rate is measured over: steady_clock's own cost
/// (tens of ns) then errs by less than 0.1%.
constexpr uint64_t kMinCalibrationNs = 100000;

}  // namespace

ZoneClock::ZoneClock()
    : counts_tsc_(KernelTimesWithTsc()),
      origin_ticks_(Ticks()),
      origin_ns_(NowNanoseconds()) {
  if (!counts_tsc_) ns_per_tick_ = 1;
}

uint64_t ZoneClock::SteadyNanoseconds() { return NowNanoseconds(); }

void ZoneClock::Calibrate() {
  uint64_t ns = NowNanoseconds();
  while (ns - origin_ns_ < kMinCalibrationNs) ns = NowNanoseconds();
  const uint64_t ticks = Ticks();
  ns_per_tick_ = ticks > origin_ticks_
                     ? static_cast<double>(ns - origin_ns_) /
                           static_cast<double>(ticks - origin_ticks_)
                     : 1;
}

uint64_t ZoneClock::SinceOrigin(uint64_t ticks) {
  return ticks > origin_ticks_ ? Duration(ticks - origin_ticks_) : 0;
}

uint64_t ZoneClock::Duration(uint64_t ticks) {
  if (ns_per_tick_ == 0) Calibrate();
  return static_cast<uint64_t>(static_cast<double>(ticks) * ns_per_tick_);
}

}  // namespace kiln
