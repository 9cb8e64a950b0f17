//===- kiln_benchmark.cc - Steady-state time per call of a kiln function ---===//
//
//   kiln-benchmark MODULE.kiln [--function=NAME] [--input=VALUE]...
//                  [--threads=N] [--variant=NAME] [--perf]
//                  [--benchmark_repetitions=N]
//                  [--benchmark_min_time=X[s|x]] [--benchmark_warmup_calls=N]
//                  [--benchmark_format=console|json] [--benchmark_out=FILE]
//                  [--profile[=HZ]] [--profile-output=FILE]
//                  [--profile-report=FILE] [--profile-stage=STAGE]
//
// In the conventions of IREE's iree-benchmark-module, which is built on
// Google Benchmark: the same flags, the same console table and the same JSON
// schema, so that one script reads the output of both. Inputs are parsed
// once (as kiln-run parses them) and every call gets the same ones; results
// are dropped after each call, as a server would drop them. After the
// warm-up calls, each repetition calls the function until it has taken at
// least --benchmark_min_time (or exactly N times for "Nx") and reports the
// wall-clock and process CPU time per call; with several repetitions,
// aggregates follow (Google Benchmark's mean, median, stddev and cv, and min
// and max).
//
//===----------------------------------------------------------------------===//

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "kiln/check.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/output_files.h"
#include "kiln/printable.h"
#include "kiln/profile_report.h"
#include "kiln/profiler.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "nlohmann/json.hpp"
#include "support/command_line.h"
#include "support/function_call.h"
#include "support/profile_report.h"
#include "support/run_flags.h"
#include "support/tool_output.h"

namespace {

using nlohmann::ordered_json;

std::string Usage() {
  return std::string(
             "usage: kiln-benchmark MODULE.kiln [options]\n"
             "\n"
             "Measures the steady-state time per call of one function of a\n"
             "compiled kiln module (--function, or its only function), in the\n"
             "conventions of IREE's iree-benchmark-module (Google Benchmark's\n"
             "flags, console table and JSON). The inputs are parsed once:\n"
             "every call gets the same. The profile flags sample the timed\n"
             "calls, not the warm-up, and --profile's table follows the\n"
             "benchmark's (console format only).\n"
             "\n"
             "options:\n") +
         kiln::tools::RunFlagsHelp(kiln::tools::kCallFlags) +
         "  --benchmark_warmup_calls=N\n"
         "                        untimed calls before the first repetition\n"
         "                        (default: 3)\n"
         "  --benchmark_repetitions=N\n"
         "                        repetitions, each timed on its own "
         "(default:\n"
         "                        1); with more than one, the mean, median,\n"
         "                        stddev, cv, min and max over them follow\n"
         "  --benchmark_min_time=X[s|x]\n"
         "                        each repetition calls the function until X\n"
         "                        seconds have passed (X or Xs; default: "
         "0.5s),\n"
         "                        or exactly X times (Xx, e.g. 10x)\n"
         "  --benchmark_format=console|json\n"
         "                        what stdout shows: a table (default) or\n"
         "                        Google Benchmark's JSON\n"
         "  --benchmark_out=FILE  also write the JSON to FILE (replaced as a\n"
         "                        whole: a failed run leaves it as it was)\n"
         "  --help                show this help\n"
         "  --version             print kiln's version\n"
         "\n"
         "Each row is BM_<function>/process_time/real_time, as in\n"
         "iree-benchmark-module: Time is wall-clock time per call, CPU the\n"
         "process's CPU time per call (all threads), both in ms; Iterations "
         "is\n"
         "the number of calls timed. The console table goes to stdout and the\n"
         "machine it ran on to stderr. Checks that fail (check.expect_* in "
         "the\n"
         "input program) are printed to stderr after the first call as\n"
         "'kiln-benchmark: check failed at LOCATION: MESSAGE'; the benchmark\n"
         "goes on and the exit status is 1.\n";
}

// --benchmark_min_time: seconds, or a fixed number of calls ("Nx").
struct MinTime {
  double seconds = 0.5;
  int64_t calls = 0;  // 0: by time
};

struct Options {
  std::string module_path;
  kiln::tools::HelpAndVersion help_and_version;
  kiln::tools::RunFlags run;
  int64_t warmup_calls = 3;
  int64_t repetitions = 1;
  MinTime min_time;
  bool json = false;
  std::string out_path;  // empty: no --benchmark_out
};

// An integer flag value in [min, max].
kiln::Status ParseInteger(std::string_view flag, std::string_view text,
                          int64_t min, int64_t max, int64_t* out) {
  int64_t value = 0;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() ||
      value < min || value > max) {
    return kiln::InvalidArgumentError("--", flag, " expects an integer in [",
                                      min, ", ", max, "], got '", text, "'");
  }
  *out = value;
  return kiln::OkStatus();
}

// "0.5", "0.5s" (seconds) or "10x" (calls), as Google Benchmark reads it.
kiln::Status ParseMinTime(std::string_view text, MinTime* out) {
  const kiln::Status error = kiln::InvalidArgumentError(
      "--benchmark_min_time expects seconds (0.5s or 0.5) or a number of "
      "calls (10x), got '",
      text, "'");
  if (!text.empty() && text.back() == 'x') {
    int64_t calls = 0;
    if (!ParseInteger("benchmark_min_time", text.substr(0, text.size() - 1), 1,
                      int64_t{1} << 40, &calls)
             .ok()) {
      return error;
    }
    *out = {0.0, calls};
    return kiln::OkStatus();
  }
  if (!text.empty() && text.back() == 's') text.remove_suffix(1);
  double seconds = 0;
  auto result =
      std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (text.empty() || result.ec != std::errc() ||
      result.ptr != text.data() + text.size() || !std::isfinite(seconds) ||
      seconds < 0) {
    return error;
  }
  *out = {seconds, 0};
  return kiln::OkStatus();
}

kiln::Status ParseArgs(int argc, char** argv, Options* options) {
  KILN_ASSIGN_OR_RETURN(
      kiln::tools::CommandLine line,
      kiln::tools::ParseCommandLine(
          argc, argv,
          kiln::tools::RunFlagSpecs(kiln::tools::kCallFlags,
                                    {{"benchmark_warmup_calls", true},
                                     {"benchmark_repetitions", true},
                                     {"benchmark_min_time", true},
                                     {"benchmark_format", true},
                                     {"benchmark_out", true}})));
  options->module_path = line.module_path;
  options->help_and_version = line.help_and_version;
  for (const kiln::tools::Flag& flag : line.flags) {
    const std::string_view name = flag.name, value = flag.value;
    KILN_ASSIGN_OR_RETURN(const bool shared, kiln::tools::ParseRunFlag(
                                                 kiln::tools::kCallFlags, name,
                                                 value, &options->run));
    if (shared) continue;
    if (name == "benchmark_warmup_calls") {
      KILN_RETURN_IF_ERROR(
          ParseInteger(name, value, 0, 1000000000, &options->warmup_calls));
    } else if (name == "benchmark_repetitions") {
      KILN_RETURN_IF_ERROR(
          ParseInteger(name, value, 1, 1000000, &options->repetitions));
    } else if (name == "benchmark_min_time") {
      KILN_RETURN_IF_ERROR(ParseMinTime(value, &options->min_time));
    } else if (name == "benchmark_format") {
      if (value != "console" && value != "json") {
        return kiln::InvalidArgumentError(
            "--benchmark_format expects console or json, got '", value, "'");
      }
      options->json = value == "json";
    } else if (name == "benchmark_out") {
      if (value.empty()) {
        return kiln::InvalidArgumentError(
            "--benchmark_out needs a file: --benchmark_out=FILE");
      }
      options->out_path = std::string(value);
    }
  }
  if (options->run.profile.table && options->json) {
    return kiln::InvalidArgumentError(
        "--profile prints a table, which --benchmark_format=json would "
        "break: write the samples with --profile-output=FILE instead");
  }
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

double ProcessCpuSeconds() {
  timespec now;
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * now.tv_nsec;
}

// One row of the report: a repetition, or an aggregate over them.
struct Row {
  std::string aggregate;    // "" for a repetition, else "mean", "median", ...
  bool percentage = false;  // cv: times are fractions of the mean
  int64_t repetition_index = 0;
  int64_t iterations = 0;
  double real_ms = 0, cpu_ms = 0;  // per call
};

// One repetition: calls `call` until `min_time` has passed (or exactly
// min_time.calls times).
template <typename Call>
kiln::StatusOr<Row> MeasureRepetition(Call& call, const MinTime& min_time) {
  using Clock = std::chrono::steady_clock;
  const double cpu_start = ProcessCpuSeconds();
  const Clock::time_point start = Clock::now();
  Clock::time_point end;
  int64_t calls = 0;
  if (min_time.calls != 0) {
    for (; calls < min_time.calls; ++calls) KILN_RETURN_IF_ERROR(call());
    end = Clock::now();
  } else {
    const auto min_duration = std::chrono::duration<double>(min_time.seconds);
    do {
      KILN_RETURN_IF_ERROR(call());
      ++calls;
      end = Clock::now();
    } while (end - start < min_duration);
  }
  const double cpu_seconds = ProcessCpuSeconds() - cpu_start;
  Row row;
  row.iterations = calls;
  row.real_ms =
      std::chrono::duration<double, std::milli>(end - start).count() / calls;
  row.cpu_ms = 1e3 * cpu_seconds / calls;
  return row;
}

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values) sum += value;
  return sum / values.size();
}

// The middle value, or the mean of the two middle ones (Google Benchmark's).
double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t half = values.size() / 2;
  return values.size() % 2 ? values[half]
                           : (values[half - 1] + values[half]) / 2;
}

// The sample standard deviation (n - 1), as Google Benchmark's.
double StdDev(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  const double mean = Mean(values);
  double squares = 0;
  for (double value : values) squares += (value - mean) * (value - mean);
  return std::sqrt(squares / (values.size() - 1));
}

// The aggregates over `repetitions` (at least two): Google Benchmark's,
// in its order, then min and max.
std::vector<Row> Aggregates(const std::vector<Row>& repetitions) {
  std::vector<double> real, cpu;
  for (const Row& row : repetitions) {
    real.push_back(row.real_ms);
    cpu.push_back(row.cpu_ms);
  }
  auto cv = [](const std::vector<double>& values) {
    const double mean = Mean(values);
    return mean == 0 ? 0 : StdDev(values) / mean;
  };
  auto min = [](const std::vector<double>& values) {
    return *std::min_element(values.begin(), values.end());
  };
  auto max = [](const std::vector<double>& values) {
    return *std::max_element(values.begin(), values.end());
  };
  std::vector<Row> rows;
  auto add = [&](const char* name, bool percentage, auto statistic) {
    Row row;
    row.aggregate = name;
    row.percentage = percentage;
    // Google Benchmark counts an aggregate's iterations in repetitions.
    row.iterations = static_cast<int64_t>(repetitions.size());
    row.real_ms = statistic(real);
    row.cpu_ms = statistic(cpu);
    rows.push_back(row);
  };
  add("mean", false, Mean);
  add("median", false, Median);
  add("stddev", false, StdDev);
  add("cv", true, cv);
  add("min", false, min);
  add("max", false, max);
  return rows;
}

//===----------------------------------------------------------------------===//
// Reporting
//===----------------------------------------------------------------------===//

// What Google Benchmark's context says about the machine.
struct Machine {
  std::string date;  // RFC 3339, local time
  std::string host_name;
  int cpus = 0;
  std::optional<double> mhz;  // of the first CPU, when /proc/cpuinfo says
  std::vector<double> load_average;
};

Machine DescribeMachine() {
  Machine machine;
  const std::time_t now = std::time(nullptr);
  std::tm local;
  ::localtime_r(&now, &local);
  char date[32], zone[8];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &local);
  std::strftime(zone, sizeof(zone), "%z", &local);  // +hhmm
  machine.date = date;
  if (std::strlen(zone) == 5) {
    machine.date.append(zone, 3).append(":").append(zone + 3);
  }
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) == 0) machine.host_name = host;
  machine.cpus = static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("cpu MHz", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      machine.mhz = std::strtod(line.c_str() + colon + 1, nullptr);
    }
    break;
  }
  double load[3];
  const int loads = ::getloadavg(load, 3);
  machine.load_average.assign(load, load + std::max(loads, 0));
  return machine;
}

// What the report describes besides its rows.
struct Report {
  std::string executable;  // argv[0]
  std::string module_path;
  std::string name;  // BM_<function>/process_time/real_time
  int threads = 0;
  std::string variant;  // the code variant measured
  int64_t repetitions = 0;
  Machine machine;
  /// How the profile's samples were taken (--profile, --profile-output).
  std::optional<kiln::ProfileSampling> sampling;
  uint64_t samples = 0;  // taken, kept or dropped
  double hz_reached = 0;
  double cpu_seconds_per_sample = 0;
  /// --profile-by=node with --benchmark_format=json: the samples per input
  /// op, reported in the JSON.
  std::optional<kiln::ProfileInputOps> by_input_op;
};

// Google Benchmark prints its context to stderr above the console table.
void PrintContext(const Report& report) {
  const Machine& machine = report.machine;
  std::string text = machine.date + "\nRunning " + report.module_path + "\n";
  text += kiln::StrCat("Run on (", machine.cpus, " X ");
  if (machine.mhz) text += kiln::StrCat(std::lround(*machine.mhz), " MHz ");
  text += machine.cpus > 1 ? "CPU s)\n" : "CPU)\n";
  if (!machine.load_average.empty()) {
    text += "Load Average:";
    for (size_t i = 0; i < machine.load_average.size(); ++i) {
      char value[32];
      std::snprintf(value, sizeof(value), "%s %.2f", i ? "," : "",
                    machine.load_average[i]);
      text += value;
    }
    text += "\n";
  }
  text += kiln::StrCat("kiln_threads: ", report.threads, "\n");
  text += kiln::StrCat("kiln_variant: ", kiln::Printable(report.variant), "\n");
  std::fputs(text.c_str(), stderr);
}

// A time in ms in 10 columns: Google Benchmark's precision (3 decimals below
// 1, 2 below 10, 1 below 100, none above), with up to 6 decimals below 1 so
// that short calls keep three significant digits.
std::string FormatTime(double ms) {
  char text[32];
  if (ms < 1.0) {
    const int decimals =
        ms <= 0 ? 3
                : std::clamp(2 - static_cast<int>(std::floor(std::log10(ms))),
                             3, 6);
    std::snprintf(text, sizeof(text), "%10.*f", decimals, ms);
  } else if (ms < 10.0) {
    std::snprintf(text, sizeof(text), "%10.2f", ms);
  } else if (ms < 100.0) {
    std::snprintf(text, sizeof(text), "%10.1f", ms);
  } else if (ms < 1e10) {
    std::snprintf(text, sizeof(text), "%10.0f", ms);
  } else {
    std::snprintf(text, sizeof(text), "%1.4e", ms);
  }
  return text;
}

std::string RowName(const Report& report, const Row& row) {
  return row.aggregate.empty() ? report.name
                               : report.name + "_" + row.aggregate;
}

// The console table: Google Benchmark's layout, rows as they come.
class ConsoleTable {
 public:
  explicit ConsoleTable(const Report& report) : report_(report) {
    // Room for the longest aggregate suffix ("_median") when there are any.
    width_ = std::max<size_t>(10, kiln::Printable(report.name).size() +
                                      (report.repetitions > 1 ? 7 : 0));
  }

  void Print(const Row& row) {
    std::string text;
    if (!printed_header_) {
      printed_header_ = true;
      char header[512];
      std::snprintf(header, sizeof(header), "%-*s %13s %15s %12s",
                    static_cast<int>(width_), "Benchmark", "Time", "CPU",
                    "Iterations");
      const std::string line(std::strlen(header), '-');
      text = line + "\n" + header + "\n" + line + "\n";
    }
    char cells[256];
    if (row.percentage) {
      std::snprintf(cells, sizeof(cells), "%10.2f %-4s %10.2f %-4s ",
                    100 * row.real_ms, "%", 100 * row.cpu_ms, "%");
    } else {
      std::snprintf(cells, sizeof(cells), "%s %-4s %s %-4s ",
                    FormatTime(row.real_ms).c_str(), "ms",
                    FormatTime(row.cpu_ms).c_str(), "ms");
    }
    char iterations[32];
    std::snprintf(iterations, sizeof(iterations), "%10lld",
                  static_cast<long long>(row.iterations));
    std::string name = kiln::Printable(RowName(report_, row));
    name.resize(std::max(name.size(), width_), ' ');
    text += name + " " + cells + iterations + "\n";
    std::fputs(text.c_str(), stdout);
    // A long run shows each repetition as it ends, even when piped.
    std::fflush(stdout);
  }

 private:
  const Report& report_;
  size_t width_ = 0;
  bool printed_header_ = false;
};

// Google Benchmark's JSON (as iree-benchmark-module writes it), with the
// kiln-specific context under "kiln_*".
std::string FormatJson(const Report& report, const std::vector<Row>& rows) {
  const Machine& machine = report.machine;
  ordered_json context = {{"date", machine.date},
                          {"host_name", machine.host_name},
                          {"executable", report.executable},
                          {"num_cpus", machine.cpus}};
  if (machine.mhz) context["mhz_per_cpu"] = std::lround(*machine.mhz);
  context["load_avg"] = machine.load_average;
#ifdef NDEBUG
  context["library_build_type"] = "release";
#else
  context["library_build_type"] = "debug";
#endif
  context["kiln_module"] = report.module_path;
  context["kiln_threads"] = report.threads;
  context["kiln_variant"] = report.variant;
  if (report.sampling) {
    context["kiln_profile"] = {
        {"clock", kiln::ProfileClockName(report.sampling->clock)},
        {"hz", report.sampling->hz},
        {"hz_reached", report.hz_reached},
        {"threads", report.sampling->threads},
        {"cpu_seconds", report.sampling->cpu_seconds},
        {"samples", report.samples}};
  }
  if (report.sampling && report.by_input_op) {
    ordered_json ops = ordered_json::array();
    for (const kiln::ProfileInputOp& op : report.by_input_op->ops) {
      ordered_json entry;
      if (op.node.known()) {
        entry["node"] = op.node.name;
        entry["op_type"] = op.node.op_type;
      } else {
        entry["op"] = op.op_name;
      }
      entry["location"] = op.location.ToString();
      entry["samples"] = op.samples;
      entry["cpu_seconds"] = report.cpu_seconds_per_sample * op.samples;
      entry["dispatches"] = op.exports;
      ops.push_back(std::move(entry));
    }
    context["kiln_profile"]["input_ops"] = std::move(ops);
    context["kiln_profile"]["kernel_samples"] =
        report.by_input_op->kernel_samples;
    context["kiln_profile"]["unplaced_samples"] =
        report.by_input_op->unplaced_samples;
  }
  ordered_json benchmarks = ordered_json::array();
  for (const Row& row : rows) {
    const bool aggregate = !row.aggregate.empty();
    ordered_json entry = {{"name", RowName(report, row)},
                          {"family_index", 0},
                          {"per_family_instance_index", 0},
                          {"run_name", report.name},
                          {"run_type", aggregate ? "aggregate" : "iteration"},
                          {"repetitions", report.repetitions}};
    if (!aggregate) entry["repetition_index"] = row.repetition_index;
    entry["threads"] = 1;  // threads calling the function
    if (aggregate) {
      entry["aggregate_name"] = row.aggregate;
      entry["aggregate_unit"] = row.percentage ? "percentage" : "time";
    }
    entry["iterations"] = row.iterations;
    entry["real_time"] = row.real_ms;
    entry["cpu_time"] = row.cpu_ms;
    entry["time_unit"] = "ms";
    benchmarks.push_back(std::move(entry));
  }
  ordered_json document = {{"context", std::move(context)},
                           {"benchmarks", std::move(benchmarks)}};
  return document.dump(2, ' ', false, ordered_json::error_handler_t::replace) +
         "\n";
}

// The directory `path` is in ("." for a bare name).
std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Checked before the benchmark runs, so a long run does not end in an error
// that could have been told at once.
kiln::Status CheckOutputFile(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    return kiln::InvalidArgumentError("--benchmark_out: '", path,
                                      "' is a directory");
  }
  const std::string dir = DirectoryOf(path);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return kiln::ErrnoToStatus(
        errno, kiln::StrCat("--benchmark_out: cannot write in '", dir, "'"));
  }
  return kiln::OkStatus();
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

// `*checks_failed` tells whether a check of the first call failed.
kiln::Status Run(const Options& options, const char* executable,
                 bool* checks_failed) {
  if (options.module_path.empty()) {
    return kiln::InvalidArgumentError("no module given (see --help)");
  }
  if (!options.out_path.empty()) {
    KILN_RETURN_IF_ERROR(CheckOutputFile(options.out_path));
  }
  KILN_ASSIGN_OR_RETURN(
      std::shared_ptr<const kiln::Module> module,
      kiln::Module::Load(options.module_path, options.run.load_options()));
  KILN_ASSIGN_OR_RETURN(
      size_t function_index,
      kiln::tools::SelectFunction(*module, options.run.function));
  const kiln::FunctionSignature& signature =
      module->functions()[function_index];
  // Wrong inputs are an error before the benchmark starts, as in
  // iree-benchmark-module, not after its context is printed.
  std::vector<kiln::Tensor> inputs;
  KILN_RETURN_IF_ERROR(
      kiln::tools::ParseInputs(options.run.inputs, signature, &inputs));

  kiln::ThreadPool pool(options.run.threads);
  KILN_RETURN_IF_ERROR(pool.status(), "--threads");
  kiln::Context context(module, &pool);
  kiln::CheckRecorder checks;
  context.SetCheckHandler(&checks);
  Report report;
  report.executable = executable;
  report.module_path = options.module_path;
  report.name = kiln::StrCat("BM_", signature.name, "/process_time/real_time");
  report.threads = pool.thread_count();
  report.variant = std::string(module->variant_name());
  report.repetitions = options.repetitions;
  report.machine = DescribeMachine();
  if (!options.json) PrintContext(report);

  // Results are dropped after each call. The checks of the first call are
  // reported; every later call runs the same checks on the same inputs.
  bool first_call = true;
  auto call = [&]() -> kiln::Status {
    std::vector<kiln::Tensor> results;
    kiln::Status status = context.Call(function_index, inputs, &results);
    if (first_call) {
      first_call = false;
      kiln::tools::PrintCheckFailures("kiln-benchmark", checks);
      *checks_failed = checks.failure_count() != 0;
    }
    return status;
  };
  for (int64_t i = 0; i < options.warmup_calls; ++i) {
    KILN_RETURN_IF_ERROR(call());
  }
  ConsoleTable table(report);
  std::vector<Row> rows;
  // Sampling covers the timed calls alone.
  std::unique_ptr<kiln::Profiler> profiler;
  KILN_RETURN_IF_ERROR(kiln::tools::StartProfile(options.run.profile, *module,
                                                 &pool, &profiler));
  for (int64_t r = 0; r < options.repetitions; ++r) {
    KILN_ASSIGN_OR_RETURN(Row row, MeasureRepetition(call, options.min_time));
    row.repetition_index = r;
    if (!options.json) table.Print(row);
    rows.push_back(std::move(row));
  }
  if (options.repetitions > 1) {
    for (Row& row : Aggregates(rows)) {
      if (!options.json) table.Print(row);
      rows.push_back(std::move(row));
    }
  }
  if (profiler) {
    KILN_ASSIGN_OR_RETURN(const kiln::Profile profile,
                          profiler->Resolve(*module));
    report.sampling = profile.sampling;
    report.samples = profile.samples + profile.dropped_samples;
    report.hz_reached = profile.hz_reached();
    report.cpu_seconds_per_sample = profile.cpu_seconds_per_sample();
    const kiln::tools::ProfileFlags& flags = options.run.profile;
    if (flags.table || (flags.by_input_op && !options.json)) {
      kiln::tools::Print("\n");
    }
    if (flags.by_input_op && options.json) {
      KILN_ASSIGN_OR_RETURN(const kiln::Profile shown,
                            kiln::tools::ShownProfile(flags, *module, profile));
      report.by_input_op = kiln::ProfileByInputOp(shown);
    }
    KILN_RETURN_IF_ERROR(
        kiln::tools::WriteProfileReport(flags, *module, profile, signature.name,
                                        /*print_by_input_op=*/!options.json));
  }

  if (!options.json && options.out_path.empty()) {
    return kiln::tools::FlushStdout();
  }
  const std::string json = FormatJson(report, rows);
  if (options.json) {
    kiln::tools::Print(json);
    KILN_RETURN_IF_ERROR(kiln::tools::FlushStdout());
  }
  if (!options.out_path.empty()) {
    KILN_RETURN_IF_ERROR(kiln::WriteFileAtomically(options.out_path, json),
                         "--benchmark_out");
  }
  return kiln::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const kiln::Status parsed = ParseArgs(argc, argv, &options);
  return kiln::tools::ToolMain("kiln-benchmark", parsed,
                               options.help_and_version, Usage(),
                               [&](bool* checks_failed) {
                                 return Run(options, argv[0], checks_failed);
                               });
}
