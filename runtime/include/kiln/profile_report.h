//===- profile_report.h - A sampled profile as a table and as stacks -*- C++ -*-===//
//
// The views of a sampled profile (kiln/profiler.h) that kiln-run's and
// kiln-benchmark's --profile and --profile-output print, and the Python
// package returns: a table (how the samples were taken and the rate
// reached, with what to do about too few; per export: samples, share,
// hottest lines with PATH:LINE, share and the line's text from the module's
// own source table; an imported model's hottest nodes) and collapsed stacks
// (`function;export;PATH:LINE COUNT` per line, as flamegraph.pl, inferno
// and speedscope read them).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PROFILE_REPORT_H_
#define KILN_PROFILE_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kiln/debug_info.h"
#include "kiln/module.h"
#include "kiln/profiler.h"

namespace kiln {

/// Below this share of the rate asked, the table warns that the clock fell
/// short (CPU-time timers at the kernel's tick, say).
inline constexpr double kProfileRateShortfall = 0.75;
/// Below this many samples, the table says the shares are rough.
inline constexpr uint64_t kProfileFewSamples = 100;

/// The lines under the table's header when `profile` (as
/// Profiler::Resolve made it) has no samples, few, or fewer than the rate
/// asked should have given: why, and what to do; empty otherwise.
std::string DescribeSampling(const Profile& profile);

struct ProfileReportOptions {
  /// Lines shown per export.
  size_t top_lines = kProfileTopLines;
};

/// The --profile table of `profile`, taken while `function` ran.
std::string FormatProfileTable(const Module& module, const Profile& profile,
                               std::string_view function,
                               const ProfileReportOptions& options);

/// `profile` (at the input's lines) per input op, as --profile-by=node
/// prints it: every op with samples, its CPU time (its share of the sampled
/// threads' CPU time), share, op type, location and dispatches; then the
/// samples on no op's line and host time.
std::string FormatInputOpTable(const Profile& profile,
                               std::string_view function);

/// The collapsed stacks of `profile`: one line per (export, line) and one
/// for host time, `function` first in each stack.
std::string FormatCollapsedStacks(const Profile& profile,
                                  std::string_view function);

}  // namespace kiln

#endif  // KILN_PROFILE_REPORT_H_
