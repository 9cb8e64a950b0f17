//===- profile_report.cc - The tools' views of a sampled profile ----------===//

#include "support/profile_report.h"

#include <charconv>

#include "kiln/output_files.h"
#include "kiln/profile_report.h"
#include "kiln/status.h"
#include "kiln/trace.h"
#include "support/tool_output.h"

namespace kiln::tools {

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
  if (!flags.stage.empty()) {
    KILN_RETURN_IF_ERROR(RollUpProfile(module, Profile(), flags.stage).status(),
                         "--profile-stage");
  }
  ProfilerOptions options;
  options.hz = flags.hz;
  StatusOr<std::unique_ptr<Profiler>> started = Profiler::Start(pool, options);
  if (!started.ok()) {
    return std::move(started).status().Prepend(
        flags.table ? "--profile" : "--profile-output");
  }
  *profiler = std::move(started).value();
  return OkStatus();
}

Status WriteProfileReport(const ProfileFlags& flags, const Module& module,
                          const Profile& sampled, std::string_view function) {
  Profile rolled_up;
  if (!flags.stage.empty()) {
    StatusOr<Profile> rolled = RollUpProfile(module, sampled, flags.stage);
    if (!rolled.ok()) {
      return std::move(rolled).status().Prepend("--profile-stage");
    }
    rolled_up = std::move(rolled).value();
  }
  const Profile& profile = flags.stage.empty() ? sampled : rolled_up;
  if (GetTracer().enabled()) GetTracer().AddProfile(module, profile);
  if (!flags.output.empty()) {
    KILN_RETURN_IF_ERROR(
        WriteFileAtomically(flags.output,
                            FormatCollapsedStacks(profile, function)),
        "--profile-output");
  }
  if (flags.table) {
    Print(FormatProfileTable(module, profile, function, {}));
    KILN_RETURN_IF_ERROR(FlushStdout(), "cannot print the profile");
  }
  return OkStatus();
}

}  // namespace kiln::tools
