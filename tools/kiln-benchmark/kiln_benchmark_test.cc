//===- kiln_benchmark_test.cc - End-to-end tests of kiln-benchmark --------===//
//
// Runs the built kiln-benchmark binary on modules built here (with the
// hand-written test library from runtime/module/testdata) and checks its
// table, its JSON, its files and its exit codes. Nothing here depends on how
// fast anything runs: iteration counts are fixed ("Nx") or only bounded
// below by what the flags ask.
//
//===----------------------------------------------------------------------===//

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kiln/tensor_io.h"
#include "module/module_test_util.h"
#include "nlohmann/json.hpp"
#include "support/run_flags.h"
#include "support/tool_test.h"

namespace kiln {
namespace {

using namespace kiln::testing;
using nlohmann::json;

constexpr char kName[] = "BM_main/process_time/real_time";
constexpr char kA[] = "--input=8xf32=0,1,2,3,4,5,6,7";
constexpr char kB[] = "--input=8xf32=1";

class KilnBenchmarkTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
    // main(a: 8xf32, b: 8xf32) -> (8xf32) adds them; checks(x: i32) -> (i32)
    // expects x to be zero.
    fb::ModuleT spec = NewModule();
    spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
    const fb::TensorTypeT v8 = Type(fb::ElementType::F32, {8}),
                          i32 = Type(fb::ElementType::I32, {});
    fb::ExportT add = Export("add_f32", 0, 3, {2, 1, 1});
    add.binding_types = Owned({v8, v8, v8});
    Executables(spec).push_back(Executable("ex", 0, {add}));
    spec.functions.push_back(
        Function("main", {v8, v8, v8}, {0, 1}, {v8},
                 {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
    one_function_ = Write("one.kiln", BuildModule(spec));
    spec.functions.push_back(
        Function("checks", {i32}, {0}, {i32},
                 {ExpectFalse(0, "t.mlir:5:3"), Return({0})}));
    two_functions_ = Write("two.kiln", BuildModule(spec));
  }

  RunResult Run(std::vector<std::string> args) {
    return RunProgram(KILN_BENCHMARK_PATH, std::move(args));
  }

  std::string one_function_, two_functions_;
};

// The rows of a console table: name and iterations (the last column).
struct TableRow {
  std::string name;
  long long iterations = -1;
};

// Parses the rows below the header of a console table; fails the test if
// the table is not laid out as Google Benchmark's.
std::vector<TableRow> ParseTable(const std::string& out) {
  std::istringstream lines(out);
  std::vector<std::string> all;
  for (std::string line; std::getline(lines, line);) all.push_back(line);
  std::vector<TableRow> rows;
  if (all.size() < 3) {
    ADD_FAILURE() << "no table:\n" << out;
    return rows;
  }
  EXPECT_EQ(all[0], std::string(all[1].size(), '-'));
  EXPECT_EQ(all[2], all[0]);
  std::istringstream header(all[1]);
  std::vector<std::string> columns;
  for (std::string word; header >> word;) columns.push_back(word);
  EXPECT_EQ(columns, (std::vector<std::string>{"Benchmark", "Time", "CPU",
                                               "Iterations"}));
  for (size_t i = 3; i < all.size(); ++i) {
    std::istringstream fields(all[i]);
    std::vector<std::string> words;
    for (std::string word; fields >> word;) words.push_back(word);
    // name, time, unit, cpu, unit, iterations
    if (words.size() != 6) {
      ADD_FAILURE() << "bad row: " << all[i];
      continue;
    }
    EXPECT_TRUE(words[2] == "ms" || words[2] == "%") << all[i];
    EXPECT_EQ(words[4], words[2]) << all[i];
    rows.push_back({words[0], std::stoll(words[5])});
  }
  return rows;
}

TEST_F(KilnBenchmarkTest, Help) {
  RunResult result = Run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out.rfind("usage: kiln-benchmark MODULE.kiln", 0), 0u)
      << result.out;
  for (const char* option :
       {"--function=NAME", "--input=VALUE", "--threads=N",
        "--benchmark_repetitions=N", "--benchmark_min_time=X[s|x]",
        "--benchmark_warmup_calls=N", "--benchmark_format=console|json",
        "--benchmark_out=FILE", "--help"}) {
    EXPECT_NE(result.out.find(option), std::string::npos) << option;
  }
  // The flags it shares with kiln-run and kiln-check, as they say.
  EXPECT_NE(result.out.find(tools::RunFlagsHelp(tools::kCallFlags)),
            std::string::npos);
  EXPECT_EQ(result.err, "");
  // Help that cannot be written is an error, as in the other tools.
  result = RunInShell("exec >/dev/full", KILN_BENCHMARK_PATH, {"--help"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-benchmark: error: cannot write to stdout\n");
}

TEST_F(KilnBenchmarkTest, ConsoleTableWithFixedIterations) {
  RunResult result =
      Run({one_function_, kA, kB, "--threads=2", "--benchmark_min_time=5x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<TableRow> rows = ParseTable(result.out);
  ASSERT_EQ(rows.size(), 1u) << result.out;
  EXPECT_EQ(rows[0].name, kName);
  EXPECT_EQ(rows[0].iterations, 5);
  // The machine goes to stderr, as Google Benchmark's context does.
  EXPECT_NE(result.err.find("kiln_threads: 2\n"), std::string::npos)
      << result.err;
}

// The code variant measured is the first this machine runs, or the one
// --variant names, and the context says which.
TEST_F(KilnBenchmarkTest, CodeVariants) {
  fb::ModuleT spec = NewModule();
  const fb::TensorTypeT v8 = Type(fb::ElementType::F32, {8});
  fb::ExportT add = Export("add_f32", 0, 3, {2, 1, 1});
  add.binding_types = Owned({v8, v8, v8});
  spec.variants[0]->name = "x86-64-v4";
  spec.variants.push_back(Variant("x86-64"));
  for (uint32_t v = 0; v < 2; ++v) {
    spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
    spec.variants[v]->executables.push_back(Executable("ex", v, {add}));
  }
  spec.libraries[0]->cpu_features = {"newext"};
  spec.functions.push_back(
      Function("main", {v8, v8, v8}, {0, 1}, {v8},
               {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
  const std::string path = Write("variants.kiln", BuildModule(spec));
  RunResult result = Run({path, kA, kB, "--benchmark_min_time=2x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("kiln_variant: x86-64\n"), std::string::npos)
      << result.err;
  result = Run({path, kA, kB, "--benchmark_min_time=2x", "--variant=x86-64",
                "--benchmark_format=json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const json document = json::parse(result.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.out;
  EXPECT_EQ(document.at("context").at("kiln_variant"), "x86-64");
  result = Run({path, kA, kB, "--variant=x86-64-v4"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-benchmark: error: cannot load '" + path +
                            "': code variant 'x86-64-v4': library 0: "
                            "compiled for CPU 'x86-64' with instructions this "
                            "runtime cannot check: newext\n");
}

TEST_F(KilnBenchmarkTest, ProfileFollowsTheTable) {
  // The test kernel is too short to be sampled reliably: the table, then the
  // profile's header, and the (possibly empty) stacks file are certain.
  const std::string folded = dir_ + "/p.folded";
  RunResult result =
      Run({one_function_, kA, kB, "--threads=1", "--benchmark_min_time=20x",
           "--profile=5000", "--profile-output=" + folded});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const size_t profile = result.out.find("\nprofile of main: ");
  ASSERT_NE(profile, std::string::npos) << result.out;
  std::vector<TableRow> rows = ParseTable(result.out.substr(0, profile));
  ASSERT_EQ(rows.size(), 1u) << result.out;
  EXPECT_EQ(rows[0].iterations, 20);
  EXPECT_NE(result.out.find(" of CPU time on 1 thread: "), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(" Hz of the 5000 Hz asked, by "), std::string::npos)
      << result.out;
  EXPECT_EQ(access(folded.c_str(), F_OK), 0);
  // A JSON report would be broken by the table: only stacks go with it.
  result = Run({one_function_, kA, kB, "--benchmark_format=json",
                "--profile-output=" + folded});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find("profile of"), std::string::npos);
  // The JSON says how the samples were taken.
  const json document = json::parse(result.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.out;
  const json& sampling = document.at("context").at("kiln_profile");
  EXPECT_TRUE(sampling.at("clock") == "cpu-clock" ||
              sampling.at("clock") == "timer")
      << sampling;
  EXPECT_EQ(sampling.at("hz"), 1000);
  EXPECT_GE(sampling.at("hz_reached").get<double>(), 0.0);
  EXPECT_GT(sampling.at("cpu_seconds").get<double>(), 0.0);
  EXPECT_GE(sampling.at("threads").get<int>(), 1);
  EXPECT_GE(sampling.at("samples").get<int>(), 0);
  result = Run({one_function_, kA, kB, "--benchmark_format=json", "--profile"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: --profile prints a table, which "
            "--benchmark_format=json would break: write the samples with "
            "--profile-output=FILE instead\n");
  result = Run({one_function_, kA, kB, "--profile=0"});
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: --profile expects a rate in [1, 100000] "
            "samples per second, got '0'\n");
}

TEST_F(KilnBenchmarkTest, PerfLoadsTheLibraryFromAFileInKilnPerfDir) {
  RunResult result =
      RunInShell("export KILN_PERF_DIR=" + dir_ + "/perf", KILN_BENCHMARK_PATH,
                 {one_function_, kA, kB, "--perf", "--benchmark_min_time=1x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> files = Names(dir_ + "/perf");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].size(), 16 + 3) << files[0];  // <hash>.so
}

TEST_F(KilnBenchmarkTest, RepetitionsAddAggregates) {
  RunResult result =
      Run({one_function_, kA, kB, "--benchmark_repetitions=3",
           "--benchmark_min_time=2x", "--benchmark_warmup_calls=0"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::vector<TableRow> rows = ParseTable(result.out);
  const std::string name = kName;
  std::vector<std::string> names;
  for (const TableRow& row : rows) names.push_back(row.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{
                name, name, name, name + "_mean", name + "_median",
                name + "_stddev", name + "_cv", name + "_min", name + "_max"}))
      << result.out;
  for (size_t i = 0; i < rows.size(); ++i) {
    // Repetitions count calls, aggregates count repetitions.
    EXPECT_EQ(rows[i].iterations, i < 3 ? 2 : 3) << rows[i].name;
  }
}

TEST_F(KilnBenchmarkTest, JsonInGoogleBenchmarkSchema) {
  RunResult result =
      Run({one_function_, kA, kB, "--threads=2", "--benchmark_format=json",
           "--benchmark_repetitions=2", "--benchmark_min_time=5x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const json document = json::parse(result.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.out;
  const json& context = document.at("context");
  EXPECT_TRUE(context.at("date").is_string());
  EXPECT_TRUE(context.at("host_name").is_string());
  EXPECT_GE(context.at("num_cpus").get<int>(), 1);
  EXPECT_EQ(context.at("kiln_threads"), 2);
  EXPECT_EQ(context.at("kiln_variant"), "cpu");

  const json& benchmarks = document.at("benchmarks");
  ASSERT_EQ(benchmarks.size(), 2u + 6u) << result.out;
  const std::vector<std::string> aggregates = {"mean", "median", "stddev",
                                               "cv",   "min",    "max"};
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    const json& entry = benchmarks[i];
    SCOPED_TRACE(entry.dump());
    EXPECT_EQ(entry.at("run_name"), kName);
    EXPECT_EQ(entry.at("repetitions"), 2);
    EXPECT_EQ(entry.at("time_unit"), "ms");
    const double real = entry.at("real_time").get<double>();
    const double cpu = entry.at("cpu_time").get<double>();
    if (i < 2) {
      EXPECT_EQ(entry.at("name"), kName);
      EXPECT_EQ(entry.at("run_type"), "iteration");
      EXPECT_EQ(entry.at("repetition_index"), i);
      EXPECT_EQ(entry.at("iterations"), 5);
      EXPECT_GT(real, 0);
      EXPECT_GT(cpu, 0);
      continue;
    }
    const std::string& aggregate = aggregates[i - 2];
    EXPECT_EQ(entry.at("name"), std::string(kName) + "_" + aggregate);
    EXPECT_EQ(entry.at("run_type"), "aggregate");
    EXPECT_EQ(entry.at("aggregate_name"), aggregate);
    EXPECT_EQ(entry.at("aggregate_unit"),
              aggregate == "cv" ? "percentage" : "time");
    EXPECT_FALSE(entry.contains("repetition_index"));
    EXPECT_EQ(entry.at("iterations"), 2);
    if (aggregate == "stddev" || aggregate == "cv") {
      EXPECT_GE(real, 0);
    } else {
      EXPECT_GT(real, 0);
      EXPECT_GT(cpu, 0);
    }
  }
  // The aggregates agree with the repetitions they summarize.
  const double first = benchmarks[0].at("real_time").get<double>();
  const double second = benchmarks[1].at("real_time").get<double>();
  EXPECT_DOUBLE_EQ(benchmarks[2].at("real_time").get<double>(),
                   (first + second) / 2);  // mean
  EXPECT_DOUBLE_EQ(benchmarks[6].at("real_time").get<double>(),
                   std::min(first, second));
  EXPECT_DOUBLE_EQ(benchmarks[7].at("real_time").get<double>(),
                   std::max(first, second));
}

TEST_F(KilnBenchmarkTest, MinTimeInSecondsIsAtLeastThatLong) {
  RunResult result = Run({one_function_, kA, kB, "--benchmark_format=json",
                          "--benchmark_min_time=0.02s"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const json document = json::parse(result.out, nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << result.out;
  const json& entry = document.at("benchmarks").at(0);
  const int64_t iterations = entry.at("iterations").get<int64_t>();
  EXPECT_GE(iterations, 1);
  // Calls go on until the repetition has taken 20 ms.
  EXPECT_GE(entry.at("real_time").get<double>() * iterations, 20 * 0.999999);
}

TEST_F(KilnBenchmarkTest, OutWritesJsonAndReplacesTheFile) {
  const std::string out = dir_ + "/out.json";
  Write("out.json", {'o', 'l', 'd'});
  RunResult result = Run({one_function_, kA, kB, "--benchmark_min_time=3x",
                          "--benchmark_out=" + out});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // The console table still goes to stdout.
  std::vector<TableRow> rows = ParseTable(result.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].iterations, 3);
  const json document = json::parse(ReadText(out), nullptr, false);
  ASSERT_FALSE(document.is_discarded()) << ReadText(out);
  EXPECT_EQ(document.at("benchmarks").at(0).at("iterations"), 3);
  // No temporary file is left beside it.
  std::vector<std::string> names;
  DIR* dir = ::opendir(dir_.c_str());
  ASSERT_NE(dir, nullptr);
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.find("out.json") != std::string::npos) names.push_back(name);
  }
  ::closedir(dir);
  EXPECT_EQ(names, std::vector<std::string>{"out.json"});
}

TEST_F(KilnBenchmarkTest, OutErrorsComeBeforeTheRun) {
  RunResult result = Run(
      {one_function_, kA, kB, "--benchmark_out=" + dir_ + "/missing/out.json"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: --benchmark_out: cannot write "
            "in '" +
                dir_ + "/missing': No such file or directory\n");
  result = Run({one_function_, kA, kB, "--benchmark_out=" + dir_});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-benchmark: error: --benchmark_out: '" + dir_ +
                            "' is a directory\n");
}

TEST_F(KilnBenchmarkTest, InputsAsKilnRunTakesThem) {
  StatusOr<Tensor> b = ParseTensor("8xf32=10");
  ASSERT_TRUE(b.ok());
  const std::string b_path = dir_ + "/b.npy";
  ASSERT_TRUE(WriteNpyFile(b_path, *b).ok());
  // A .npy file, and a shape without values (zeros).
  RunResult result = Run({one_function_, "--input=8xf32", "--input=@" + b_path,
                          "--benchmark_min_time=1x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(ParseTable(result.out).size(), 1u);
}

TEST_F(KilnBenchmarkTest, InputErrors) {
  RunResult result = Run({one_function_, kA});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: main(8xf32, 8xf32) -> (8xf32) takes 2 "
            "inputs, got 1\n");
  result = Run({one_function_, kA, "--input=8xf32=1,2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: input 1: expected 8 values for 8xf32, got "
            "2\n");
  result = Run({one_function_, kA, "--input=2x4xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: input 1: expected 8xf32, got 2x4xf32\n");
  result = Run({one_function_, kA, "--input=@" + dir_ + "/missing.npy"});
  EXPECT_EQ(result.err, "kiln-benchmark: error: input 1: cannot open '" + dir_ +
                            "/missing.npy': No such file or directory\n");
}

TEST_F(KilnBenchmarkTest, FunctionSelection) {
  RunResult result = Run({two_functions_, kA, kB});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: the module has several functions; choose "
            "one with --function (main, checks)\n");
  result = Run({two_functions_, "--function=nope"});
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: no function 'nope' (available: main, "
            "checks)\n");
  result = Run(
      {two_functions_, "--function=main", kA, kB, "--benchmark_min_time=1x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST_F(KilnBenchmarkTest, FlagErrors) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--bogus", "unknown flag '--bogus' (see --help)"},
      {"--benchmark_repetitions=0",
       "--benchmark_repetitions expects an integer in [1, 1000000], got '0'"},
      {"--benchmark_warmup_calls=-1",
       "--benchmark_warmup_calls expects an integer in [0, 1000000000], got "
       "'-1'"},
      {"--benchmark_min_time=fast",
       "--benchmark_min_time expects seconds (0.5s or 0.5) or a number of "
       "calls (10x), got 'fast'"},
      {"--benchmark_min_time=0x",
       "--benchmark_min_time expects seconds (0.5s or 0.5) or a number of "
       "calls (10x), got '0x'"},
      {"--benchmark_min_time=-1s",
       "--benchmark_min_time expects seconds (0.5s or 0.5) or a number of "
       "calls (10x), got '-1s'"},
      {"--benchmark_format=csv",
       "--benchmark_format expects console or json, got 'csv'"},
      {"--benchmark_out=",
       "--benchmark_out needs a file: --benchmark_out=FILE"},
      {"--threads=0", "--threads expects an integer in [1, 1024], got '0'"},
  };
  for (const auto& [flag, message] : cases) {
    RunResult result = Run({one_function_, kA, kB, flag});
    EXPECT_EQ(result.exit_code, 1) << flag;
    EXPECT_EQ(result.out, "") << flag;
    EXPECT_EQ(result.err, "kiln-benchmark: error: " + message + "\n");
  }
  RunResult result = Run({});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-benchmark: error: no module given (see --help)\n");
  // Accepted forms.
  for (const char* min_time :
       {"--benchmark_min_time=0", "--benchmark_min_time=0.001",
        "--benchmark_min_time=0.001s"}) {
    result = Run({one_function_, kA, kB, min_time});
    EXPECT_EQ(result.exit_code, 0) << min_time << ": " << result.err;
  }
}

TEST_F(KilnBenchmarkTest, FailedChecksAreReportedOnceAndFailTheRun) {
  RunResult result =
      Run({two_functions_, "--function=checks", "--input=i32=7",
           "--benchmark_min_time=4x", "--benchmark_repetitions=2"});
  EXPECT_EQ(result.exit_code, 1);
  // The benchmark still runs to its end.
  EXPECT_EQ(ParseTable(result.out).size(), 2u + 6u) << result.out;
  const std::string failure =
      "kiln-benchmark: check failed at t.mlir:5:3: expected zero, got i32=7\n";
  const size_t at = result.err.find(failure);
  ASSERT_NE(at, std::string::npos) << result.err;
  EXPECT_EQ(result.err.find(failure, at + 1), std::string::npos) << result.err;

  result = Run({two_functions_, "--function=checks", "--input=i32=0",
                "--benchmark_min_time=1x"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.find("check failed"), std::string::npos) << result.err;
}

TEST_F(KilnBenchmarkTest, BadModuleIsAnError) {
  RunResult result = Run({dir_ + "/missing.kiln"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-benchmark: error: cannot open '" + dir_ +
                            "/missing.kiln': No such file or directory\n");
}

}  // namespace
}  // namespace kiln
