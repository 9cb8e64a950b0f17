//===- profile_report.h - The tools' views of a sampled profile ---*- C++ -*-===//
//
// kiln-run's and kiln-benchmark's --profile and --profile-output flags, the
// table --profile prints after the results (per export: samples, share,
// hottest lines with PATH:LINE, share and the line's text from the module's
// own source table) and the collapsed stacks --profile-output writes
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

/// --profile[=HZ] and --profile-output=FILE as given.
struct ProfileFlags {
  bool table = false;  // --profile
  uint32_t hz = ProfilerOptions().hz;
  std::string output;  // --profile-output
  bool enabled() const { return table || !output.empty(); }
};

/// Reads flag `name` into `flags` if it is one of the two (declare them as
/// {"profile", true, /*value_optional=*/true} and {"profile-output", true});
/// false for any other flag.
StatusOr<bool> ParseProfileFlag(std::string_view name, std::string_view value,
                                ProfileFlags* flags);

/// When `flags` ask for a profile, starts sampling the caller and `pool`'s
/// workers into `*profiler`; otherwise leaves it null.
Status StartProfile(const ProfileFlags& flags, ThreadPool* pool,
                    std::unique_ptr<Profiler>* profiler);

/// Writes --profile-output's file and prints --profile's table on stdout.
Status WriteProfileReport(const ProfileFlags& flags, const Module& module,
                          const Profile& profile, std::string_view function,
                          int threads);

/// What the report says about how the samples were taken.
struct ProfileReportOptions {
  uint32_t hz = 0;
  int threads = 0;
  /// Lines shown per export.
  size_t top_lines = 10;
};

/// The --profile table of `profile`, taken while `function` ran.
std::string FormatProfileTable(const Module& module, const Profile& profile,
                               std::string_view function,
                               const ProfileReportOptions& options);

/// The collapsed stacks of `profile`: one line per (export, line) and one
/// for host time, `function` first in each stack.
std::string FormatCollapsedStacks(const Module& module, const Profile& profile,
                                  std::string_view function);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_PROFILE_REPORT_H_
