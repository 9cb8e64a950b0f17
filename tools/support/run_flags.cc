//===- run_flags.cc - The flags of the tools that run functions -----------===//

#include "support/run_flags.h"

#include <charconv>

#include "support/guard_pages.h"

namespace kiln::tools {

namespace {

struct RunFlagInfo {
  unsigned bit;
  FlagSpec spec;
  /// Its entry in the help, or "" when another flag of its bit describes
  /// the group.
  const char* help;
};

// In the order the help lists them.
constexpr RunFlagInfo kRunFlags[] = {
    {kFunctionFlag,
     {"function", true},
     "  --function=NAME       function to run\n"},
    {kInputFlag,
     {"input", true},
     "  --input=VALUE         one per argument, in order:\n"
     "                          2x3xf32=1,2,3,4,5,6   2x2xf32=[1 2][3 4]\n"
     "                          2x3xf32=0 (splat)     f32=3.5 (0-d)\n"
     "                          @file.npy (NumPy file)\n"
     "                          2x3xf32 (no values: zeros, as in\n"
     "                          iree-run-module)\n"},
    {kThreadsFlag,
     {"threads", true},
     "  --threads=N           worker threads including the caller\n"
     "                        (default: hardware concurrency)\n"},
    {kVariantFlag,
     {"variant", true},
     "  --variant=NAME        run the module's code variant NAME: the --cpu\n"
     "                        it was compiled for (e.g. x86-64-v3; kiln-dump\n"
     "                        lists them), instead of the first one this\n"
     "                        machine can run\n"},
    {kPerfFlag,
     {"perf"},
     "  --perf                load the libraries from files that perf reads\n"
     "                        after the run (export names, stage-text lines\n"
     "                        in perf report): <hash>.so in $KILN_PERF_DIR,\n"
     "                        else $XDG_CACHE_HOME/kiln/libraries, else\n"
     "                        ~/.cache/kiln/libraries, kept and reused;\n"
     "                        also KILN_PERF=1\n"},
    {kProfileFlags,
     {"profile", true, /*value_optional=*/true},
     "  --profile[=HZ]        sample every thread that runs kernels at HZ\n"
     "                        samples per second of its CPU time (default\n"
     "                        1000) while the function runs, and print after\n"
     "                        it each export's share of the samples and its\n"
     "                        hottest lines (PATH:LINE of the stage text the\n"
     "                        library's line table points into, as\n"
     "                        --executable-debug-line-stage chose, and the\n"
     "                        line's text from the module); samples outside\n"
     "                        kernels are host time. Needs only the module\n"
     "                        (its address -> line table), no perf tool. The\n"
     "                        rate is reached where perf_event_open allows\n"
     "                        a cpu-clock event; elsewhere CPU-time timers\n"
     "                        fire at the kernel's tick. The table says the\n"
     "                        clock, the rate reached, and what to do when\n"
     "                        samples are few; KILN_PROFILE_CLOCK=timer or\n"
     "                        cpu-clock chooses the clock\n"},
    {kProfileFlags,
     {"profile-output", true},
     "  --profile-output=FILE write the samples as collapsed stacks\n"
     "                        (FUNCTION;EXPORT;PATH:LINE COUNT per line: for\n"
     "                        flamegraph.pl, inferno, speedscope); FILE is\n"
     "                        replaced as a whole. Samples as --profile does\n"
     "                        (at its HZ when given), printing no table "
     "unless\n"
     "                        --profile is given too\n"},
    {kProfileFlags,
     {"profile-report", true},
     "  --profile-report=FILE write one self-contained HTML page (no network\n"
     "                        needed) of where the time went: a flame graph\n"
     "                        (function, dispatch, input op or node, line),\n"
     "                        the input ops or nodes by CPU time, and per\n"
     "                        dispatch each captured stage text and the input\n"
     "                        with the samples on each line; click a line for\n"
     "                        its counterparts in the other texts. Samples as\n"
     "                        --profile does, printing no table unless\n"
     "                        --profile is given too\n"},
    {kProfileFlags,
     {"profile-stage", true},
     "  --profile-stage=STAGE show the samples of --profile and\n"
     "                        --profile-output at the lines of another text:\n"
     "                        a captured stage (e.g. 0.source, the kernel as\n"
     "                        formed) or input (the input program), followed\n"
     "                        back through the module's cross-stage line\n"
     "                        maps; a line that came from several splits its\n"
     "                        samples evenly among them\n"},
    {kProfileFlags,
     {"profile-by", true},
     "  --profile-by=node     print --profile's samples per input op instead:\n"
     "                        every op (an imported model's node) with\n"
     "                        samples, fused into a dispatch or not, with its\n"
     "                        CPU time, share, op type and dispatches, and\n"
     "                        the share on no op's line (at the input's\n"
     "                        lines unless --profile-stage says otherwise);\n"
     "                        =dispatch (the default) prints per export\n"},
    {kGuardPagesFlag,
     {"guard-pages"},
     "  --guard-pages         place every input and result (and every buffer\n"
     "                        the call uses) right before an inaccessible\n"
     "                        page: a kernel that reads or writes past the\n"
     "                        end of one dies of SIGSEGV at that access\n"
     "                        (slow; for debugging kernels)\n"},
};

}  // namespace

ModuleLoadOptions RunFlags::load_options() const {
  ModuleLoadOptions options;
  options.perf_visible_libraries = perf;
  options.variant = variant;
  return options;
}

std::shared_ptr<Allocator> RunFlags::allocator() const {
  return guard_pages ? GuardPageAllocator() : nullptr;
}

std::vector<FlagSpec> RunFlagSpecs(unsigned set,
                                   const std::vector<FlagSpec>& others) {
  std::vector<FlagSpec> specs;
  for (const RunFlagInfo& flag : kRunFlags) {
    if (set & flag.bit) specs.push_back(flag.spec);
  }
  specs.insert(specs.end(), others.begin(), others.end());
  return specs;
}

StatusOr<bool> ParseRunFlag(unsigned set, std::string_view name,
                            std::string_view value, RunFlags* flags) {
  if (set & kProfileFlags) {
    KILN_ASSIGN_OR_RETURN(const bool profile_flag,
                          ParseProfileFlag(name, value, &flags->profile));
    if (profile_flag) return true;
  }
  if ((set & kFunctionFlag) && name == "function") {
    flags->function = std::string(value);
  } else if ((set & kInputFlag) && name == "input") {
    flags->inputs.emplace_back(value);
  } else if ((set & kThreadsFlag) && name == "threads") {
    KILN_RETURN_IF_ERROR(ParseThreadCount(value, &flags->threads));
  } else if ((set & kVariantFlag) && name == "variant") {
    // An empty value would silently mean the first this machine runs.
    if (value.empty()) {
      return InvalidArgumentError(
          "--variant expects the name of a code variant, got ''");
    }
    flags->variant = std::string(value);
  } else if ((set & kPerfFlag) && name == "perf") {
    flags->perf = true;
  } else if ((set & kGuardPagesFlag) && name == "guard-pages") {
    flags->guard_pages = true;
  } else {
    return false;
  }
  return true;
}

std::string RunFlagsHelp(unsigned set) {
  std::string help;
  for (const RunFlagInfo& flag : kRunFlags) {
    if (set & flag.bit) help += flag.help;
  }
  return help;
}

Status ParseThreadCount(std::string_view text, int* out) {
  int value = 0;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() ||
      value < 1 || value > 1024) {
    return InvalidArgumentError(
        "--threads expects an integer in [1, 1024], got '", text, "'");
  }
  *out = value;
  return OkStatus();
}

}  // namespace kiln::tools
