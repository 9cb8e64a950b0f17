//===- profile_report.h - The tools' views of a sampled profile ---*- C++ -*-===//
//
// kiln-run's and kiln-benchmark's --profile, --profile-output,
// --profile-report and --profile-stage flags: sampling while the function
// runs, then the table --profile prints after the results, the collapsed
// stacks --profile-output writes (kiln/profile_report.h) and the HTML page
// --profile-report writes (kiln/profile_html.h).
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

/// --profile[=HZ], --profile-output=FILE, --profile-report=FILE,
/// --profile-stage=STAGE and --profile-by=dispatch|node as given.
struct ProfileFlags {
  bool table = false;  // --profile
  bool by_input_op = false;  // --profile-by=node
  uint32_t hz = ProfilerOptions().hz;
  std::string output;  // --profile-output
  std::string report;  // --profile-report
  /// --profile-stage: the stage whose lines the samples are rolled up to
  /// (a captured stage or kInputStage); empty: the line table's own.
  std::string stage;
  bool enabled() const {
    return table || by_input_op || !output.empty() || !report.empty();
  }
};

/// Reads flag `name` into `flags` if it is one of the five (run_flags.h
/// declares them); false for any other flag.
StatusOr<bool> ParseProfileFlag(std::string_view name, std::string_view value,
                                ProfileFlags* flags);

/// When `flags` ask for a profile, checks that `module` has the stage they
/// roll up to and starts sampling the caller and `pool`'s workers into
/// `*profiler`; otherwise leaves it null.
Status StartProfile(const ProfileFlags& flags, const Module& module,
                    ThreadPool* pool, std::unique_ptr<Profiler>* profiler);

/// `sampled` at the lines the flags show it at: --profile-stage's, else the
/// input's for --profile-by=node, else the line table's own.
StatusOr<Profile> ShownProfile(const ProfileFlags& flags, const Module& module,
                               const Profile& sampled);

/// Writes --profile-output's file and --profile-report's page (which shows
/// every stage itself, whatever --profile-stage says) and prints
/// --profile's table on stdout
/// (per input op for --profile-by=node, unless `print_by_input_op` is false:
/// the caller reports it otherwise), all at ShownProfile's lines, and hands
/// the same profile to the process's tracer (the chrome trace shows it).
Status WriteProfileReport(const ProfileFlags& flags, const Module& module,
                          const Profile& sampled, std::string_view function,
                          bool print_by_input_op = true);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_PROFILE_REPORT_H_
