//===- profile_report.cc - The tools' views of a sampled profile ----------===//

#include "support/profile_report.h"

#include <charconv>

#include "kiln/output_files.h"
#include "kiln/profile_html.h"
#include "kiln/profile_report.h"
#include "kiln/status.h"
#include "kiln/trace.h"
#include "support/tool_output.h"

namespace kiln::tools {

namespace {

/// The stage the samples are shown at: --profile-stage's, else the input's
/// for --profile-by=node; empty: the line table's own.
std::string_view RolledUpStage(const ProfileFlags& flags) {
  return flags.stage.empty() && flags.by_input_op ? kInputStage : flags.stage;
}

}  // namespace

StatusOr<bool> ParseProfileFlag(std::string_view name, std::string_view value,
                                ProfileFlags* flags) {
  if (name == "profile") {
    flags->table = true;
    if (!value.empty()) {
      auto result =
          std::from_chars(value.data(), value.data() + value.size(), flags->hz);
      if (result.ec != std::errc() ||
          result.ptr != value.data() + value.size() || flags->hz < 1 ||
          flags->hz > 100000) {
        return InvalidArgumentError(
            "--profile expects a rate in [1, 100000] samples per second, "
            "got '",
            value, "'");
      }
    }
    return true;
  }
  if (name == "profile-stage") {
    if (value.empty()) {
      return InvalidArgumentError(
          "--profile-stage needs a stage: --profile-stage=NAME (a captured "
          "stage such as 0.source, or ",
          kInputStage, ")");
    }
    flags->stage = std::string(value);
    return true;
  }
  if (name == "profile-by") {
    if (value != "node" && value != "dispatch") {
      return InvalidArgumentError(
          "--profile-by expects node (per input op) or dispatch, got '", value,
          "'");
    }
    flags->by_input_op = value == "node";
    return true;
  }
  if (name == "profile-report") {
    if (value.empty()) {
      return InvalidArgumentError(
          "--profile-report needs a file: --profile-report=FILE");
    }
    flags->report = std::string(value);
    return true;
  }
  if (name == "profile-output") {
    if (value.empty()) {
      return InvalidArgumentError(
          "--profile-output needs a file: --profile-output=FILE");
    }
    flags->output = std::string(value);
    return true;
  }
  return false;
}

Status StartProfile(const ProfileFlags& flags, const Module& module,
                    ThreadPool* pool, std::unique_ptr<Profiler>* profiler) {
  if (!flags.enabled()) {
    if (!flags.stage.empty()) {
      return InvalidArgumentError(
          "--profile-stage applies to --profile or --profile-output");
    }
    return OkStatus();
  }
  if (const std::string_view stage = RolledUpStage(flags); !stage.empty()) {
    KILN_RETURN_IF_ERROR(RollUpProfile(module, Profile(), stage).status(),
                         "--profile-stage");
  }
  ProfilerOptions options;
  options.hz = flags.hz;
  StatusOr<std::unique_ptr<Profiler>> started = Profiler::Start(pool, options);
  if (!started.ok()) {
    return std::move(started).status().Prepend(
        flags.table             ? "--profile"
        : !flags.output.empty() ? "--profile-output"
        : !flags.report.empty() ? "--profile-report"
                                : "--profile-by");
  }
  *profiler = std::move(started).value();
  return OkStatus();
}

StatusOr<Profile> ShownProfile(const ProfileFlags& flags, const Module& module,
                               const Profile& sampled) {
  const std::string_view stage = RolledUpStage(flags);
  if (stage.empty()) return sampled;
  StatusOr<Profile> rolled = RollUpProfile(module, sampled, stage);
  if (!rolled.ok()) {
    return std::move(rolled).status().Prepend("--profile-stage");
  }
  return rolled;
}

Status WriteProfileReport(const ProfileFlags& flags, const Module& module,
                          const Profile& sampled, std::string_view function,
                          bool print_by_input_op) {
  KILN_ASSIGN_OR_RETURN(const Profile profile,
                        ShownProfile(flags, module, sampled));
  if (GetTracer().enabled()) GetTracer().AddProfile(module, profile);
  if (!flags.output.empty()) {
    KILN_RETURN_IF_ERROR(
        WriteFileAtomically(flags.output,
                            FormatCollapsedStacks(profile, function)),
        "--profile-output");
  }
  if (!flags.report.empty()) {
    KILN_RETURN_IF_ERROR(
        WriteFileAtomically(flags.report,
                            FormatProfileHtml(module, sampled, function)),
        "--profile-report");
  }
  if (flags.table || (flags.by_input_op && print_by_input_op)) {
    Print(flags.by_input_op
              ? FormatInputOpTable(profile, function)
              : FormatProfileTable(module, profile, function, {}));
    KILN_RETURN_IF_ERROR(FlushStdout(), "cannot print the profile");
  }
  return OkStatus();
}

}  // namespace kiln::tools
