//===- kiln_check.cc - Runs the test functions of a compiled kiln module --===//
//
//   kiln-check MODULE.kiln [--function=NAME] [--threads=N]
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

#include <charconv>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"

namespace {

constexpr char kUsage[] =
    "usage: kiln-check MODULE.kiln [options]\n"
    "\n"
    "Runs every function of a compiled kiln module that takes no arguments\n"
    "(IREE e2e test format: check.expect_*, util.unfoldable_constant) and\n"
    "reports which pass. A function passes when none of its checks fails and\n"
    "it returns without error; a failing check does not stop the function.\n"
    "\n"
    "options:\n"
    "  --function=NAME   run only this function\n"
    "  --threads=N       worker threads including the caller\n"
    "                    (default: hardware concurrency)\n"
    "  --help            show this help\n"
    "\n"
    "Prints 'NAME: PASS' or 'NAME: FAIL' (then each failed check and any\n"
    "error, indented) per function, 'skipped: NAME (takes arguments)' for\n"
    "functions with arguments, and 'N passed, N failed' last. The exit\n"
    "status is 0 when all passed, 1 otherwise.\n";

struct Options {
  std::string module_path;
  std::string function;
  bool has_function = false;
  int threads = 0;
  bool help = false;
};

kiln::Status ParseThreads(std::string_view text, int* out) {
  int value = 0;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() ||
      value < 1 || value > 1024) {
    return kiln::InvalidArgumentError(
        "--threads expects an integer in [1, 1024], got '", text, "'");
  }
  *out = value;
  return kiln::OkStatus();
}

kiln::Status ParseArgs(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h") {
      options->help = true;
      continue;
    }
    if (arg.size() < 2 || arg.substr(0, 2) != "--") {
      if (arg.size() > 1 && arg[0] == '-') {
        return kiln::InvalidArgumentError("unknown flag '", arg, "'");
      }
      if (!options->module_path.empty()) {
        return kiln::InvalidArgumentError("more than one module given ('",
                                          options->module_path, "' and '", arg,
                                          "')");
      }
      options->module_path = std::string(arg);
      continue;
    }
    // --flag=value or --flag value.
    std::string_view name = arg.substr(2);
    std::string_view value;
    bool has_value = false;
    if (size_t equals = name.find('='); equals != std::string_view::npos) {
      value = name.substr(equals + 1);
      name = name.substr(0, equals);
      has_value = true;
    }
    if (name == "help") {
      if (has_value) {
        return kiln::InvalidArgumentError("flag '--help' takes no value");
      }
      options->help = true;
      continue;
    }
    if (name != "function" && name != "threads") {
      return kiln::InvalidArgumentError("unknown flag '--", name,
                                        "' (see --help)");
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        return kiln::InvalidArgumentError("flag '--", name,
                                          "' expects a value");
      }
      value = argv[++i];
    }
    if (name == "function") {
      options->function = std::string(value);
      options->has_function = true;
    } else {
      KILN_RETURN_IF_ERROR(ParseThreads(value, &options->threads));
    }
  }
  return kiln::OkStatus();
}

void PrintLine(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
}

// Runs one test function and prints its outcome; true when it passed.
bool RunTest(kiln::Context& context, size_t index) {
  const kiln::FunctionSignature& signature =
      context.module().functions()[index];
  context.ClearCheckFailures();
  std::vector<kiln::Tensor> results;
  const kiln::Status status = context.Call(index, {}, &results);
  const bool passed = status.ok() && context.check_failure_count() == 0;
  PrintLine(kiln::StrCat(signature.name, passed ? ": PASS" : ": FAIL"));
  for (const kiln::CheckFailure& failure : context.check_failures()) {
    PrintLine("  " + failure.ToString());
  }
  const size_t hidden =
      context.check_failure_count() - context.check_failures().size();
  if (hidden != 0) {
    PrintLine(kiln::StrCat("  ", hidden, " more check failures not shown"));
  }
  if (!status.ok()) PrintLine("  error: " + status.message());
  // Progress shows as tests finish, even when output is piped.
  std::fflush(stdout);
  return passed;
}

kiln::Status Run(const Options& options, bool* all_passed) {
  if (options.module_path.empty()) {
    return kiln::InvalidArgumentError("no module given (see --help)");
  }
  KILN_ASSIGN_OR_RETURN(std::shared_ptr<const kiln::Module> module,
                        kiln::Module::Load(options.module_path));
  const std::vector<kiln::FunctionSignature>& functions = module->functions();
  std::vector<size_t> selected;
  if (options.has_function) {
    KILN_ASSIGN_OR_RETURN(size_t index, module->FindFunction(options.function));
    if (!functions[index].arguments.empty()) {
      return kiln::InvalidArgumentError(
          "function '", options.function, "' takes arguments (",
          functions[index].ToString(),
          "); kiln-check runs functions without arguments");
    }
    selected.push_back(index);
  } else {
    for (size_t i = 0; i < functions.size(); ++i) selected.push_back(i);
  }

  kiln::ThreadPool pool(options.threads);
  kiln::Context context(module, &pool);
  size_t passed = 0, failed = 0;
  for (size_t index : selected) {
    if (!functions[index].arguments.empty()) {
      PrintLine(kiln::StrCat("skipped: ", functions[index].name,
                             " (takes arguments)"));
      continue;
    }
    if (RunTest(context, index)) {
      ++passed;
    } else {
      ++failed;
    }
  }
  PrintLine(kiln::StrCat(passed, " passed, ", failed, " failed"));
  if (std::fflush(stdout) != 0) {
    return kiln::InvalidArgumentError("cannot write to stdout");
  }
  *all_passed = failed == 0;
  return kiln::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  kiln::Status status = ParseArgs(argc, argv, &options);
  if (status.ok() && options.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  bool all_passed = false;
  if (status.ok()) status = Run(options, &all_passed);
  if (!status.ok()) {
    std::fflush(stdout);
    std::fprintf(stderr, "kiln-check: error: %s\n", status.message().c_str());
    return 1;
  }
  return all_passed ? 0 : 1;
}
