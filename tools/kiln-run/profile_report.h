//===- profile_report.h - kiln-run's views of a sampled profile ----*- C++ -*-===//
//
// The table --profile prints after the results (per export: samples, share,
// hottest lines with PATH:LINE, share and the line's text from the module's
// own source table) and the collapsed stacks --profile-output writes
// (`function;export;PATH:LINE COUNT` per line, as flamegraph.pl, inferno and
// speedscope read them).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_RUN_PROFILE_REPORT_H_
#define KILN_TOOLS_KILN_RUN_PROFILE_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kiln/module.h"
#include "kiln/profiler.h"

namespace kiln::tools {

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

#endif  // KILN_TOOLS_KILN_RUN_PROFILE_REPORT_H_
