//===- kiln_check.cc - Runs the test functions of a compiled kiln module --===//
//
//   kiln-check MODULE.kiln [--function=NAME] [--threads=N] [--perf]
//
// The runner for programs in IREE's e2e test format: every function that
// takes no arguments is a test, and its checks (check.expect_*) decide
// whether it passes. Each test runs to its end even when a check fails, so
// every failure is reported. Output:
//
//   tensor_float: PASS
//   tensor_int: FAIL
//     check failed at foo.mlir:12:3: expected 2x2xi32=[1 2][3 4], got ...
//   skipped: with_args (takes arguments)
//   1 passed, 1 failed
//
// Exit status: 0 when every test passed, 1 when one failed or on an error
// (bad module or flags: "kiln-check: error: ...").
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/check.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/printable.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "support/command_line.h"
#include "support/run_flags.h"
#include "support/tool_output.h"

namespace {

constexpr unsigned kSharedFlags =
    kiln::tools::kFunctionFlag | kiln::tools::kThreadsFlag |
    kiln::tools::kVariantFlag | kiln::tools::kPerfFlag |
    kiln::tools::kGuardPagesFlag;

std::string Usage() {
  return std::string(
             "usage: kiln-check MODULE.kiln [options]\n"
             "\n"
             "Runs every function of a compiled kiln module that takes no\n"
             "arguments (IREE e2e test format: check.expect_*,\n"
             "util.unfoldable_constant), or only the one --function names, "
             "and\n"
             "reports which pass. A function passes when none of its checks\n"
             "fails and it returns without error; a failing check does not "
             "stop\n"
             "the function.\n"
             "\n"
             "options:\n") +
         kiln::tools::RunFlagsHelp(kSharedFlags) +
         "  --help                show this help\n"
         "  --version             print kiln's version\n"
         "\n"
         "Prints 'NAME: PASS' or 'NAME: FAIL' (then each failed check and any\n"
         "error, indented) per function, 'skipped: NAME (takes arguments)' "
         "for\n"
         "functions with arguments, and 'N passed, N failed' last. The exit\n"
         "status is 0 when all passed, 1 otherwise (also when none ran).\n";
}

struct Options {
  std::string module_path;
  kiln::tools::HelpAndVersion help_and_version;
  kiln::tools::RunFlags run;
};

kiln::Status ParseArgs(int argc, char** argv, Options* options) {
  KILN_ASSIGN_OR_RETURN(
      kiln::tools::CommandLine line,
      kiln::tools::ParseCommandLine(
          argc, argv, kiln::tools::RunFlagSpecs(kSharedFlags, {})));
  options->module_path = line.module_path;
  options->help_and_version = line.help_and_version;
  for (const kiln::tools::Flag& flag : line.flags) {
    KILN_RETURN_IF_ERROR(kiln::tools::ParseRunFlag(kSharedFlags, flag.name,
                                                   flag.value, &options->run)
                             .status());
  }
  return kiln::OkStatus();
}

// Prints one line of the report; module-controlled text (names,
// locations, messages) is escaped, so none can add a line of its own.
void PrintLine(std::string_view line) {
  kiln::tools::Print(kiln::Printable(line) + "\n");
}

// Runs one test function and prints its outcome; true when it passed.
bool RunTest(kiln::Context& context, kiln::CheckRecorder& checks,
             size_t index) {
  const kiln::FunctionSignature& signature =
      context.module().functions()[index];
  checks.Clear();
  std::vector<kiln::Tensor> results;
  const kiln::Status status = context.Call(index, {}, &results);
  const bool passed = status.ok() && checks.failure_count() == 0;
  PrintLine(kiln::StrCat(signature.name, passed ? ": PASS" : ": FAIL"));
  for (const kiln::CheckFailure& failure : checks.failures()) {
    PrintLine("  " + failure.ToString());
  }
  const size_t hidden = checks.failure_count() - checks.failures().size();
  if (hidden != 0) {
    PrintLine(kiln::StrCat("  ", hidden, " more check failures not shown"));
  }
  if (!status.ok()) PrintLine("  error: " + status.message());
  // Progress shows as tests finish, even when output is piped.
  std::fflush(stdout);
  return passed;
}

// `*some_failed` tells whether a test failed.
kiln::Status Run(const Options& options, bool* some_failed) {
  if (options.module_path.empty()) {
    return kiln::InvalidArgumentError("no module given (see --help)");
  }
  KILN_ASSIGN_OR_RETURN(
      std::shared_ptr<const kiln::Module> module,
      kiln::Module::Load(options.module_path, options.run.load_options()));
  const std::vector<kiln::FunctionSignature>& functions = module->functions();
  std::vector<size_t> selected;
  if (options.run.function) {
    KILN_ASSIGN_OR_RETURN(size_t index,
                          module->FindFunction(*options.run.function));
    if (!functions[index].arguments.empty()) {
      return kiln::InvalidArgumentError(
          "function '", *options.run.function, "' takes arguments (",
          functions[index].ToString(),
          "); kiln-check runs functions without arguments");
    }
    selected.push_back(index);
  } else {
    for (size_t i = 0; i < functions.size(); ++i) selected.push_back(i);
  }

  kiln::ThreadPool pool(options.run.threads);
  KILN_RETURN_IF_ERROR(pool.status(), "--threads");
  kiln::Context context(module, &pool, options.run.allocator());
  kiln::CheckRecorder checks;
  context.SetCheckHandler(&checks);
  size_t passed = 0, failed = 0;
  for (size_t index : selected) {
    if (!functions[index].arguments.empty()) {
      PrintLine(kiln::StrCat("skipped: ", functions[index].name,
                             " (takes arguments)"));
      continue;
    }
    if (RunTest(context, checks, index)) {
      ++passed;
    } else {
      ++failed;
    }
  }
  PrintLine(kiln::StrCat(passed, " passed, ", failed, " failed"));
  KILN_RETURN_IF_ERROR(kiln::tools::FlushStdout());
  // A suite that ran nothing proves nothing: not a pass.
  if (passed + failed == 0) {
    return kiln::InvalidArgumentError(
        "no function ran: every public function takes arguments");
  }
  *some_failed = failed != 0;
  return kiln::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const kiln::Status parsed = ParseArgs(argc, argv, &options);
  return kiln::tools::ToolMain(
      "kiln-check", parsed, options.help_and_version, Usage(),
      [&](bool* some_failed) { return Run(options, some_failed); });
}
