//===- profile_report.h - The tools' views of a sampled profile ---*- C++ -*-===//
//
// kiln-run's and kiln-benchmark's --profile, --profile-output and
// --profile-stage flags, the
// table --profile prints after the results (how the samples were taken and
// the rate reached, with what to do about too few; per export: samples,
// share, hottest lines with PATH:LINE, share and the line's text from the
// module's own source table) and the collapsed stacks --profile-output writes
// (`function;export;PATH:LINE COUNT` per line, as flamegraph.pl, inferno and
// speedscope read them).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_PROFILE_REPORT_H_
#define KILN_TOOLS_SUPPORT_PROFILE_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kiln/module.h"
#include "kiln/profiler.h"
#include "kiln/status.h"

namespace kiln::tools {

/// --profile[=HZ], --profile-output=FILE and --profile-stage=STAGE as given.
struct ProfileFlags {
  bool table = false;  // --profile
  uint32_t hz = ProfilerOptions().hz;
  std::string output;  // --profile-output
  /// --profile-stage: the stage whose lines the samples are rolled up to
  /// (a captured stage or kInputStage); empty: the line table's own.
  std::string stage;
  bool enabled() const { return table || !output.empty(); }
};

/// Reads flag `name` into `flags` if it is one of the three (run_flags.h
/// declares them); false for any other flag.
StatusOr<bool> ParseProfileFlag(std::string_view name, std::string_view value,
                                ProfileFlags* flags);

/// When `flags` ask for a profile, checks that `module` has the stage they
/// roll up to and starts sampling the caller and `pool`'s workers into
/// `*profiler`; otherwise leaves it null.
Status StartProfile(const ProfileFlags& flags, const Module& module,
                    ThreadPool* pool, std::unique_ptr<Profiler>* profiler);

/// Writes --profile-output's file and prints --profile's table on stdout,
/// both at the lines of --profile-stage, and hands the same profile to the
/// process's tracer (the chrome trace shows it).
Status WriteProfileReport(const ProfileFlags& flags, const Module& module,
                          const Profile& profile, std::string_view function);

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

/// The collapsed stacks of `profile`: one line per (export, line) and one
/// for host time, `function` first in each stack.
std::string FormatCollapsedStacks(const Profile& profile,
                                  std::string_view function);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_PROFILE_REPORT_H_
