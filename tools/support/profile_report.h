//===- profile_report.h - The tools' views of a sampled profile ---*- C++ -*-===//
//
// kiln-run's and kiln-benchmark's --profile, --profile-output and
// --profile-stage flags: sampling while the function runs, then the table
// --profile prints after the results and the collapsed stacks
// --profile-output writes (kiln/profile_report.h).
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

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_PROFILE_REPORT_H_
