//===- kiln_dump_test.cc - End-to-end tests of the kiln-dump tool ---------===//
//
// Runs the built kiln-dump binary on modules built here (module_test_util.h,
// with the hand-written test library) and, when the compiler is built, on a
// module compiled from samples/mlp.mlir; checks every view as text and as
// JSON, extraction (including paths that must be refused) and errors.
//
//===----------------------------------------------------------------------===//

#include <sys/stat.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "gtest/gtest.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "module/module_test_util.h"
#include "nlohmann/json.hpp"
#include "support/tool_test.h"

namespace kiln {
namespace {

using namespace kiln::testing;
using nlohmann::json;

// Sanitizers reserve terabytes of address space: no limit on it can hold.
#if defined(KILN_SANITIZER_ADDRESS) || defined(KILN_SANITIZER_THREAD)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

bool Exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

std::vector<std::string> Tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> tokens;
  for (std::string token; in >> token;) tokens.push_back(token);
  return tokens;
}

std::string Numbered(std::string_view prefix, int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += StrCat(prefix, " ", i, "\n");
  return text;
}

const std::string& Stage0() {
  static const std::string text = Numbered("source line", 12);
  return text;
}
const std::string& Stage1() {
  static const std::string text = Numbered("translated line", 20);
  return text;
}
// Above Tracy's limit (262,127 bytes).
const std::string& Big() {
  static const std::string text = Numbered("big line", 30000);
  return text;
}
const std::string kModel =
    "func.func @main() {\n  linalg.add\n}";  // no final \n

// Sources, in path order: 0 big.mlir, 1 dbg_ex_cpu.0.source.mlir,
// 2 dbg_ex_cpu.1.translated.mlir, 3 model.mlir, 4 model:v2.mlir (same text
// as model.mlir).
fb::ModuleT DumpSpec() {
  fb::ModuleT spec = NewModule("dbg");
  spec.debug_level = 3;
  spec.capture_stages = {"0.source", "1.translated"};
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  fb::TensorTypeT v8 = Type(F32, {8});
  fb::ExportT add = Export("add_f32", 0, 3, {4, 1, 1});
  add.binding_types = Owned({v8, v8, v8});
  add.location = Location("model.mlir", 2, 3);
  add.provenance = Owned({FusedOp("linalg.add", Location("model.mlir", 2, 3)),
                          FusedOp("arith.addf", Location("model.mlir", 2, 5))});
  add.stage_locations =
      Owned({StageLocation(0, 1, 7), StageLocation(1, 2, 11)});
  fb::ExportT fail = Export("fail", 1, 1);
  Executables(spec).push_back(Executable("ex", 0, {add, fail}));
  spec.functions.push_back(
      Function("main", {v8, v8, v8}, {0, 1}, {v8},
               {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
  SetSources(&spec, {{"big.mlir", Big()},
                     {"dbg_ex_cpu.0.source.mlir", Stage0()},
                     {"dbg_ex_cpu.1.translated.mlir", Stage1()},
                     {"model.mlir", kModel},
                     {"model:v2.mlir", kModel}});
  // One content stored as is.
  spec.source_contents[2] = NoneContent(Stage1());
  return spec;
}

class KilnDumpTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
    module_ = Write("dbg.kiln", BuildModule(DumpSpec()));
  }

  RunResult Run(std::vector<std::string> args) {
    return RunProgram(KILN_DUMP_PATH, std::move(args));
  }

  // Runs kiln-dump with its address space limited to `megabytes` (without
  // a limit under sanitizers).
  RunResult RunWithMemoryLimit(int megabytes, std::vector<std::string> args) {
    if (kSanitized) return Run(std::move(args));
    return RunInShell(StrCat("ulimit -v ", megabytes * 1024), KILN_DUMP_PATH,
                      std::move(args));
  }

  // Runs with --json and parses stdout (an empty object on failure).
  json RunJson(std::vector<std::string> args, int expected_exit = 0) {
    args.push_back("--json");
    RunResult result = Run(args);
    EXPECT_EQ(result.exit_code, expected_exit) << result.err;
    json parsed = json::parse(result.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded()) << "not JSON:\n" << result.out;
    return parsed.is_discarded() ? json::object() : parsed;
  }

  static bool Contains(const std::string& text, std::string_view piece) {
    return text.find(piece) != std::string::npos;
  }

  std::string module_;
};

TEST_F(KilnDumpTest, Help) {
  RunResult result = Run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_TRUE(Contains(result.out, "usage: kiln-dump MODULE.kiln"));
  EXPECT_TRUE(Contains(result.out, "--extract-sources=DIR"));
  EXPECT_TRUE(Contains(result.out, "--force"));
  EXPECT_EQ(result.err, "");
  // Help that cannot be written is an error too.
  result = RunInShell("exec >/dev/full", KILN_DUMP_PATH, {"--help"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-dump: error: cannot write to stdout\n");
}

//===----------------------------------------------------------------------===//
// Summary
//===----------------------------------------------------------------------===//

TEST_F(KilnDumpTest, Summary) {
  RunResult result = Run({module_});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const std::string& out = result.out;
  for (const char* piece : {
           "module       dbg\n",
           "debug level  3\n",
           "stages       0.source, 1.translated\n",
           "functions (1)\n  main(8xf32, 8xf32) -> (8xf32)\n",
           "libraries (1)\n  0  elf-x86_64  cpu x86-64  ",
           "executables (1)\n  ex  (library 0, 2 exports)\n",
           "    add_f32\n"
           "      workgroup count  4x1x1\n"
           "      bindings         3: 8xf32, 8xf32, 8xf32\n"
           "      location         model.mlir:2:3\n"
           "      provenance       linalg.add  model.mlir:2:3\n"
           "                       arith.addf  model.mlir:2:5\n"
           "      stages           0.source:     dbg_ex_cpu.0.source.mlir:7\n"
           "                       1.translated: "
           "dbg_ex_cpu.1.translated.mlir:11\n",
           "    fail\n"
           "      workgroup count  1x1x1\n"
           "      bindings         1 (types not recorded)\n"
           "      location         (unknown)\n"
           "      provenance       (none)\n"
           "      stages           (none captured)\n",
           "sources: 5 files (4 distinct contents): ",
           "  PATH                             RAW  STORED  COMPRESSION\n",
           "  dbg_ex_cpu.1.translated.mlir     ",
           "  model:v2.mlir",
       }) {
    EXPECT_TRUE(Contains(out, piece)) << "missing:\n"
                                      << piece << "\nin:\n"
                                      << out;
  }
  EXPECT_TRUE(Contains(out, StrCat("version      ", KILN_MODULE_VERSION, "\n")))
      << out;
}

TEST_F(KilnDumpTest, SummaryCountsTheLibrarysLineRows) {
  fb::ModuleT spec = DumpSpec();
  // add_f32's code on line 11 of its 1.translated text, then fail's.
  spec.libraries[0]->lines =
      testing::LibraryLines({{0x100, 0, 2, 11},
                             {0x110, 1, 0, 0},
                             {0x120, KILN_LIBRARY_LINE_OUTSIDE_EXPORTS, 0, 0}});
  const std::string path = Write("lines.kiln", BuildModule(spec));
  RunResult result = Run({path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out, " bytes  3 line rows\n")) << result.out;
  EXPECT_TRUE(Contains(Run({module_}).out, " bytes  0 line rows\n"));
  json doc = RunJson({path});
  EXPECT_EQ(doc["libraries"][0]["line_rows"], 3);
}

TEST_F(KilnDumpTest, SummaryListsTheFeaturesEachLibraryNeeds) {
  fb::ModuleT spec = DumpSpec();
  spec.libraries[0]->cpu_features = {"avx2", "avx512f", "fma"};
  const std::string path = Write("features.kiln", BuildModule(spec));
  RunResult result = Run({path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out, " line rows\n     needs avx2 avx512f fma\n"))
      << result.out;
  EXPECT_FALSE(Contains(Run({module_}).out, "needs")) << "no features listed";
  json doc = RunJson({path});
  EXPECT_EQ(doc["libraries"][0]["cpu_features"],
            json::array({"avx2", "avx512f", "fma"}));
  EXPECT_EQ(RunJson({module_})["libraries"][0]["cpu_features"], json::array());
}

TEST_F(KilnDumpTest, SummaryJson) {
  json doc = RunJson({module_});
  EXPECT_EQ(doc["name"], "dbg");
  EXPECT_EQ(doc["version"], KILN_MODULE_VERSION);
  EXPECT_EQ(doc["debug_level"], 3);
  EXPECT_EQ(doc["capture_stages"], json({"0.source", "1.translated"}));
  EXPECT_EQ(doc["functions"][0]["signature"], "main(8xf32, 8xf32) -> (8xf32)");
  EXPECT_EQ(doc["libraries"][0]["format"], "elf-x86_64");
  const json& add = doc["executables"][0]["exports"][0];
  EXPECT_EQ(doc["executables"][0]["name"], "ex");
  EXPECT_EQ(add["name"], "add_f32");
  EXPECT_EQ(add["workgroup_count"], json({4, 1, 1}));
  EXPECT_EQ(add["binding_types"], json({"8xf32", "8xf32", "8xf32"}));
  EXPECT_EQ(add["location"],
            json({{"file", "model.mlir"}, {"line", 2}, {"column", 3}}));
  EXPECT_EQ(add["provenance"][1]["op"], "arith.addf");
  EXPECT_EQ(add["provenance"][1]["location"]["column"], 5);
  EXPECT_EQ(add["stage_locations"][1],
            json({{"stage", 1},
                  {"stage_name", "1.translated"},
                  {"source", 2},
                  {"path", "dbg_ex_cpu.1.translated.mlir"},
                  {"line", 11}}));
  const json& fail = doc["executables"][0]["exports"][1];
  EXPECT_TRUE(fail["binding_types"].is_null());
  EXPECT_TRUE(fail["location"].is_null());
  EXPECT_EQ(doc["sources"]["totals"]["files"], 5);
}

// DumpSpec compiled for two CPUs: "x86-64-v4" (library 0, needing newext,
// add_f32 over 8 workgroups) and "x86-64" (library 1, DumpSpec's own).
fb::ModuleT TwoVariantDumpSpec() {
  fb::ModuleT spec = DumpSpec();
  spec.libraries[0]->cpu = "x86-64-v4";
  spec.libraries[0]->cpu_features = {"avx2", "newext"};
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  spec.variants[0]->name = "x86-64-v4";
  spec.variants.push_back(Variant("x86-64"));
  spec.variants[1]->executables.push_back(
      std::make_unique<fb::ExecutableT>(*Executables(spec)[0]));
  spec.variants[1]->executables[0]->library = 1;
  Executables(spec)[0]->exports[0]->workgroup_count = {8, 1, 1};
  return spec;
}

TEST_F(KilnDumpTest, SummaryListsTheVariants) {
  const std::string path =
      Write("variants.kiln", BuildModule(TwoVariantDumpSpec()));
  RunResult result = Run({path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string& out = result.out;
  for (const char* piece : {
           "variants (2; this machine runs x86-64)\n"
           "  x86-64-v4  cpu x86-64-v4, library 0\n"
           "             this machine cannot run it: library 0: compiled for "
           "CPU 'x86-64-v4' with instructions this runtime cannot check: "
           "newext\n"
           "  x86-64     cpu x86-64, library 1\n",
           "executables of x86-64-v4 (1)\n  ex  (library 0, 2 exports)\n"
           "    add_f32\n      workgroup count  8x1x1\n",
           "executables of x86-64 (1)\n  ex  (library 1, 2 exports)\n"
           "    add_f32\n      workgroup count  4x1x1\n",
       }) {
    EXPECT_TRUE(Contains(out, piece)) << "missing:\n"
                                      << piece << "\nin:\n"
                                      << out;
  }
  // A module for one CPU has one, "cpu", and its executables as before.
  result = Run({module_});
  EXPECT_TRUE(Contains(result.out,
                       "variants (1; this machine runs cpu)\n"
                       "  cpu  cpu x86-64, library 0\n\nexecutables (1)\n"))
      << result.out;
}

TEST_F(KilnDumpTest, SummaryJsonListsTheVariants) {
  const std::string path =
      Write("variants.kiln", BuildModule(TwoVariantDumpSpec()));
  json doc = RunJson({path});
  ASSERT_EQ(doc["variants"].size(), 2u);
  const json& v4 = doc["variants"][0];
  EXPECT_EQ(v4["name"], "x86-64-v4");
  EXPECT_EQ(v4["cpu"], "x86-64-v4");
  EXPECT_EQ(v4["cpu_features"], json({"avx2", "newext"}));
  EXPECT_EQ(v4["libraries"], json({0}));
  EXPECT_EQ(v4["supported"], false);
  EXPECT_EQ(v4["unsupported"],
            "library 0: compiled for CPU 'x86-64-v4' with instructions this "
            "runtime cannot check: newext");
  EXPECT_EQ(v4["executables"][0]["library"], 0);
  EXPECT_EQ(v4["executables"][0]["exports"][0]["workgroup_count"],
            json({8, 1, 1}));
  const json& x86_64 = doc["variants"][1];
  EXPECT_EQ(x86_64["name"], "x86-64");
  EXPECT_EQ(x86_64["supported"], true);
  EXPECT_EQ(x86_64["unsupported"], "");
  EXPECT_EQ(x86_64["executables"][0]["library"], 1);
  // The one this machine runs, whose executables are also at the top.
  EXPECT_EQ(doc["variant"], "x86-64");
  EXPECT_EQ(doc["executables"], x86_64["executables"]);
  // None runs here: the first is shown.
  fb::ModuleT spec = TwoVariantDumpSpec();
  spec.libraries[1]->cpu_features = {"newext"};
  doc = RunJson({Write("none.kiln", BuildModule(spec))});
  EXPECT_TRUE(doc["variant"].is_null());
  EXPECT_EQ(doc["executables"], doc["variants"][0]["executables"]);
  // A module for one CPU: one variant, "cpu", whose executables are the
  // top-level ones.
  doc = RunJson({module_});
  ASSERT_EQ(doc["variants"].size(), 1u);
  EXPECT_EQ(doc["variants"][0]["name"], "cpu");
  EXPECT_EQ(doc["variant"], "cpu");
  EXPECT_EQ(doc["executables"], doc["variants"][0]["executables"]);
}

//===----------------------------------------------------------------------===//
// --sources
//===----------------------------------------------------------------------===//

TEST_F(KilnDumpTest, Sources) {
  RunResult result = Run({module_, "--sources"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::istringstream lines(result.out);
  std::vector<std::string> rows;
  for (std::string line; std::getline(lines, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 8u) << result.out;  // header, 5 files, blank, totals
  EXPECT_EQ(rows[0].substr(0, 4), "PATH");
  EXPECT_TRUE(Contains(rows[0], "RAW  STORED  COMPRESSION  HASH"));
  char hash[24];
  std::snprintf(hash, sizeof(hash), "0x%016llx",
                static_cast<unsigned long long>(HashText(Big())));
  std::vector<std::string> big = Tokens(rows[1]);
  ASSERT_GE(big.size(), 5u);
  EXPECT_EQ(big[0], "big.mlir");
  EXPECT_EQ(big[1], std::to_string(Big().size()));
  EXPECT_LT(std::stoul(big[2]), Big().size() / 10);
  EXPECT_EQ(big[3], "zstd");
  EXPECT_EQ(big[4], hash);
  EXPECT_TRUE(Contains(rows[1], "  too large for Tracy (> 262127 bytes)"));
  // The uncompressed file: raw and stored sizes agree.
  snprintf(hash, sizeof(hash), "0x%016llx",
           static_cast<unsigned long long>(HashText(Stage1())));
  EXPECT_EQ(Tokens(rows[3]),
            (std::vector<std::string>{
                "dbg_ex_cpu.1.translated.mlir", std::to_string(Stage1().size()),
                std::to_string(Stage1().size()), "none", hash}));
  EXPECT_EQ(Tokens(rows[5])[0], "model:v2.mlir");
  // Columns line up: every hash starts at the same offset.
  const size_t hash_column = rows[0].find("HASH");
  for (int i = 1; i <= 5; ++i) {
    EXPECT_EQ(rows[i].find("0x"), hash_column) << rows[i];
  }
  const uint64_t raw =
      Big().size() + Stage0().size() + Stage1().size() + 2 * kModel.size();
  EXPECT_TRUE(Contains(
      rows[7], StrCat("5 files (4 distinct contents): ", raw, " raw bytes (",
                      raw - kModel.size(), " distinct), ")))
      << rows[7];
  EXPECT_TRUE(Contains(rows[7], "stored bytes; 1 too large for Tracy"));

  json doc = RunJson({module_, "--sources"});
  ASSERT_EQ(doc["files"].size(), 5u);
  EXPECT_EQ(doc["files"][0]["path"], "big.mlir");
  EXPECT_EQ(doc["files"][0]["raw_size"], Big().size());
  EXPECT_EQ(doc["files"][0]["compression"], "zstd");
  snprintf(hash, sizeof(hash), "0x%016llx",
           static_cast<unsigned long long>(HashText(Big())));
  EXPECT_EQ(doc["files"][0]["hash"], hash);
  EXPECT_EQ(doc["files"][0]["too_large_for_tracy"], true);
  EXPECT_EQ(doc["files"][2]["compression"], "none");
  EXPECT_EQ(doc["files"][2]["stored_size"], Stage1().size());
  EXPECT_EQ(doc["files"][2]["too_large_for_tracy"], false);
  EXPECT_EQ(doc["files"][3]["content"], doc["files"][4]["content"]);
  EXPECT_EQ(doc["tracy_limit"], 262127);
  EXPECT_EQ(doc["totals"]["files"], 5);
  EXPECT_EQ(doc["totals"]["distinct_contents"], 4);
  EXPECT_EQ(doc["totals"]["raw_bytes"], raw);
  EXPECT_EQ(doc["totals"]["distinct_raw_bytes"], raw - kModel.size());
  EXPECT_EQ(doc["totals"]["too_large_for_tracy"], 1);
  uint64_t stored = 0;
  for (int i = 0; i < 4; ++i)
    stored += doc["files"][i]["stored_size"].get<uint64_t>();
  EXPECT_EQ(doc["totals"]["stored_bytes"], stored);
}

//===----------------------------------------------------------------------===//
// --print-source
//===----------------------------------------------------------------------===//

TEST_F(KilnDumpTest, PrintSource) {
  RunResult result = Run({module_, "--print-source=dbg_ex_cpu.0.source.mlir"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(
      Contains(result.out, "   1  source line 1\n   2  source line 2\n"));
  EXPECT_TRUE(Contains(result.out, "  12  source line 12\n"));
  EXPECT_FALSE(Contains(result.out, ">"));

  // A marked line, the whole file.
  result = Run({module_, "--print-source=dbg_ex_cpu.0.source.mlir:7"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out,
                       "   6  source line 6\n"
                       ">  7  source line 7\n"
                       "   8  source line 8\n"));
  EXPECT_TRUE(Contains(result.out, "   1  source line 1\n"));
  EXPECT_TRUE(Contains(result.out, "  12  source line 12\n"));

  // Only the context around it (from a stored-as-is content).
  result = Run({module_, "--print-source=dbg_ex_cpu.1.translated.mlir:11",
                "--context", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "   9  translated line 9\n"
            "  10  translated line 10\n"
            "> 11  translated line 11\n"
            "  12  translated line 12\n"
            "  13  translated line 13\n");
  result = Run({module_, "--print-source=dbg_ex_cpu.1.translated.mlir:1",
                "--context=1"});
  EXPECT_EQ(result.out, "> 1  translated line 1\n  2  translated line 2\n");

  // A path with ':' in it; a text without a final newline.
  result = Run({module_, "--print-source=model:v2.mlir:2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "  1  func.func @main() {\n> 2    linalg.add\n  3  }\n");

  json doc = RunJson(
      {module_, "--print-source=dbg_ex_cpu.0.source.mlir:7", "--context=1"});
  EXPECT_EQ(doc["path"], "dbg_ex_cpu.0.source.mlir");
  EXPECT_EQ(doc["line"], 7);
  EXPECT_EQ(doc["first_line"], 6);
  EXPECT_EQ(doc["last_line"], 8);
  EXPECT_EQ(doc["text"], "source line 6\nsource line 7\nsource line 8\n");
  doc = RunJson({module_, "--print-source=model.mlir"});
  EXPECT_TRUE(doc["line"].is_null());
  EXPECT_EQ(doc["text"], kModel);
}

TEST_F(KilnDumpTest, PrintSourceErrors) {
  RunResult result = Run({module_, "--print-source=missing.mlir:3"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-dump: error: no source file 'missing.mlir' in the module "
            "(list them with 'kiln-dump " +
                module_ + " --sources')\n");
  result = Run({module_, "--print-source=model.mlir:4"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: line 4 is past the end of 'model.mlir' (3 "
            "lines)\n");
  result = Run({module_, "--print-source=model.mlir:0"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: --print-source: line '0' must be in [1, "
            "4294967295]\n");
  result = Run({module_, "--print-source=model.mlir", "--context=2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: --context needs a line: "
            "--print-source=PATH:LINE\n");
}

// 64 Mi empty lines declared by a module of a few KB. --print-source finds
// its window in one pass; an offset kept per line (16 bytes each, over
// 1 GiB here) would not fit in the 512 MiB the tool is given.
TEST_F(KilnDumpTest, PrintSourceOfManyLinesKeepsNoPerLineTable) {
  constexpr uint64_t kLines = uint64_t{64} << 20;
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{"lines.mlir", "\n"}});
  spec.source_contents[0] = RepeatedContent('\n', kLines);
  ASSERT_LT(spec.source_contents[0]->data.size(), 64u * 1024);
  const std::string module = Write("lines.kiln", BuildModule(spec));

  RunResult result = RunWithMemoryLimit(
      512, {module, "--print-source=lines.mlir:33554432", "--context=1"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "  33554431  \n"
            "> 33554432  \n"
            "  33554433  \n");
  EXPECT_EQ(result.err, "");
  // The window is cut at the last line.
  result = RunWithMemoryLimit(
      512, {module, "--print-source=lines.mlir:67108864", "--context=2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "  67108862  \n"
            "  67108863  \n"
            "> 67108864  \n");
  result =
      RunWithMemoryLimit(512, {module, "--print-source=lines.mlir:67108865"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: line 67108865 is past the end of 'lines.mlir' "
            "(67108864 lines)\n");
  result = RunWithMemoryLimit(
      512, {module, "--print-source=lines.mlir:2", "--context=1", "--json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  json doc = json::parse(result.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << result.out;
  EXPECT_EQ(doc["line_count"], kLines);
  EXPECT_EQ(doc["first_line"], 1);
  EXPECT_EQ(doc["last_line"], 3);
  EXPECT_EQ(doc["text"], "\n\n\n");
}

// A module of a few KB whose text declares 1 GiB, printed as JSON in less
// memory than the text and its copies take: out of memory is an error like
// any other, whether decompressing fails or what comes after it.
TEST_F(KilnDumpTest, PrintSourceOutOfMemoryIsAnError) {
  if (kSanitized) GTEST_SKIP() << "no memory limit holds under sanitizers";
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{"huge.mlir", "x"}});
  spec.source_contents[0] = RepeatedContent('x', kMaxSourceSize);
  const std::string module = Write("huge.kiln", BuildModule(spec));
  ASSERT_LT(ReadBinaryFile(module).size(), 128u * 1024);
  RunResult result =
      RunWithMemoryLimit(768, {module, "--print-source=huge.mlir", "--json"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: source 'huge.mlir': out of memory for its "
            "1073741824 bytes\n");
  result =
      RunWithMemoryLimit(1792, {module, "--print-source=huge.mlir", "--json"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-dump: error: out of memory\n");
}

// Windows at the edges of texts with and without a final newline.
TEST_F(KilnDumpTest, PrintSourceWindows) {
  RunResult result =
      Run({module_, "--print-source=model.mlir:3", "--context=5"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "  1  func.func @main() {\n  2    linalg.add\n> 3  }\n");
  json doc = RunJson({module_, "--print-source=model.mlir:3", "--context=0"});
  EXPECT_EQ(doc["first_line"], 3);
  EXPECT_EQ(doc["last_line"], 3);
  EXPECT_EQ(doc["line_count"], 3);
  EXPECT_EQ(doc["text"], "}");  // no final newline to keep
  doc = RunJson({module_, "--print-source=dbg_ex_cpu.0.source.mlir:12",
                 "--context=4294967295"});
  EXPECT_EQ(doc["first_line"], 1);
  EXPECT_EQ(doc["last_line"], 12);
  EXPECT_EQ(doc["text"], Stage0());
  // The whole of a text larger than one written piece.
  result = Run({module_, "--print-source=big.mlir"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::string expected;
  for (int i = 1; i <= 30000; ++i) {
    const std::string number = std::to_string(i);  // padded to 5 + 1
    expected += " " + std::string(6 - number.size(), ' ') + number +
                "  big line " + number + "\n";
  }
  EXPECT_EQ(result.out, expected);

  // An empty text has no lines.
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{"empty.mlir", ""}});
  const std::string module = Write("empty.kiln", BuildModule(spec));
  result = Run({module, "--print-source=empty.mlir"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  result = Run({module, "--print-source=empty.mlir:1"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: line 1 is past the end of 'empty.mlir' (0 "
            "lines)\n");
  doc = RunJson({module, "--print-source=empty.mlir"});
  EXPECT_EQ(doc["line_count"], 0);
  EXPECT_EQ(doc["text"], "");
}

// Tracy's client sends a text only when it is smaller than 256 KiB - 16
// bytes: one of 262,127 bytes is shown, one byte more is not.
TEST_F(KilnDumpTest, SourcesTooLargeForTracyFromOneByteOverItsLimit) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{"fits.mlir", std::string(262127, '\n')},
                     {"over.mlir", std::string(262128, '\n')}});
  const std::string module = Write("limit.kiln", BuildModule(spec));
  json doc = RunJson({module, "--sources"});
  ASSERT_EQ(doc["files"].size(), 2u);
  EXPECT_EQ(doc["files"][0]["path"], "fits.mlir");
  EXPECT_EQ(doc["files"][0]["too_large_for_tracy"], false);
  EXPECT_EQ(doc["files"][1]["path"], "over.mlir");
  EXPECT_EQ(doc["files"][1]["too_large_for_tracy"], true);
  EXPECT_EQ(doc["totals"]["too_large_for_tracy"], 1);
}

//===----------------------------------------------------------------------===//
// --extract-sources
//===----------------------------------------------------------------------===//

// Nine paths share one content declaring 1 GiB: a module of a few KB would
// have extraction write 9 GiB. Over the 8 GiB limit, nothing is written.
TEST_F(KilnDumpTest, ExtractSourcesRefusesTooManyBytesInAll) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  std::map<std::string, std::string> files;
  for (int i = 0; i < 9; ++i) files[StrCat("copy", i, ".mlir")] = "shared\n";
  SetSources(&spec, files);
  ASSERT_EQ(spec.source_contents.size(), 1u);
  spec.source_contents[0] = RepeatedContent('\n', kMaxSourceSize);
  // A wrong hash: were the limit lost, each file would fail to decompress
  // rather than 9 GiB be written.
  spec.source_contents[0]->hash ^= 1;
  const std::string module = Write("huge.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out";
  for (const char* json_flag : {"", "--json"}) {
    std::vector<std::string> args = {module, "--extract-sources=" + out_dir};
    if (*json_flag) args.push_back(json_flag);
    RunResult result = Run(args);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err,
              "kiln-dump: error: --extract-sources: the 9 source files total "
              "9663676416 bytes, more than the limit of 8589934592 bytes; "
              "nothing was written\n");
    EXPECT_FALSE(Exists(out_dir));
  }
  // The table itself is fine: every content is within its own limit.
  RunResult result = Run({module, "--sources"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out,
                       "9 files (1 distinct contents): 9663676416 raw bytes"))
      << result.out;
}

TEST_F(KilnDumpTest, ExtractSources) {
  const std::string out_dir = dir_ + "/out";
  RunResult result = Run({module_, "--extract-sources=" + out_dir});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_TRUE(Contains(result.out, "wrote " + out_dir + "/big.mlir (" +
                                       std::to_string(Big().size()) +
                                       " bytes)\n"));
  EXPECT_EQ(ReadText(out_dir + "/big.mlir"), Big());
  EXPECT_EQ(ReadText(out_dir + "/dbg_ex_cpu.0.source.mlir"), Stage0());
  EXPECT_EQ(ReadText(out_dir + "/dbg_ex_cpu.1.translated.mlir"), Stage1());
  EXPECT_EQ(ReadText(out_dir + "/model.mlir"), kModel);
  EXPECT_EQ(ReadText(out_dir + "/model:v2.mlir"), kModel);
}

TEST_F(KilnDumpTest, ExtractLibrariesWritesEachLibraryAsIs) {
  const std::string out_dir = dir_ + "/libs";
  RunResult result = Run({module_, "--extract-libraries=" + out_dir});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::vector<uint8_t> library = ReadBinaryFile(KILN_TEST_LIBRARY_1);
  EXPECT_EQ(result.out, "wrote " + out_dir + "/library0.so (" +
                            std::to_string(library.size()) + " bytes)\n");
  EXPECT_EQ(ReadBinaryFile(out_dir + "/library0.so"), library);
  // Kept unless forced.
  result = Run({module_, "--extract-libraries=" + out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: not extracting library 0: '" + out_dir +
                "/library0.so' exists (--force replaces it)\n"
                "kiln-dump: error: 1 of 1 libraries were not written\n");
  result = Run({module_, "--extract-libraries=" + out_dir, "--force"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

TEST_F(KilnDumpTest, ExtractSourcesKeepsExistingFilesUnlessForced) {
  const std::string out_dir = dir_ + "/out";
  ASSERT_EQ(::mkdir(out_dir.c_str(), 0755), 0);
  {
    std::ofstream mine(out_dir + "/model.mlir");
    mine << "my own file\n";
  }
  RunResult result = Run({module_, "--extract-sources", out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-dump: error: not extracting 'model.mlir': '" +
                            out_dir +
                            "/model.mlir' exists (--force replaces it)\n"
                            "kiln-dump: error: 1 of 5 source files were not "
                            "written\n");
  EXPECT_FALSE(Contains(result.out, "model.mlir ")) << result.out;
  EXPECT_TRUE(Contains(result.out, "wrote " + out_dir + "/model:v2.mlir"));
  EXPECT_EQ(ReadText(out_dir + "/model.mlir"), "my own file\n");
  // Again: every file exists now.
  result = Run({module_, "--extract-sources", out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_TRUE(Contains(result.err, "5 of 5 source files were not written"));
  // --force replaces them, each as a whole.
  result = Run({module_, "--extract-sources", out_dir, "--force"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(ReadText(out_dir + "/model.mlir"), kModel);
  EXPECT_EQ(ReadText(out_dir + "/big.mlir"), Big());
  // Nothing but the sources is left in the directory.
  size_t entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out_dir)) {
    EXPECT_NE(entry.path().filename().string()[0], '.') << entry.path();
    ++entries;
  }
  EXPECT_EQ(entries, 5u);
}

TEST_F(KilnDumpTest, ExtractSourcesRefusesPathsNamingOneFile) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  // In table order: "./a.mlir" < "/a.mlir" < "a.mlir" < "b//c.mlir" <
  // "b/c.mlir".
  SetSources(&spec, {{"./a.mlir", "first\n"},
                     {"/a.mlir", "second\n"},
                     {"a.mlir", "third\n"},
                     {"b//c.mlir", "c\n"},
                     {"b/c.mlir", "c again\n"}});
  const std::string module = Write("alike.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out";
  for (const char* force : {"", "--force"}) {
    std::vector<std::string> args = {module, "--extract-sources=" + out_dir};
    if (*force) args.push_back(force);
    std::filesystem::remove_all(out_dir);
    RunResult result = Run(args);
    EXPECT_EQ(result.exit_code, 1);
    // Only what was written is reported written.
    EXPECT_EQ(result.out, "wrote " + out_dir + "/a.mlir (6 bytes)\nwrote " +
                              out_dir + "/b/c.mlir (2 bytes)\n");
    EXPECT_EQ(result.err,
              "kiln-dump: error: not extracting '/a.mlir': same file as "
              "'./a.mlir' (" +
                  out_dir +
                  "/a.mlir)\n"
                  "kiln-dump: error: not extracting 'a.mlir': same file as "
                  "'./a.mlir' (" +
                  out_dir +
                  "/a.mlir)\n"
                  "kiln-dump: error: not extracting 'b/c.mlir': same file as "
                  "'b//c.mlir' (" +
                  out_dir +
                  "/b/c.mlir)\n"
                  "kiln-dump: error: 3 of 5 source files were not written\n");
    EXPECT_EQ(ReadText(out_dir + "/a.mlir"), "first\n");
    EXPECT_EQ(ReadText(out_dir + "/b/c.mlir"), "c\n");
  }
}

TEST_F(KilnDumpTest, ExtractSourcesRefusesHiddenPaths) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{".bashrc", "rm -rf ~\n"},
                     {"/home/u/.ssh/authorized_keys", "ssh-ed25519 AAAA\n"},
                     {"ok.mlir", "fine\n"}});
  const std::string module = Write("hidden.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out";
  RunResult result = Run({module, "--extract-sources=" + out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "wrote " + out_dir + "/ok.mlir (5 bytes)\n");
  EXPECT_EQ(result.err,
            "kiln-dump: error: not extracting '.bashrc': '.bashrc' is a "
            "hidden name (it starts with '.')\n"
            "kiln-dump: error: not extracting '/home/u/.ssh/authorized_keys': "
            "'.ssh' is a hidden name (it starts with '.')\n"
            "kiln-dump: error: 2 of 3 source files were not written\n");
  EXPECT_FALSE(Exists(out_dir + "/.bashrc"));
  EXPECT_FALSE(Exists(out_dir + "/home"));
}

// Names that would forge lines or drive a terminal wherever they are
// listed, and directories thousands deep, are not written.
TEST_F(KilnDumpTest, ExtractSourcesRefusesControlCharactersAndDeepPaths) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  std::string deep;
  for (int i = 0; i < 2100; ++i) deep += "a/";
  SetSources(&spec, {{"a\nwrote /etc/passwd", "x\n"},
                     {"\x1b[2Jm.mlir", "x\n"},
                     {deep + "x.mlir", "x\n"},
                     {"ok.mlir", "fine\n"}});
  const std::string module = Write("names.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out";
  RunResult result = Run({module, "--extract-sources=" + out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "wrote " + out_dir + "/ok.mlir (5 bytes)\n");
  EXPECT_EQ(result.err.find(
                "kiln-dump: error: not extracting '\\x1b[2Jm.mlir': path "
                "holds control characters ('\\x1b[2Jm.mlir')\n"
                "kiln-dump: error: not extracting 'a\\x0awrote /etc/passwd': "
                "path holds control characters ('a\\x0awrote /etc/passwd')\n"
                "kiln-dump: error: not extracting 'a/a/a/"),
            0u)
      << result.err;
  EXPECT_NE(result.err.find("': path is more than 64 directories deep\n"
                            "kiln-dump: error: 3 of 4 source files were not "
                            "written\n"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(Names(out_dir), std::vector<std::string>{"ok.mlir"});
}

TEST_F(KilnDumpTest, ExtractSourcesCreatesParentDirectories) {
  const std::string out_dir = dir_ + "/a/b/c";
  RunResult result = Run({module_, "--extract-sources=" + out_dir});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(ReadText(out_dir + "/model.mlir"), kModel);
  // A file in the way is an error naming the directory.
  const std::string blocked = dir_ + "/a/b/c/model.mlir/sub";
  result = Run({module_, "--extract-sources=" + blocked});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "cannot create '" + blocked + "'"))
      << result.err;
}

TEST_F(KilnDumpTest, ExtractSourcesRefusesEscapingPaths) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{"", "empty path\n"},
                     {"../escape.mlir", "escape\n"},
                     {"/abs/path.mlir", "absolute\n"},
                     {"/../abs-escape.mlir", "absolute escape\n"},
                     {"a/../../up.mlir", "up\n"},
                     {std::string("nul\0byte.mlir", 13), "nul\n"},
                     {"ok.mlir", "fine\n"},
                     {"sub/dir/deep.mlir", "deep\n"}});
  const std::string module = Write("escape.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out";
  RunResult result = Run({module, "--extract-sources=" + out_dir});
  EXPECT_EQ(result.exit_code, 1);
  // Sorted by path: "/..." first. An absolute path lands below the
  // directory; one that climbs out of it is refused.
  EXPECT_EQ(result.out, "wrote " + out_dir +
                            "/abs/path.mlir (9 bytes)\nwrote " + out_dir +
                            "/ok.mlir (5 bytes)\nwrote " + out_dir +
                            "/sub/dir/deep.mlir (5 bytes)\n");
  EXPECT_EQ(result.err,
            "kiln-dump: error: not extracting '': empty path\n"
            "kiln-dump: error: not extracting '../escape.mlir': '..' "
            "component would leave the directory\n"
            "kiln-dump: error: not extracting '/../abs-escape.mlir': '..' "
            "component would leave the directory\n"
            "kiln-dump: error: not extracting 'a/../../up.mlir': '..' "
            "component would leave the directory\n"
            "kiln-dump: error: not extracting 'nul\\x00byte.mlir': path "
            "contains a NUL byte\n"
            "kiln-dump: error: 5 of 8 source files were not written\n");
  EXPECT_EQ(ReadText(out_dir + "/ok.mlir"), "fine\n");
  EXPECT_EQ(ReadText(out_dir + "/sub/dir/deep.mlir"), "deep\n");
  EXPECT_FALSE(Exists(dir_ + "/escape.mlir"));
  EXPECT_FALSE(Exists(dir_ + "/up.mlir"));
  EXPECT_FALSE(Exists("/abs/path.mlir"));
  EXPECT_EQ(ReadText(out_dir + "/abs/path.mlir"), "absolute\n");
  EXPECT_FALSE(Exists(dir_ + "/abs-escape.mlir"));
  EXPECT_FALSE(Exists(out_dir + "/nul"));

  json doc = RunJson({module, "--extract-sources=" + out_dir, "--force"}, 1);
  EXPECT_EQ(doc["directory"], out_dir);
  ASSERT_EQ(doc["written"].size(), 3u);
  EXPECT_EQ(doc["written"][0]["path"], "/abs/path.mlir");
  EXPECT_EQ(doc["written"][0]["file"], out_dir + "/abs/path.mlir");
  EXPECT_EQ(doc["written"][2]["path"], "sub/dir/deep.mlir");
  EXPECT_EQ(doc["written"][2]["file"], out_dir + "/sub/dir/deep.mlir");
  EXPECT_EQ(doc["written"][2]["bytes"], 5);
  ASSERT_EQ(doc["errors"].size(), 5u);
  EXPECT_EQ(doc["errors"][1]["path"], "../escape.mlir");
}

TEST_F(KilnDumpTest, ExtractSourcesNeverFollowsSymlinks) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  SetSources(&spec, {{"link.mlir", "new text\n"},
                     {"ok.mlir", "fine\n"},
                     {"sub/x.mlir", "x\n"}});
  const std::string module = Write("links.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out", outside = dir_ + "/outside";
  ASSERT_EQ(::mkdir(out_dir.c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(outside.c_str(), 0755), 0);
  {
    std::ofstream target(outside + "/target.mlir");
    target << "outside\n";
  }
  // A directory symlink leading out, and a file symlink to a file outside.
  ASSERT_EQ(::symlink(outside.c_str(), (out_dir + "/sub").c_str()), 0);
  ASSERT_EQ(::symlink((outside + "/target.mlir").c_str(),
                      (out_dir + "/link.mlir").c_str()),
            0);
  RunResult result = Run({module, "--extract-sources=" + out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: not extracting 'link.mlir': '" + out_dir +
                "/link.mlir' exists (--force replaces it)\n"
                "kiln-dump: error: not extracting 'sub/x.mlir': '" +
                out_dir +
                "/sub' exists and is a symlink or not a directory\n"
                "kiln-dump: error: 2 of 3 source files were not written\n");
  EXPECT_EQ(ReadText(outside + "/target.mlir"), "outside\n");
  // With --force the file symlink is replaced by a file; its target is
  // untouched, and the directory symlink is still refused.
  result = Run({module, "--extract-sources=" + out_dir, "--force"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "1 of 3 source files were not written"))
      << result.err;
  EXPECT_FALSE(Exists(outside + "/x.mlir"));
  EXPECT_EQ(ReadText(outside + "/target.mlir"), "outside\n");
  struct stat st;
  ASSERT_EQ(::lstat((out_dir + "/link.mlir").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(ReadText(out_dir + "/link.mlir"), "new text\n");
  EXPECT_EQ(ReadText(out_dir + "/ok.mlir"), "fine\n");
}

TEST_F(KilnDumpTest, ExtractSourcesChecksHashes) {
  fb::ModuleT spec = DumpSpec();
  spec.source_contents[0]->hash ^= 1;  // big.mlir
  const std::string module = Write("badhash.kiln", BuildModule(spec));
  const std::string out_dir = dir_ + "/out";
  RunResult result = Run({module, "--extract-sources=" + out_dir});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err,
                       "kiln-dump: error: not extracting 'big.mlir': source "
                       "'big.mlir': content hash mismatch"))
      << result.err;
  EXPECT_FALSE(Exists(out_dir + "/big.mlir"));
  EXPECT_EQ(ReadText(out_dir + "/model.mlir"), kModel);
  // --print-source refuses it too.
  result = Run({module, "--print-source=big.mlir"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "content hash mismatch")) << result.err;
}

//===----------------------------------------------------------------------===//
// --disassemble
//===----------------------------------------------------------------------===//

// --disassemble shows where each dispatch writes each result: a buffer of
// the function (bN, listed with its size under the signature) or new
// storage; without a plan (result_buffers absent) nothing is said.
TEST_F(KilnDumpTest, DisassembleShowsTheBufferPlan) {
  fb::ModuleT spec = DumpSpec();
  fb::TensorTypeT v8 = Type(F32, {8});
  spec.functions.clear();
  spec.functions.push_back(
      Function("main", {v8, v8, v8, v8}, {0}, {v8},
               {DispatchInto(0, 0, {0}, {1, 2}, {1, KILN_NEW_BUFFER}),
                Dispatch(0, 0, {1, 2}, {3}), Return({3})},
               {16, 32}));
  const std::string module = Write("plan.kiln", BuildModule(spec));
  RunResult result = Run({module, "--disassemble"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "func @main(%0: 8xf32) -> (8xf32)\n"
            "  buffers: b0 16 bytes, b1 32 bytes\n"
            "  0  %1, %2 = dispatch ex::add_f32(%0) into(b1, new) : 8xf32, "
            "8xf32\n"
            "  1  %3 = dispatch ex::add_f32(%1, %2) : 8xf32\n"
            "  2  return %3\n");
  result = Run({module, "--disassemble", "--json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const nlohmann::json doc = nlohmann::json::parse(result.out);
  const nlohmann::json& function = doc["functions"][0];
  EXPECT_EQ(function["buffer_sizes"], nlohmann::json::array({16, 32}));
  EXPECT_EQ(function["body"][0]["result_buffers"],
            nlohmann::json::array({1, nullptr}));
  EXPECT_EQ(function["body"][1]["result_buffers"],
            nlohmann::json::array({nullptr}));
}

//===----------------------------------------------------------------------===//
// Modules without debug information, other targets, damaged modules
//===----------------------------------------------------------------------===//

TEST_F(KilnDumpTest, ModuleWithoutDebugInfo) {
  fb::ModuleT spec = DumpSpec();
  spec.debug_level = 0;
  spec.capture_stages.clear();
  spec.source_files.clear();
  spec.source_contents.clear();
  for (std::unique_ptr<fb::ExportT>& ex : Executables(spec)[0]->exports) {
    *ex = Export(ex->name, ex->library_ordinal, ex->binding_count,
                 ex->workgroup_count);
  }
  const std::string module = Write("level0.kiln", BuildModule(spec));
  RunResult result = Run({module});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out, "debug level  0\n"));
  EXPECT_TRUE(Contains(result.out, "stages       (none captured)\n"));
  EXPECT_TRUE(Contains(result.out,
                       "    add_f32\n      workgroup count  4x1x1\n"
                       "      bindings         3 (types not recorded)\n"
                       "    fail\n"));
  EXPECT_TRUE(Contains(result.out, "sources (none embedded)\n"));
  result = Run({module, "--sources"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out,
            "no embedded sources (compile with --executable-debug-level=3)\n");
  result = Run({module, "--print-source=model.mlir"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: no source file 'model.mlir': the module embeds "
            "no sources (compile with --executable-debug-level=3)\n");
  json doc = RunJson({module, "--sources"});
  EXPECT_EQ(doc["files"].size(), 0u);
  EXPECT_EQ(doc["totals"]["files"], 0);
}

TEST_F(KilnDumpTest, NeverLoadsTheLibraries) {
  // Library variant 3 answers with an unsupported ABI version: kiln-run
  // refuses the module, kiln-dump shows it.
  fb::ModuleT spec = DumpSpec();
  spec.libraries[0]->data = ReadBinaryFile(KILN_TEST_LIBRARY_3);
  spec.libraries[0]->cpu = "some-other-cpu";
  const std::string module = Write("other.kiln", BuildModule(spec));
  RunResult result = Run({module});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out, "cpu some-other-cpu"));
  // Libraries are still checked as ELF images.
  spec.libraries[0]->data.resize(spec.libraries[0]->data.size() / 2);
  result = Run({Write("half.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "library 0: truncated ELF")) << result.err;
}

TEST_F(KilnDumpTest, BadModulesAreErrorsNotCrashes) {
  RunResult result = Run({dir_ + "/missing.kiln"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-dump: error: cannot open '" + dir_ +
                            "/missing.kiln': No such file or directory\n");
  result = Run({Write("garbage.kiln", {1, 2, 3, 4, 5, 6, 7, 8, 9})});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "kiln-dump: error: cannot load"));
  EXPECT_TRUE(Contains(result.err, "not a kiln module"));

  // Broken debug information is caught by the loader.
  fb::ModuleT spec = DumpSpec();
  std::swap(spec.source_files[0], spec.source_files[1]);
  result = Run({Write("unsorted.kiln", BuildModule(spec)), "--sources"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "source files are not sorted by path"))
      << result.err;
  spec = DumpSpec();
  spec.source_contents[1]->uncompressed_size += 3;
  result = Run({Write("size.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(Contains(result.err, "zstd frame declares")) << result.err;

  // Truncations and corruptions: an error or a dump, never a crash.
  const std::vector<uint8_t> bytes = BuildModule(DumpSpec());
  std::mt19937 rng(3);
  for (int i = 0; i < 40; ++i) {
    std::vector<uint8_t> damaged = bytes;
    if (i % 2) {
      damaged.resize(rng() % damaged.size());
    } else {
      for (int k = 0; k < 4; ++k) damaged[rng() % damaged.size()] ^= 0xff;
    }
    const std::string path = Write("damaged.kiln", damaged);
    for (const char* view : {"--sources", "--json"}) {
      result = Run({path, view});
      ASSERT_TRUE(result.exit_code == 0 || result.exit_code == 1)
          << "damage " << i << " " << view << ": " << result.err;
      if (result.exit_code == 1) {
        EXPECT_EQ(result.err.substr(0, 18), "kiln-dump: error: ");
      }
    }
  }
}

// DumpSpec with line maps: translated 11 came from source 7 and 8, 12 from
// 8; source 7 from model.mlir 2, source 8 from model.mlir 2 and other.mlir 5
// (an input file the module does not embed).
fb::ModuleT LineMapSpec() {
  fb::ModuleT spec = DumpSpec();
  spec.input_files = {"model.mlir", "other.mlir"};
  spec.source_files[1]->origins =
      testing::Origins({{7, 0, 0, 2}, {8, 0, 0, 2}, {8, 0, 1, 5}});
  spec.source_files[2]->previous = 1;
  spec.source_files[2]->origins =
      testing::Origins({{11, 7, 0, 2}, {11, 8, 0, 2}, {12, 8, 0, 2}});
  return spec;
}

TEST_F(KilnDumpTest, CorrelateFollowsLinesBothWays) {
  const std::string module = Write("lines.kiln", BuildModule(LineMapSpec()));
  RunResult result =
      Run({module, "--correlate=dbg_ex_cpu.1.translated.mlir:11"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(
      result.out,
      "1.translated  dbg_ex_cpu.1.translated.mlir:11  translated line 11\n"
      "  0.source      dbg_ex_cpu.0.source.mlir:7  source line 7\n"
      "  0.source      dbg_ex_cpu.0.source.mlir:8  source line 8\n"
      "  input         model.mlir:2  linalg.add\n");
  // Forward, and to an input file that is not embedded.
  result = Run({module, "--correlate=dbg_ex_cpu.0.source.mlir:8"});
  EXPECT_EQ(
      result.out,
      "0.source      dbg_ex_cpu.0.source.mlir:8  source line 8\n"
      "  1.translated  dbg_ex_cpu.1.translated.mlir:11  translated line 11\n"
      "  1.translated  dbg_ex_cpu.1.translated.mlir:12  translated line 12\n"
      "  input         model.mlir:2  linalg.add\n"
      "  input         other.mlir:5  (text not embedded)\n");
  // From the input program to every stage.
  result = Run({module, "--correlate=model.mlir:2", "--json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  json document = json::parse(result.out);
  EXPECT_EQ(document["stage"], "input");
  EXPECT_EQ(document["text"], "linalg.add");
  std::vector<std::pair<std::string, int>> counterparts;
  for (const json& c : document["counterparts"]) {
    counterparts.emplace_back(c["stage"], c["line"]);
  }
  EXPECT_EQ(counterparts,
            (std::vector<std::pair<std::string, int>>{{"0.source", 7},
                                                      {"0.source", 8},
                                                      {"1.translated", 11},
                                                      {"1.translated", 12}}));
  result = Run({module, "--correlate=other.mlir:5", "--json"});
  document = json::parse(result.out);
  EXPECT_EQ(document["text"], nullptr);
  EXPECT_EQ(document["counterparts"].size(), 1u);
  // A line with no op.
  result = Run({module, "--correlate=dbg_ex_cpu.1.translated.mlir:3"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out,
            "1.translated  dbg_ex_cpu.1.translated.mlir:3  translated line 3\n"
            "  no counterparts: no op of another text stands for this line\n");
  result = Run({module, "--correlate=dbg_ex_cpu.1.translated.mlir:21"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: line 21 is past the end of "
            "'dbg_ex_cpu.1.translated.mlir' (20 lines)\n");
  result = Run({module, "--correlate=dbg_ex_cpu.1.translated.mlir:0"});
  EXPECT_EQ(result.err,
            "kiln-dump: error: --correlate: line '0' must be in [1, "
            "4294967295]\n");
  // A module without line maps.
  result = Run({module_, "--correlate=model.mlir:2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: the module carries no cross-stage line maps "
            "(compile it with --executable-debug-level=3)\n");
}

TEST_F(KilnDumpTest, FlagErrors) {
  RunResult result = Run({module_, "--bogus"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: unknown flag '--bogus' (see --help)\n");
  result = Run({module_, "--sources", "--print-source=model.mlir"});
  EXPECT_EQ(result.err,
            "kiln-dump: error: choose one of --sources, --print-source, "
            "--extract-sources, --extract-libraries, --disassemble and "
            "--correlate\n");
  result = Run({module_, "--sources", "--disassemble"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: choose one of --sources, --print-source, "
            "--extract-sources, --extract-libraries, --disassemble and "
            "--correlate\n");
  result = Run({module_, "--disassemble", "--correlate=model.mlir:2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("choose one of"), std::string::npos);
  result = Run({module_, "--context=3"});
  EXPECT_EQ(result.err,
            "kiln-dump: error: --context only applies to "
            "--print-source=PATH:LINE\n");
  result = Run({module_, "--print-source=model.mlir:2", "--context=x"});
  EXPECT_EQ(result.err,
            "kiln-dump: error: --context expects a non-negative integer, got "
            "'x'\n");
  result = Run({module_, "--json=1"});
  EXPECT_EQ(result.err, "kiln-dump: error: flag '--json' takes no value\n");
  result = Run({module_, "--print-source"});
  EXPECT_EQ(result.err,
            "kiln-dump: error: flag '--print-source' expects a value\n");
  result = Run({module_, "--sources", "--force"});
  EXPECT_EQ(result.err,
            "kiln-dump: error: --force only applies to --extract-sources and "
            "--extract-libraries\n");
  result = Run({});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-dump: error: no module given (see --help)\n");
}

// Names, paths and texts from the module reach the terminal escaped, in
// every view and in errors.
TEST_F(KilnDumpTest, ModuleStringsArePrintedEscaped) {
  fb::ModuleT spec = DumpSpec();
  Executables(spec)[0]->exports[0]->stage_locations.clear();
  Executables(spec)[0]->exports[0]->name = "add\x1b]0;owned\x07";
  SetSources(&spec, {{"m\x1b[2J.mlir", "line \x1b[31mred\n\tindented\n"}});
  const std::string module = Write("escapes.kiln", BuildModule(spec));
  RunResult result = Run({module});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out, "add\\x1b]0;owned\\x07")) << result.out;
  EXPECT_TRUE(Contains(result.out, "m\\x1b[2J.mlir")) << result.out;
  result = Run({module, "--print-source=m\x1b[2J.mlir"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "  1  line \\x1b[31mred\n  2  \tindented\n");
  result = Run({module, "--print-source=m\x1b[2J.mlir:9"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-dump: error: line 9 is past the end of 'm\\x1b[2J.mlir' "
            "(2 lines)\n");
  EXPECT_EQ(result.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(result.err.find('\x1b'), std::string::npos);
}

//===----------------------------------------------------------------------===//
// A module compiled from samples/mlp.mlir (built with the compiler only)
//===----------------------------------------------------------------------===//

#if defined(KILN_COMPILE_PATH) && defined(KILN_SAMPLES_DIR)
TEST_F(KilnDumpTest, CompiledModule) {
  const std::string module = dir_ + "/mlp.kiln";
  RunResult compiled = RunProgram(KILN_COMPILE_PATH,
                                  {KILN_SAMPLES_DIR "/mlp.mlir",
                                   "--executable-debug-level=3", "-o", module});
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  json doc = RunJson({module});
  EXPECT_EQ(doc["debug_level"], 3);
  EXPECT_EQ(doc["capture_stages"],
            json({"0.source", "1.configured", "2.translated"}));
  ASSERT_FALSE(doc["executables"].empty());
  // Every export's stage location names a file of the table, and the marked
  // line of that text is the entry function's definition.
  int checked = 0;
  for (const json& executable : doc["executables"]) {
    for (const json& ex : executable["exports"]) {
      EXPECT_FALSE(ex["location"].is_null());
      EXPECT_FALSE(ex["provenance"].empty());
      ASSERT_EQ(ex["stage_locations"].size(), 3u);
      for (const json& stage : ex["stage_locations"]) {
        const std::string where = stage["path"].get<std::string>() + ":" +
                                  std::to_string(stage["line"].get<int>());
        json source =
            RunJson({module, "--print-source=" + where, "--context=0"});
        const std::string line = source["text"];
        EXPECT_TRUE(Contains(line, "@" + ex["name"].get<std::string>()))
            << where << ": " << line;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
  RunResult result = Run({module, "--sources"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(Contains(result.out, "_main_dispatch_0_cpu.0.source.mlir"));
  result = Run({module, "--extract-sources=" + dir_ + "/mlp"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
}
#endif

}  // namespace
}  // namespace kiln
