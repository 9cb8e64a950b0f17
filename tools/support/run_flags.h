//===- run_flags.h - The flags of the tools that run functions ----*- C++ -*-===//
//
// kiln-run, kiln-benchmark and kiln-check run functions of a module and
// share their flags: --function, --input, --threads, --variant, --perf,
// the profile flags and --guard-pages. Each is declared, parsed and described
// here once; a tool picks the ones it takes and adds its own.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_RUN_FLAGS_H_
#define KILN_TOOLS_SUPPORT_RUN_FLAGS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/allocator.h"
#include "kiln/module.h"
#include "kiln/status.h"
#include "support/command_line.h"
#include "support/profile_report.h"

namespace kiln::tools {

/// The shared flags, as bits of a set.
inline constexpr unsigned kFunctionFlag = 1u << 0;  // --function=NAME
inline constexpr unsigned kInputFlag = 1u << 1;     // --input=VALUE...
inline constexpr unsigned kThreadsFlag = 1u << 2;   // --threads=N
inline constexpr unsigned kPerfFlag = 1u << 3;      // --perf
/// --profile[=HZ], --profile-output=FILE, --profile-report=FILE,
/// --profile-stage=STAGE, --profile-by=dispatch|node.
inline constexpr unsigned kProfileFlags = 1u << 4;
/// --guard-pages (kiln-run, kiln-check: for finding kernels that read or
/// write out of bounds, not for timing).
inline constexpr unsigned kGuardPagesFlag = 1u << 5;
inline constexpr unsigned kVariantFlag = 1u << 6;  // --variant=NAME
/// Those of a tool that calls one function on inputs (kiln-run,
/// kiln-benchmark): all but --guard-pages.
inline constexpr unsigned kCallFlags = kFunctionFlag | kInputFlag |
                                       kThreadsFlag | kVariantFlag | kPerfFlag |
                                       kProfileFlags;

/// The shared flags as given.
struct RunFlags {
  std::optional<std::string> function;
  std::vector<std::string> inputs;
  int threads = 0;  // 0: hardware concurrency
  bool perf = false;
  ProfileFlags profile;
  bool guard_pages = false;
  std::string variant;  // "" unless --variant names one

  /// How to load the module (--perf: libraries perf can read; --variant:
  /// the code variant).
  ModuleLoadOptions load_options() const;
  /// Where a Context's tensors come from: null (the default allocator), or
  /// with --guard-pages one that ends each at an inaccessible page.
  std::shared_ptr<Allocator> allocator() const;
};

/// The declarations of the flags in `set`, for ParseCommandLine, followed
/// by `others` (the tool's own).
std::vector<FlagSpec> RunFlagSpecs(unsigned set,
                                   const std::vector<FlagSpec>& others);

/// Reads flag `name` into `flags` if it is one of `set`; false for any
/// other flag.
StatusOr<bool> ParseRunFlag(unsigned set, std::string_view name,
                            std::string_view value, RunFlags* flags);

/// The help of the flags in `set`, an option per entry, in the layout of
/// every tool's help (descriptions from column 25).
std::string RunFlagsHelp(unsigned set);

/// --threads: an integer in [1, 1024].
Status ParseThreadCount(std::string_view text, int* out);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_RUN_FLAGS_H_
