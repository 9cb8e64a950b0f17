//===- kiln_run_test.cc - End-to-end tests of the kiln-run tool -----------===//
//
// Runs the built kiln-run binary on modules built here (with the hand-written
// test library from runtime/module/testdata) and checks its output, files and
// exit codes.
//
//===----------------------------------------------------------------------===//

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kiln/tensor_io.h"
#include "kiln/trace.h"
#include "module/module_test_util.h"
#include "nlohmann/json.hpp"
#include "support/guard_pages.h"
#include "support/run_flags.h"
#include "support/tool_test.h"

namespace kiln {
namespace {

using namespace kiln::testing;

class KilnRunTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();

    fb::ModuleT spec = NewModule();
    spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
    fb::TensorTypeT v8 = Type(fb::ElementType::F32, {8}),
                    m24 = Type(fb::ElementType::F32, {2, 4});
    // add_f32 records its binding types (as kiln-compile writes them); fail
    // does not.
    fb::ExportT add = Export("add_f32", 0, 3, {2, 1, 1});
    add.binding_types = Owned({v8, v8, v8});
    Executables(spec).push_back(
        Executable("ex", 0, {add, Export("fail", 1, 1, {1, 1, 1})}));
    spec.functions.push_back(
        Function("main", {v8, v8, v8, m24}, {0, 1}, {v8, m24},
                 {Dispatch(0, 0, {0, 1}, {2}), Reshape(3, 2), Return({2, 3})}));
    spec.functions.push_back(Function("fail", {v8}, {}, {v8},
                                      {Dispatch(0, 1, {}, {0}), Return({0})}));
    two_functions_ = Write("two.kiln", BuildModule(spec));
    spec.functions.pop_back();
    one_function_ = Write("one.kiln", BuildModule(spec));
  }

  RunResult Run(std::vector<std::string> args) {
    return RunProgram(KILN_RUN_PATH, std::move(args));
  }

  std::string one_function_, two_functions_;
};

const char kA[] = "--input=8xf32=0,1,2,3,4,5,6,7";
const char kB[] = "--input=8xf32=[100 200 300 400 500 600 700 800]";

TEST_F(KilnRunTest, Help) {
  RunResult result = Run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("usage: kiln-run MODULE.kiln"), std::string::npos);
  // The flags it shares with kiln-benchmark and kiln-check, as they say.
  EXPECT_NE(result.out.find(tools::RunFlagsHelp(tools::kCallFlags)),
            std::string::npos);
  EXPECT_EQ(result.err, "");
}

TEST_F(KilnRunTest, Version) {
  RunResult result = Run({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out.rfind("kiln-run ", 0), 0u) << result.out;
  EXPECT_NE(result.out.find(StrCat(" (module format ", kModuleVersion, ")\n")),
            std::string::npos)
      << result.out;
  EXPECT_EQ(result.err, "");
}

TEST_F(KilnRunTest, RunsAndPrintsResults) {
  RunResult result = Run({one_function_, kA, kB, "--threads=2"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "8xf32=100 201 302 403 504 605 706 807\n"
            "2x4xf32=[100 201 302 403][504 605 706 807]\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(KilnRunTest, GuardPagesRunsAsWithout) {
  RunResult result =
      Run({one_function_, kA, kB, "--threads=2", "--guard-pages"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "8xf32=100 201 302 403 504 605 706 807\n"
            "2x4xf32=[100 201 302 403][504 605 706 807]\n");
  result = Run({one_function_, "--dispatch=add_f32", "--binding=8xf32=1",
                "--binding=8xf32=2", "--binding=8xf32=0", "--guard-pages"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "8xf32=1 1 1 1 1 1 1 1\n8xf32=2 2 2 2 2 2 2 2\n"
            "8xf32=3 3 3 3 3 3 3 3\n");
}

// Every byte of an allocation can be written; the first past it (rounded
// up to the alignment) cannot.
TEST(GuardPagesDeathTest, EveryTensorEndsAtAnInaccessiblePage) {
  std::shared_ptr<Allocator> allocator = tools::GuardPageAllocator();
  for (uint64_t size : {1, 100, 4096, 5000, 1 << 20}) {
    SCOPED_TRACE(size);
    auto* data = static_cast<volatile char*>(allocator->Allocate(size));
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kTensorAlignment, 0u);
    for (uint64_t i = 0; i < size; ++i) data[i] = 1;
    const uint64_t end =
        (size + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
    EXPECT_DEATH(data[end] = 1, "");
    allocator->Free(const_cast<char*>(data), size);
  }
}

TEST_F(KilnRunTest, FlagsWithSeparateValues) {
  RunResult result =
      Run({"--function", "main", "--input", "8xf32=1", "--threads", "1",
           two_functions_, "--input", "8xf32=2"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "8xf32=3 3 3 3 3 3 3 3\n2x4xf32=[3 3 3 3][3 3 3 3]\n");
}

TEST_F(KilnRunTest, ListFunctions) {
  RunResult result = Run({two_functions_, "--list-functions"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "main(8xf32, 8xf32) -> (8xf32, 2x4xf32)\nfail() -> (8xf32)\n");
}

// Listing inspects: the library is not loaded, so none of its code runs
// (this one's query answers with an ABI version no runtime serves).
TEST_F(KilnRunTest, ListFunctionsDoesNotLoadTheLibrary) {
  fb::ModuleT spec = NewModule();
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_3)));
  fb::TensorTypeT v8 = Type(fb::ElementType::F32, {8});
  Executables(spec).push_back(
      Executable("ex", 0, {Export("fail", 1, 1, {1, 1, 1})}));
  spec.functions.push_back(
      Function("fail", {v8}, {}, {v8}, {Dispatch(0, 0, {}, {0}), Return({0})}));
  const std::string path = Write("abi99.kiln", BuildModule(spec));
  RunResult result = Run({path, "--list-functions"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "fail() -> (8xf32)\n");
  result = Run({path});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("library answered with ABI version 99"),
            std::string::npos)
      << result.err;
}

// A module for two CPUs whose ids() tells its variants apart: the grid of
// workgroup_ids, 24x1x1 in "x86-64-v4" (library 0, which also needs
// `v4_feature` when given), 4x2x3 in "x86-64" (library 1).
std::vector<uint8_t> TwoVariantModule(std::string v4_feature) {
  fb::ModuleT spec = NewModule();
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  spec.libraries[0]->cpu = "x86-64-v4";
  if (!v4_feature.empty()) spec.libraries[0]->cpu_features = {v4_feature};
  spec.variants[0]->name = "x86-64-v4";
  Executables(spec).push_back(
      Executable("ex", 0, {Export("workgroup_ids", 2, 1, {24, 1, 1})}));
  spec.variants.push_back(Variant("x86-64"));
  spec.variants[1]->executables.push_back(
      Executable("ex", 1, {Export("workgroup_ids", 2, 1, {4, 2, 3})}));
  fb::TensorTypeT ids = Type(fb::ElementType::I32, {24});
  spec.functions.push_back(Function("ids", {ids}, {}, {ids},
                                    {Dispatch(0, 0, {}, {0}), Return({0})}));
  return BuildModule(spec);
}

constexpr char kIds24x1x1[] =
    "24xi32=0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n";
constexpr char kIds4x2x3[] =
    "24xi32=0 1 2 3 256 257 258 259 65536 65537 65538 65539 65792 65793 "
    "65794 65795 131072 131073 131074 131075 131328 131329 131330 131331\n";

// The first variant this machine runs runs, or the one --variant names;
// --list-functions says which and why.
TEST_F(KilnRunTest, CodeVariants) {
  const std::string both = Write("both.kiln", TwoVariantModule(""));
  RunResult result = Run({both});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, kIds24x1x1);
  result = Run({both, "--variant=x86-64"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, kIds4x2x3);
  result = Run({both, "--list-functions"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "ids() -> (24xi32)\n");
  EXPECT_EQ(result.err,
            "kiln-run: code variant x86-64-v4 runs (the first of x86-64-v4, "
            "x86-64 this machine can run)\n");
  result = Run({both, "--list-functions", "--variant=x86-64"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err,
            "kiln-run: code variant x86-64 runs (as --variant says)\n");

  const std::string v3 = Write("v3.kiln", TwoVariantModule("newext"));
  result = Run({v3});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, kIds4x2x3);
  result = Run({v3, "--list-functions"});
  EXPECT_EQ(result.err,
            "kiln-run: code variant x86-64 runs (the first of x86-64-v4, "
            "x86-64 this machine can run)\n");
  const std::string lacks =
      "library 0: compiled for CPU 'x86-64-v4' with instructions this "
      "runtime cannot check: newext";
  result = Run({v3, "--list-functions", "--variant=x86-64-v4"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err,
            "kiln-run: code variant x86-64-v4 (as --variant says) cannot run "
            "on this machine: " +
                lacks + "\n");
  result = Run({v3, "--variant=x86-64-v4"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-run: error: cannot load '" + v3 +
                            "': code variant 'x86-64-v4': " + lacks + "\n");
  result = Run({v3, "--variant=x86-64-v2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-run: error: cannot load '" + v3 +
                            "': no code variant 'x86-64-v2' (available: "
                            "x86-64-v4, x86-64)\n");
  result = Run({v3, "--variant="});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: --variant expects the name of a code variant, "
            "got ''\n");
  // A module for one CPU says nothing of its only variant.
  result = Run({two_functions_, "--list-functions"});
  EXPECT_EQ(result.err, "");
  result = Run({two_functions_, "--list-functions", "--variant=cpu"});
  EXPECT_EQ(result.err,
            "kiln-run: code variant cpu runs (as --variant says)\n");
}

#ifdef KILN_COMPILE_PATH
std::vector<uint8_t> StringBytes(std::string_view text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

// A module kiln-compile wrote, its workgroup count then changed in place
// (the export's vector in the FlatBuffer): the library, which describes its
// own code, disagrees, and the module is refused before anything runs.
TEST_F(KilnRunTest, CompiledModuleWithAChangedWorkgroupCountIsRefused) {
  const std::string source = Write(
      "add.mlir",
      StringBytes("func.func @main(%a: tensor<523x611xf32>, %b: "
                  "tensor<523x611xf32>) -> tensor<523x611xf32> {\n"
                  "  %e = tensor.empty() : tensor<523x611xf32>\n"
                  "  %r = linalg.add ins(%a, %b : tensor<523x611xf32>, "
                  "tensor<523x611xf32>) outs(%e : tensor<523x611xf32>) -> "
                  "tensor<523x611xf32>\n"
                  "  return %r : tensor<523x611xf32>\n}\n"));
  const std::string module = dir_ + "/add.kiln";
  RunResult compiled = RunProgram(KILN_COMPILE_PATH, {source, "-o", module});
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const char kInput[] = "--input=523x611xf32=1";
  RunResult result = Run({module, kInput, kInput});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  std::vector<uint8_t> bytes = ReadBinaryFile(module);
  const fb::Export* ex = fb::GetModule(bytes.data())
                             ->variants()
                             ->Get(0)
                             ->executables()
                             ->Get(0)
                             ->exports()
                             ->Get(0);
  const uint32_t built = ex->workgroup_count()->Get(0);
  ASSERT_GT(built, 1u) << "the kernel should spread over workgroups";
  for (uint32_t count : {built + 1, built - 1}) {
    auto* x = const_cast<uint32_t*>(ex->workgroup_count()->data());
    *x = count;
    const std::string changed = Write("changed.kiln", bytes);
    result = Run({changed, kInput, kInput});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find(StrCat("module declares workgroup count ", count,
                                     "x1x1 but the library export was built "
                                     "for ",
                                     built, "x1x1")),
              std::string::npos)
        << result.err;
  }
}

// A module kiln-compile wrote, the extents its kernels take to be equal
// then deleted from it or rewritten to trivial pairs (`a = a`), as a
// hostile author would: the runtime no longer checks them, but the kernels
// check them themselves and fail before reading or writing past a binding
// (a dynamic add given 50000 and 3 elements, a dynamic matmul given 3x8
// and 7x4), and inputs that agree still run.
TEST_F(KilnRunTest, CompiledKernelsCheckTheExtentsAModuleNoLongerDoes) {
  const std::string source = Write(
      "dynamic.mlir",
      StringBytes(
          "func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> "
          "tensor<?xf32> {\n"
          "  %c0 = arith.constant 0 : index\n"
          "  %n = tensor.dim %a, %c0 : tensor<?xf32>\n"
          "  %e = tensor.empty(%n) : tensor<?xf32>\n"
          "  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) "
          "outs(%e : tensor<?xf32>) -> tensor<?xf32>\n"
          "  return %r : tensor<?xf32>\n}\n"
          "func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> "
          "tensor<?x?xf32> {\n"
          "  %c0 = arith.constant 0 : index\n"
          "  %c1 = arith.constant 1 : index\n"
          "  %m = tensor.dim %a, %c0 : tensor<?x?xf32>\n"
          "  %n = tensor.dim %b, %c1 : tensor<?x?xf32>\n"
          "  %z = arith.constant 0.0 : f32\n"
          "  %e = tensor.empty(%m, %n) : tensor<?x?xf32>\n"
          "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> "
          "tensor<?x?xf32>\n"
          "  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, "
          "tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>\n"
          "  return %r : tensor<?x?xf32>\n}\n"));
  const std::string module = dir_ + "/dynamic.kiln";
  RunResult compiled = RunProgram(KILN_COMPILE_PATH, {source, "-o", module});
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  const std::vector<uint8_t> bytes = ReadBinaryFile(module);
  for (const bool remove : {true, false}) {
    std::unique_ptr<fb::ModuleT> spec = fb::UnPackModule(bytes.data());
    int changed = 0;
    for (auto& executable : Executables(*spec)) {
      for (auto& ex : executable->exports) {
        std::vector<uint32_t>& pairs = ex->equal_constants;
        if (pairs.empty()) continue;
        ++changed;
        if (remove) {
          pairs.clear();
        } else {
          for (size_t i = 1; i < pairs.size(); i += 2) pairs[i] = pairs[i - 1];
        }
      }
    }
    ASSERT_EQ(changed, 2) << "both kernels loop over extents of two inputs";
    const std::string changed_path =
        Write(remove ? "removed.kiln" : "trivial.kiln",
              testing::BuildModule(std::move(*spec)));
    const char kCaught[] =
        "found sizes it computes from this call's that do not fit";
    RunResult result = Run({changed_path, "--function=add",
                            "--input=50000xf32=1", "--input=3xf32=2"});
    EXPECT_EQ(result.exit_code, 1) << result.out;
    EXPECT_NE(result.err.find(kCaught), std::string::npos) << result.err;
    result = Run({changed_path, "--function=matmul", "--input=3x8xf32=1",
                  "--input=7x4xf32=1"});
    EXPECT_EQ(result.exit_code, 1) << result.out;
    EXPECT_NE(result.err.find(kCaught), std::string::npos) << result.err;
    result = Run(
        {changed_path, "--function=add", "--input=3xf32=1", "--input=3xf32=2"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out, "3xf32=3 3 3\n");
  }
}
#endif

TEST_F(KilnRunTest, FunctionSelection) {
  RunResult result = Run({two_functions_, kA, kB});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: the module has several functions; choose one "
            "with --function (main, fail)\n");
  result = Run({two_functions_, "--function=nope"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: no function 'nope' (available: main, fail)\n");
}

TEST_F(KilnRunTest, NpyInputsAndOutputs) {
  StatusOr<Tensor> b = ParseTensor("8xf32=10");
  ASSERT_TRUE(b.ok());
  const std::string b_path = dir_ + "/b.npy", out_path = dir_ + "/out.npy";
  ASSERT_TRUE(WriteNpyFile(b_path, *b).ok());
  RunResult result =
      Run({one_function_, kA, "--input=@" + b_path, "--output=@" + out_path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  // The first result went to the file, the second is printed.
  EXPECT_EQ(result.out, "2x4xf32=[10 11 12 13][14 15 16 17]\n");
  StatusOr<Tensor> written = ReadNpyFile(out_path);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(FormatTensor(*written), "8xf32=10 11 12 13 14 15 16 17");

  result = Run({one_function_, kA, kB, "--output=-", "--output=@" + out_path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "8xf32=100 201 302 403 504 605 706 807\n");
  written = ReadNpyFile(out_path);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(written->type().ToString(), "2x4xf32");
}

TEST_F(KilnRunTest, InputErrors) {
  RunResult result = Run({one_function_, kA, "--input=8xf32=1,2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: input 1: expected 8 values for 8xf32, got 2\n");
  result = Run({one_function_, kA});
  EXPECT_EQ(result.err,
            "kiln-run: error: main(8xf32, 8xf32) -> (8xf32, 2x4xf32) takes 2 "
            "inputs, got 1\n");
  result = Run({one_function_, kA, "--input=2x4xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: input 1: expected 8xf32, got 2x4xf32\n");
  result = Run({one_function_, kA, "--input=@" + dir_ + "/missing.npy"});
  EXPECT_EQ(result.err, "kiln-run: error: input 1: cannot open '" + dir_ +
                            "/missing.npy': No such file or directory\n");
  result = Run({one_function_, kA, kB, "--output=out.bin"});
  EXPECT_EQ(result.err,
            "kiln-run: error: output 0: expected '@FILE.npy' or '-', got "
            "'out.bin'\n");
  result =
      Run({one_function_, kA, kB, "--output=-", "--output=-", "--output=-"});
  EXPECT_EQ(result.err,
            "kiln-run: error: 3 --output flags, but 'main' has 2 results\n");
}

TEST_F(KilnRunTest, FlagErrors) {
  RunResult result = Run({one_function_, "--bogus"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: unknown flag '--bogus' (see --help)\n");
  result = Run({one_function_, "--threads=0"});
  EXPECT_EQ(result.err,
            "kiln-run: error: --threads expects an integer in [1, 1024], got "
            "'0'\n");
  result = Run({one_function_, "--input"});
  EXPECT_EQ(result.err, "kiln-run: error: flag '--input' expects a value\n");
  result = Run({});
  EXPECT_EQ(result.err, "kiln-run: error: no module given (see --help)\n");
  result = Run({one_function_, two_functions_});
  EXPECT_EQ(result.exit_code, 1);
}

TEST_F(KilnRunTest, ProfileFollowsTheResults) {
  // Too short to be sampled reliably: the table's header and the (possibly
  // empty) stacks file are what is certain.
  const std::string folded = dir_ + "/p.folded";
  RunResult result = Run({one_function_, kA, kB, "--threads=2",
                          "--profile=2000", "--profile-output=" + folded});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("8xf32=100 201 302 403 504 605 706 807\n"
                             "2x4xf32=[100 201 302 403][504 605 706 807]\n"
                             "profile of main: ",
                             0),
            0u)
      << result.out;
  EXPECT_NE(result.out.find(" of CPU time on 2 threads: "), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find(" Hz of the 2000 Hz asked, by "), std::string::npos)
      << result.out;
  EXPECT_EQ(access(folded.c_str(), F_OK), 0);
  // At 1 Hz the call gets no sample, and the table says what to do.
  result = Run({one_function_, kA, kB, "--threads=1", "--profile=1"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("profile of main: 0 samples in "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("\n  no samples: the threads ran "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("profile more calls: kiln-benchmark --profile"),
            std::string::npos)
      << result.out;
  // The clock the environment asks for is the one the table names.
  setenv("KILN_PROFILE_CLOCK", "timer", 1);
  result = Run({one_function_, kA, kB, "--profile"});
  unsetenv("KILN_PROFILE_CLOCK");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(" Hz of the 1000 Hz asked, by CPU-time timers; "),
            std::string::npos)
      << result.out;
  // Stacks alone print no table.
  result = Run({one_function_, kA, kB, "--profile-output=" + folded});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find("profile of"), std::string::npos);
  // Nor does the page.
  const std::string page = dir_ + "/p.html";
  result = Run({one_function_, kA, kB, "--profile-report=" + page});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find("profile of"), std::string::npos);
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("\"function\":\"main\""), std::string::npos);
}

TEST_F(KilnRunTest, ProfileFlagErrors) {
  RunResult result = Run({one_function_, kA, kB, "--profile=fast"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: --profile expects a rate in [1, 100000] samples "
            "per second, got 'fast'\n");
  result = Run({one_function_, kA, kB, "--profile=100001"});
  EXPECT_EQ(result.exit_code, 1);
  result = Run({one_function_, kA, kB, "--profile-output="});
  EXPECT_EQ(result.err,
            "kiln-run: error: --profile-output needs a file: "
            "--profile-output=FILE\n");
  result = Run({one_function_, kA, kB, "--profile-report="});
  EXPECT_EQ(result.err,
            "kiln-run: error: --profile-report needs a file: "
            "--profile-report=FILE\n");
  result = Run({one_function_, "--dispatch=add_f32", "--profile"});
  EXPECT_EQ(result.err,
            "kiln-run: error: --profile and --profile-output profile a "
            "function; they do not combine with --dispatch\n");
}

TEST_F(KilnRunTest, BadModulesAreErrorsNotCrashes) {
  RunResult result = Run({dir_ + "/missing.kiln"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-run: error: cannot open '" + dir_ +
                            "/missing.kiln': No such file or directory\n");
  const std::string garbage =
      Write("garbage.kiln", {1, 2, 3, 4, 5, 6, 7, 8, 9});
  result = Run({garbage});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("not a kiln module"), std::string::npos);
  std::vector<uint8_t> bytes = ReadBinaryFile(one_function_);
  bytes.resize(bytes.size() / 3);
  result = Run({Write("truncated.kiln", bytes)});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("cannot load"), std::string::npos) << result.err;
}

// A library whose dynamic section points outside its segments (its hash
// recomputed, so the module verifies as far as hashes go) is refused before
// the dynamic loader reads it; listing functions never loads it either.
TEST_F(KilnRunTest, LibraryTablesOutsideTheImageAreErrorsNotCrashes) {
  fb::ModuleT spec = NewModule();
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  Executables(spec).push_back(Executable("ex", 0, {}));
  ASSERT_TRUE(RetagDynamicEntry(&spec.libraries[0]->data, DT_SYMTAB, DT_SYMTAB,
                                uint64_t{1} << 40));
  const std::string path = Write("symtab.kiln", BuildModule(spec));
  for (const char* flag : {"--function=main", "--list-functions"}) {
    RunResult result = Run({path, flag});
    EXPECT_EQ(result.exit_code, 1) << flag << ": " << result.err;
    EXPECT_NE(result.err.find("library 0: symbol table at address "
                              "1099511627776"),
              std::string::npos)
        << result.err;
  }
}

// A module of a few KB whose stage text declares 1 GiB: the chrome trace
// names it among the texts left out, with the reason, rather than hold it
// (and its JSON copy) in memory; the run warns. Allocating it used to end
// in an uncaught std::bad_alloc under a memory limit.
TEST_F(KilnRunTest, ChromeTracesLeaveOutTextsOverTheirLimit) {
  const std::string path = "huge_ex_cpu.0.source.mlir";
  fb::ModuleT spec = NewModule();
  spec.debug_level = 3;
  spec.capture_stages = {"0.source"};
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  const fb::TensorTypeT v8 = Type(fb::ElementType::F32, {8});
  fb::ExportT add = Export("add_f32", 0, 3, {2, 1, 1});
  add.binding_types = Owned({v8, v8, v8});
  add.stage_locations = Owned({StageLocation(0, 0, 1)});
  Executables(spec).push_back(Executable("ex", 0, {add}));
  spec.functions.push_back(
      Function("main", {v8, v8, v8}, {0, 1}, {v8},
               {Dispatch(0, 0, {0, 1}, {2}), Return({2})}));
  SetSources(&spec, {{path, "x"}});
  spec.source_contents[0] = RepeatedContent('x', kMaxSourceSize);
  const std::string module = Write("huge.kiln", BuildModule(spec));
  ASSERT_LT(ReadBinaryFile(module).size(), 128u * 1024);

  const std::string trace = dir_ + "/trace.json";
  const std::vector<std::string> args = {module, kA, kB,
                                         "--trace=chrome=" + trace};
  // Sanitizers reserve terabytes of address space: no limit on it holds.
#if defined(KILN_SANITIZER_ADDRESS) || defined(KILN_SANITIZER_THREAD)
  RunResult result = Run(args);
#else
  RunResult result = RunInShell("ulimit -v 2097152", KILN_RUN_PATH, args);
#endif
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err,
            "kiln-run: warning: huge_ex_cpu.0.source.mlir is 1073741824 "
            "bytes, more than the tracer's viewer shows (16777216 bytes): "
            "zones pointing at it show no text (kiln-dump --extract-sources "
            "writes it)\n");
  const nlohmann::json doc = nlohmann::json::parse(ReadText(trace), nullptr,
                                                   /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_TRUE(doc["kilnSources"].empty());
  EXPECT_EQ(doc["kilnSourcesOmitted"][path],
            "source 'huge_ex_cpu.0.source.mlir' is 1073741824 bytes, more "
            "than the limit of 16777216; the trace embeds at most 16777216 "
            "bytes per text and 134217728 in all (kiln-dump --print-source "
            "shows it)");
}

//===----------------------------------------------------------------------===//
// --dispatch
//===----------------------------------------------------------------------===//

TEST_F(KilnRunTest, DispatchRunsOneExport) {
  RunResult result = Run(
      {one_function_, "--dispatch=add_f32", "--binding=8xf32=0,1,2,3,4,5,6,7",
       "--binding=8xf32=100", "--binding=8xf32=0", "--threads=2"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "8xf32=0 1 2 3 4 5 6 7\n"
            "8xf32=100 100 100 100 100 100 100 100\n"
            "8xf32=100 101 102 103 104 105 106 107\n");
  EXPECT_EQ(result.err, "");

  // Fewer workgroups than compiled for; the qualified name; bindings to
  // files with --output; separate flag values.
  const std::string out_path = dir_ + "/out.npy";
  result = Run({two_functions_, "--dispatch", "ex::add_f32",
                "--workgroup-count=1,1,1", "--binding=8xf32=1",
                "--binding=8xf32=2", "--binding", "8xf32", "--output=-",
                "--output=-", "--output=@" + out_path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "8xf32=1 1 1 1 1 1 1 1\n8xf32=2 2 2 2 2 2 2 2\n");
  EXPECT_EQ(result.err,
            "kiln-run: warning: running add_f32 with workgroup count 1x1x1; "
            "it was compiled for 2x1x1 (part of the output may not be "
            "written)\n");
  StatusOr<Tensor> written = ReadNpyFile(out_path);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(FormatTensor(*written), "8xf32=3 3 3 3 3 3 3 3");
}

// --workgroup-count takes 1 to 3 counts, the missing ones 1, as its
// message and --help say.
TEST_F(KilnRunTest, WorkgroupCountTakesOneToThreeCounts) {
  const std::vector<std::string> bindings = {
      "--binding=8xf32=1", "--binding=8xf32=2", "--binding=8xf32=0"};
  for (const char* count : {"2", "2,1", "2,1,1"}) {
    std::vector<std::string> args = {one_function_, "--dispatch=add_f32",
                                     StrCat("--workgroup-count=", count)};
    args.insert(args.end(), bindings.begin(), bindings.end());
    RunResult result = Run(args);
    EXPECT_EQ(result.exit_code, 0) << count << ": " << result.err;
    EXPECT_EQ(result.out,
              "8xf32=1 1 1 1 1 1 1 1\n8xf32=2 2 2 2 2 2 2 2\n"
              "8xf32=3 3 3 3 3 3 3 3\n")
        << count;
    // The compiled count: no warning.
    EXPECT_EQ(result.err, "") << count;
  }
  for (const char* count :
       {"", "0", "1,", ",1", "1,,1", "x", "-1", "1,1,1,1", "4294967296"}) {
    RunResult result = Run({one_function_, "--dispatch=add_f32",
                            StrCat("--workgroup-count=", count)});
    EXPECT_EQ(result.exit_code, 1) << count;
    EXPECT_EQ(result.err,
              StrCat("kiln-run: error: --workgroup-count expects X[,Y[,Z]]: "
                     "1 to 3 positive integers, missing ones 1; got '",
                     count, "'\n"));
  }
  RunResult help = Run({"--help"});
  EXPECT_NE(help.out.find("--workgroup-count=X[,Y[,Z]]\n"), std::string::npos)
      << help.out;
  EXPECT_NE(help.out.find("1 to 3 positive\n"
                          "                        integers, missing ones 1"),
            std::string::npos)
      << help.out;
}

TEST_F(KilnRunTest, DispatchErrors) {
  RunResult result = Run({one_function_, "--dispatch=nope"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: no export 'nope' (available: add_f32, fail)\n");
  result = Run({one_function_, "--dispatch=add_f32", "--binding=8xf32=1",
                "--binding=8xf32=1"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: dispatch 'add_f32': expected 3 bindings, got "
            "2\n");
  EXPECT_EQ(result.out, "");
  result = Run({one_function_, "--dispatch=add_f32", "--binding=8xf32=1",
                "--binding=2x4xf32=1", "--binding=8xf32=1"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: dispatch 'add_f32': binding 1: expected 8xf32, "
            "got 2x4xf32\n");
  result = Run({one_function_, "--dispatch=add_f32", "--binding=8xf32=1",
                "--binding=8xf32=1", "--binding=8xi32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: dispatch 'add_f32': binding 2: expected 8xf32, "
            "got 8xi32\n");
  result = Run({one_function_, "--dispatch=add_f32", "--binding=8xf32=1,2",
                "--binding=8xf32=1", "--binding=8xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: binding 0: expected 8 values for 8xf32, got "
            "2\n");
  // Types are checked before anything is allocated: a huge shape fails at
  // once instead of filling gigabytes first.
  result =
      Run({one_function_, "--dispatch=add_f32", "--binding=1000000000xf32=1",
           "--binding=8xf32=1", "--binding=8xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: dispatch 'add_f32': binding 0: expected 8xf32, "
            "got 1000000000xf32\n");
  result = Run({one_function_, "--dispatch=add_f32", "--workgroup-count=3",
                "--binding=8xf32=1", "--binding=8xf32=1", "--binding=8xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: dispatch 'add_f32': workgroup count 3x1x1 is "
            "outside [1, 2x1x1] (the export's count bounds the workgroup ids "
            "its code handles)\n");
  result = Run({one_function_, "--dispatch=add_f32", "--workgroup-count=1,0"});
  EXPECT_EQ(result.err,
            "kiln-run: error: --workgroup-count expects X[,Y[,Z]]: 1 to 3 "
            "positive integers, missing ones 1; got '1,0'\n");
  result =
      Run({one_function_, "--dispatch=add_f32", "--workgroup-count=1,1,1,1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: --workgroup-count expects X[,Y[,Z]]: 1 to 3 "
            "positive integers, missing ones 1; got '1,1,1,1'\n");
  // An export that does not record its binding types cannot be checked.
  result = Run({one_function_, "--dispatch=fail", "--binding=8xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: dispatch 'fail': the module does not record the "
            "export's binding types, so its bindings cannot be checked\n");
  result = Run({one_function_, "--dispatch=add_f32", "--output=-", "--output=-",
                "--output=-", "--output=-"});
  EXPECT_EQ(result.err,
            "kiln-run: error: 4 --output flags, but 'add_f32' has 3 "
            "bindings\n");
  // Flags of the other mode.
  result = Run({one_function_, "--dispatch=add_f32", kA});
  EXPECT_EQ(result.err,
            "kiln-run: error: --dispatch runs one export with --binding "
            "values; it does not combine with --function, --input or "
            "--list-functions\n");
  result = Run({one_function_, "--binding=8xf32=1"});
  EXPECT_EQ(result.err,
            "kiln-run: error: --binding, --index-constant and --workgroup-count "
            "only apply with "
            "--dispatch\n");
}

TEST_F(KilnRunTest, DispatchFailure) {
  RunResult result = Run({two_functions_, "--function=fail"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: function 'fail' instruction 0: dispatch 'fail' "
            "failed: workgroup (0, 0, 0) returned 7\n");
}

//===----------------------------------------------------------------------===//
// Tracing
//===----------------------------------------------------------------------===//

// Sets (or, with nullptr, unsets) KILN_TRACE for the test's lifetime; the
// tool inherits the environment.
class ScopedTraceEnv {
 public:
  explicit ScopedTraceEnv(const char* value) {
    if (const char* old = std::getenv("KILN_TRACE")) old_ = old;
    if (value) {
      ::setenv("KILN_TRACE", value, 1);
    } else {
      ::unsetenv("KILN_TRACE");
    }
  }
  ~ScopedTraceEnv() {
    if (old_) {
      ::setenv("KILN_TRACE", old_->c_str(), 1);
    } else {
      ::unsetenv("KILN_TRACE");
    }
  }

 private:
  std::optional<std::string> old_;
};

TEST_F(KilnRunTest, TraceNeedsAProvider) {
  ScopedTraceEnv env(nullptr);
  for (std::vector<std::string> trace :
       {std::vector<std::string>{"--trace="}, {"--trace", ""}}) {
    std::vector<std::string> args = {one_function_, kA, kB};
    args.insert(args.end(), trace.begin(), trace.end());
    RunResult result = Run(args);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err,
              StrCat("kiln-run: error: --trace expects a provider (",
                     AvailableTracers(), "), got ''\n"));
  }
}

TEST_F(KilnRunTest, TraceOptionsNeedATracer) {
  ScopedTraceEnv env(nullptr);
  struct Case {
    std::vector<std::string> flags;
    std::string first;
  };
  for (const Case& c : std::vector<Case>{
           {{"--trace-stage=0.source"}, "--trace-stage"},
           {{"--trace-print-source"}, "--trace-print-source"},
           {{"--trace-workgroups"}, "--trace-workgroups"},
           // The first one given is named.
           {{"--trace-workgroups", "--trace-stage", "x"}, "--trace-workgroups"},
       }) {
    std::vector<std::string> args = {one_function_, kA, kB};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    RunResult result = Run(args);
    EXPECT_EQ(result.exit_code, 1) << c.first;
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "kiln-run: error: " + c.first +
                              " needs --trace (or KILN_TRACE)\n");
  }
  // With --trace, or with KILN_TRACE, they are accepted.
  RunResult result =
      Run({one_function_, kA, kB, "--trace=null", "--trace-workgroups"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  {
    ScopedTraceEnv null_env("null");
    result = Run({one_function_, kA, kB, "--trace-workgroups"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
  }
  // An empty KILN_TRACE means no tracing.
  ScopedTraceEnv empty_env("");
  result = Run({one_function_, kA, kB, "--trace-print-source"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: --trace-print-source needs --trace (or "
            "KILN_TRACE)\n");
}

// A run that fails before any dispatch prints the error alone, without the
// console tracer's (empty) summary table around it.
TEST_F(KilnRunTest, EarlyFailureWithConsoleTracerPrintsOnlyTheError) {
  ScopedTraceEnv env(nullptr);
  RunResult result = Run(
      {one_function_, kA, "--input=8xf32", "--input=8xf32", "--trace=console"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-run: error: main(8xf32, 8xf32) -> (8xf32, 2x4xf32) takes 2 "
            "inputs, got 3\n");
  {
    ScopedTraceEnv console_env("console");
    result = Run({one_function_, kA, "--input=8xf32=1,2"});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.err,
              "kiln-run: error: input 1: expected 8 values for 8xf32, got "
              "2\n");
  }
  // A run that dispatches still gets its dispatch lines and summary.
  result = Run({one_function_, kA, kB, "--trace=console"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("[kiln] add_f32 "), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("[kiln] all dispatches"), std::string::npos)
      << result.err;
}

// A --trace-stage the module lacks warns, then every dispatch falls back
// (here to the executable's name: the module records no locations).
TEST_F(KilnRunTest, MissingTraceStageWarnsAndFallsBack) {
  ScopedTraceEnv env(nullptr);
  RunResult result =
      Run({one_function_, kA, kB, "--trace=console", "--trace-stage=nope"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.rfind("kiln-run: warning: --trace-stage=nope: the "
                             "module captured no stages (compile with "
                             "--executable-debug-level=3); dispatches point "
                             "at their input locations\n",
                             0),
            0u)
      << result.err;
  // The executable's name, without a made-up line number.
  EXPECT_NE(result.err.find("2x1x1  ex\n"), std::string::npos) << result.err;
}

// --trace-stage=input asks for the input program's lines, which zones fall
// back to: no warning.
TEST_F(KilnRunTest, InputTraceStageIsNotAMissingStage) {
  ScopedTraceEnv env(nullptr);
  RunResult result =
      Run({one_function_, kA, kB, "--trace=console", "--trace-stage=input"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.find("warning"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("2x1x1  ex\n"), std::string::npos) << result.err;
}

TEST_F(KilnRunTest, TraceProviderProblemsAreReportedBeforeTheRun) {
  ScopedTraceEnv env(nullptr);
  RunResult result = Run({one_function_, kA, kB,
                          "--trace=chrome=" + dir_ + "/missing/dir/t.json"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-run: error: cannot write trace '" + dir_ +
                "/missing/dir/t.json': No such file or directory\n");
  result =
      Run({one_function_, kA, kB, "--trace=console", "--trace-workgroups"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err.rfind("kiln-run: warning: --trace-workgroups: the "
                             "console shows dispatches only; workgroup zones "
                             "need chrome=FILE or tracy\n",
                             0),
            0u)
      << result.err;
  result = Run({one_function_, kA, kB, "--dump-dispatches="});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: --dump-dispatches needs a directory: "
            "--dump-dispatches=DIR\n");
}

// An input or a chrome trace named by a FIFO is refused at once: opening
// it must not wait for the other end (a reader of a trace, a writer of an
// input), and a trace is rewritten in place, which a FIFO cannot take.
TEST_F(KilnRunTest, FifosAreRefusedWithoutBlocking) {
  ScopedTraceEnv env(nullptr);
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  RunResult result = Run({one_function_, kA, "--input=@" + fifo});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: error: input 1: '" + fifo + "' is not a regular file\n");
  result = Run({one_function_, kA, kB, "--trace=chrome=" + fifo});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "kiln-run: error: cannot write trace '" + fifo +
                            "': not a regular file\n");
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

std::unique_ptr<fb::ConstantT> I32Constant(std::vector<int64_t> shape,
                                           const std::vector<int32_t>& values) {
  std::vector<uint8_t> data(values.size() * sizeof(int32_t));
  std::memcpy(data.data(), values.data(), data.size());
  return ConstantData(Type(fb::ElementType::I32, std::move(shape)),
                      std::move(data));
}

// checks(x: i32) -> (2x2xi32): compares constants (one equal pair, one not)
// and x with 0, then returns a constant.
std::vector<uint8_t> CheckModule() {
  fb::ModuleT spec = NewModule();
  spec.constants.push_back(I32Constant({2, 2}, {1, 2, 3, 4}));
  spec.constants.push_back(I32Constant({2, 2}, {1, 2, 3, 5}));
  const fb::TensorTypeT m22 = Type(fb::ElementType::I32, {2, 2}),
                        i32 = Type(fb::ElementType::I32, {});
  spec.functions.push_back(
      Function("checks", {i32, m22, m22}, {0}, {m22},
               {Constant(1, 0), Constant(2, 1), ExpectEq(1, 1, "t.mlir:3:3"),
                ExpectEq(2, 1, "t.mlir:4:3"), ExpectFalse(0, "t.mlir:5:3"),
                Return({2})}));
  return BuildModule(spec);
}

TEST_F(KilnRunTest, FailedChecksArePrintedAndFailTheRun) {
  const std::string module = Write("checks.kiln", CheckModule());
  RunResult result = Run({module, "--input=i32=7"});
  EXPECT_EQ(result.exit_code, 1);
  // The results are still printed.
  EXPECT_EQ(result.out, "2x2xi32=[1 2][3 5]\n");
  EXPECT_EQ(result.err,
            "kiln-run: check failed at t.mlir:4:3: expected 2x2xi32=[1 2][3 "
            "4], got 2x2xi32=[1 2][3 5]; first difference at [1, 1]: expected "
            "4, got 5\n"
            "kiln-run: check failed at t.mlir:5:3: expected zero, got i32=7\n");
  // Only the one that still fails.
  result = Run({module, "--input=i32=0"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-run: check failed at t.mlir:4:3: expected 2x2xi32=[1 2][3 "
            "4], got 2x2xi32=[1 2][3 5]; first difference at [1, 1]: expected "
            "4, got 5\n");
}

TEST_F(KilnRunTest, PassingChecksExitZero) {
  fb::ModuleT spec = NewModule();
  spec.constants.push_back(I32Constant({2, 2}, {1, 2, 3, 4}));
  const fb::TensorTypeT m22 = Type(fb::ElementType::I32, {2, 2});
  spec.functions.push_back(
      Function("checks", {m22}, {}, {m22},
               {Constant(0, 0), ExpectEq(0, 0, "t.mlir:3:3"), Return({0})}));
  RunResult result = Run({Write("pass.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "2x2xi32=[1 2][3 4]\n");
  EXPECT_EQ(result.err, "");
}

//===----------------------------------------------------------------------===//
// Files and output
//===----------------------------------------------------------------------===//

TEST_F(KilnRunTest, OutputIsReplacedAsAWhole) {
  // No native library: loading one writes it to a memfd, which the file
  // size limit below would refuse too.
  fb::ModuleT spec = NewModule();
  spec.constants.push_back(I32Constant({2, 2}, {1, 2, 3, 4}));
  const fb::TensorTypeT m22 = Type(fb::ElementType::I32, {2, 2});
  spec.functions.push_back(
      Function("c", {m22}, {}, {m22}, {Constant(0, 0), Return({0})}));
  const std::string module = Write("constant.kiln", BuildModule(spec));
  const std::string out = dir_ + "/out.npy";
  Write("out.npy", {'o', 'l', 'd'});
  // No file can grow (as on a full disk): the write fails, the old file
  // stays and no temporary file is left. (stderr cannot be written either;
  // output_files_test.cc checks the message.)
  RunResult result = RunInShell("trap '' XFSZ; ulimit -f 0", KILN_RUN_PATH,
                                {module, "--output=@" + out});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(ReadText(out), "old");
  std::vector<std::string> beside;
  for (const std::string& name : Names(dir_)) {
    if (name.find("out.npy") != std::string::npos) beside.push_back(name);
  }
  EXPECT_EQ(beside, std::vector<std::string>{"out.npy"});
  result = Run({module, "--output=@" + out});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  StatusOr<Tensor> written = ReadNpyFile(out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(FormatTensor(*written), "2x2xi32=[1 2][3 4]");
}

TEST_F(KilnRunTest, StdoutWriteErrorsAreErrors) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{two_functions_, "--list-functions"},
        std::vector<std::string>{one_function_, kA, kB},
        std::vector<std::string>{"--help"}}) {
    RunResult result = RunInShell("exec >/dev/full", KILN_RUN_PATH, args);
    EXPECT_EQ(result.exit_code, 1) << args[0];
    EXPECT_NE(result.err.find("cannot write to stdout"), std::string::npos)
        << result.err;
  }
}

TEST_F(KilnRunTest, ModuleStringsArePrintedEscaped) {
  fb::ModuleT spec = NewModule();
  spec.constants.push_back(I32Constant({}, {1}));
  const fb::TensorTypeT i32 = Type(fb::ElementType::I32, {});
  spec.functions.push_back(Function(
      "forged\n1 passed, 0 failed\x1b[2J", {i32}, {}, {i32},
      {Constant(0, 0), ExpectFalse(0, "t.mlir\x1b]0;x\x07:1:1"), Return({0})}));
  const std::string module = Write("names.kiln", BuildModule(spec));
  RunResult result = Run({module, "--list-functions"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "forged\\x0a1 passed, 0 failed\\x1b[2J() -> (i32)\n");
  result = Run({module});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "i32=1\n");
  EXPECT_EQ(result.err,
            "kiln-run: check failed at t.mlir\\x1b]0;x\\x07:1:1: expected "
            "zero, got i32=1\n");
  result = Run({module, "--function=nope\x1b"});
  EXPECT_EQ(result.err,
            "kiln-run: error: no function 'nope\\x1b' (available: "
            "forged\\x0a1 passed, 0 failed\\x1b[2J)\n");
}

TEST_F(KilnRunTest, DumpDispatchesWritesIntoANewDirectory) {
  const std::string dump = dir_ + "/dump";
  RunResult result = Run({one_function_, kA, kB, "--dump-dispatches=" + dump});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(Names(dump), std::vector<std::string>{"0_add_f32"});
  EXPECT_EQ(Names(dump + "/0_add_f32"),
            (std::vector<std::string>{"in0.npy", "in1.npy", "out0.npy"}));
  StatusOr<Tensor> out0 = ReadNpyFile(dump + "/0_add_f32/out0.npy");
  ASSERT_TRUE(out0.ok()) << out0.status().ToString();
  EXPECT_EQ(FormatTensor(*out0), "8xf32=100 201 302 403 504 605 706 807");
  // The directory exists now: refused before anything runs, whatever it
  // is (a directory, a symlink to one, a file).
  std::filesystem::create_directory_symlink(dump, dir_ + "/link");
  for (const std::string& existing : {dump, dir_ + "/link", one_function_}) {
    result = Run({one_function_, kA, kB, "--dump-dispatches=" + existing});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "kiln-run: error: --dump-dispatches: '" + existing +
                              "' exists; give a directory that does not "
                              "exist yet\n");
  }
  EXPECT_EQ(Names(dump), std::vector<std::string>{"0_add_f32"});
}

}  // namespace
}  // namespace kiln
