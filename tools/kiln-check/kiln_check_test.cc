//===- kiln_check_test.cc - End-to-end tests of the kiln-check tool -------===//
//
// Runs the built kiln-check binary on modules built here (with the
// hand-written test library from runtime/module/testdata) and checks its
// output and exit codes.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstring>

#include "gtest/gtest.h"
#include "kiln/status.h"
#include "module/module_test_util.h"
#include "support/run_flags.h"
#include "support/tool_test.h"

namespace kiln {
namespace {

using namespace kiln::testing;

template <typename T>
std::unique_ptr<fb::ConstantT> MakeConstant(fb::ElementType type,
                                            std::vector<int64_t> shape,
                                            const std::vector<T>& values) {
  std::vector<uint8_t> data(values.size() * sizeof(T));
  std::memcpy(data.data(), values.data(), data.size());
  return ConstantData(Type(type, std::move(shape)), std::move(data));
}

// Constants: 0 = 2x2xf32 [1 2][3 4], 1 = 2x2xf32 [1 2][3 4.00001],
// 2 = 2x2xi32 [1 2][3 4], 3 = 2x2xi32 [1 2][3 5], 4 = i32 0, 5 = i32 5.
// Executable "ex": 0 fail, 1 inc_i32, 2 less_i32.
// Functions:
//   tensor_float()   expect_almost_eq(c1, c0)                passes
//   loop()           counts to 5 with a loop, expect_eq(i, 5) passes
//   with_args(x)     skipped
//   tensor_int()     expect_eq(c2, c2), expect_eq(c3, c2)    fails once
//   error()          a dispatch that fails                   error
fb::ModuleT CheckSpec(bool with_failures) {
  fb::ModuleT spec = NewModule("e2e");
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  Executables(spec).push_back(Executable(
      "ex", 0,
      {Export("fail", 1, 1, {1, 1, 1}), Export("inc_i32", 3, 2, {1, 1, 1}),
       Export("less_i32", 4, 3, {1, 1, 1})}));
  spec.constants.push_back(MakeConstant<float>(F32, {2, 2}, {1, 2, 3, 4}));
  spec.constants.push_back(
      MakeConstant<float>(F32, {2, 2}, {1, 2, 3, 4.00001f}));
  spec.constants.push_back(MakeConstant<int32_t>(I32, {2, 2}, {1, 2, 3, 4}));
  spec.constants.push_back(MakeConstant<int32_t>(I32, {2, 2}, {1, 2, 3, 5}));
  spec.constants.push_back(MakeConstant<int32_t>(I32, {}, {0}));
  spec.constants.push_back(MakeConstant<int32_t>(I32, {}, {5}));
  const fb::TensorTypeT f22 = Type(F32, {2, 2}), i22 = Type(I32, {2, 2}),
                        i32 = Type(I32, {}), i1 = Type(I1, {}),
                        v8 = Type(F32, {8});
  spec.functions.push_back(
      Function("tensor_float", {f22, f22}, {}, {},
               {Constant(0, 0), Constant(1, 1),
                ExpectAlmostEq(1, 0, "tests/float.mlir:4:3"), Return({})}));
  spec.functions.push_back(
      Function("loop", {i32, i32, i1}, {}, {i32},
               {Constant(0, 4),                         // 0: i = 0
                Constant(1, 5),                         // 1: n = 5
                Dispatch(0, 2, {0, 1}, {2}),            // 2: i < n
                CondBranch(2, 4, 6),                    // 3
                Dispatch(0, 1, {0}, {0}),               // 4: ++i
                Branch(2),                              // 5
                ExpectEq(0, 1, "tests/loop.mlir:9:5"),  // 6
                Return({0})}));                         // 7
  spec.functions.push_back(
      Function("with_args", {i32}, {0}, {}, {ExpectTrue(0), Return({})}));
  if (with_failures) {
    spec.functions.push_back(
        Function("tensor_int", {i22, i22}, {}, {},
                 {Constant(0, 2), Constant(1, 3),
                  ExpectEq(0, 0, "tests/e2e/tosa/foo.mlir:11:3"),
                  ExpectEq(1, 0, "tests/e2e/tosa/foo.mlir:12:3"), Return({})}));
    spec.functions.push_back(
        Function("error", {v8}, {}, {}, {Dispatch(0, 0, {}, {0}), Return({})}));
  }
  return spec;
}

class KilnCheckTest : public ToolTest {
 protected:
  void SetUp() override {
    ToolTest::SetUp();
    passing_ = Write("passing.kiln", BuildModule(CheckSpec(false)));
    failing_ = Write("failing.kiln", BuildModule(CheckSpec(true)));
  }

  RunResult Run(std::vector<std::string> args) {
    return RunProgram(KILN_CHECK_PATH, std::move(args));
  }

  std::string passing_, failing_;
};

TEST_F(KilnCheckTest, Help) {
  RunResult result = Run({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("usage: kiln-check MODULE.kiln"),
            std::string::npos);
  // The flags it shares with kiln-run and kiln-benchmark, as they say.
  EXPECT_NE(result.out.find(
                tools::RunFlagsHelp(tools::kFunctionFlag | tools::kThreadsFlag |
                                    tools::kVariantFlag | tools::kPerfFlag)),
            std::string::npos);
  EXPECT_EQ(result.err, "");
}

TEST_F(KilnCheckTest, PerfLoadsTheLibraryFromAFileInKilnPerfDir) {
  RunResult result = RunInShell("export KILN_PERF_DIR=" + dir_ + "/perf",
                                KILN_CHECK_PATH, {passing_, "--perf"});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  const std::vector<std::string> files = Names(dir_ + "/perf");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].size(), 16 + 3) << files[0];  // <hash>.so
}

TEST_F(KilnCheckTest, AllPass) {
  RunResult result = Run({passing_});
  EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
  EXPECT_EQ(result.out,
            "tensor_float: PASS\n"
            "loop: PASS\n"
            "skipped: with_args (takes arguments)\n"
            "2 passed, 0 failed\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(KilnCheckTest, FailuresAreListedUnderTheirFunction) {
  RunResult result = Run({failing_, "--threads=2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "tensor_float: PASS\n"
            "loop: PASS\n"
            "skipped: with_args (takes arguments)\n"
            "tensor_int: FAIL\n"
            "  check failed at tests/e2e/tosa/foo.mlir:12:3: expected "
            "2x2xi32=[1 2][3 4], got 2x2xi32=[1 2][3 5]; first difference at "
            "[1, 1]: expected 4, got 5\n"
            "error: FAIL\n"
            "  error: function 'error' instruction 0: dispatch 'fail' failed: "
            "workgroup (0, 0, 0) returned 7\n"
            "2 passed, 2 failed\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(KilnCheckTest, OneFunction) {
  RunResult result = Run({failing_, "--function", "tensor_float"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "tensor_float: PASS\n1 passed, 0 failed\n");
  result = Run({"--function=tensor_int", failing_});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out.substr(0, 17), "tensor_int: FAIL\n");
  EXPECT_NE(result.out.find("\n0 passed, 1 failed\n"), std::string::npos);
}

TEST_F(KilnCheckTest, FunctionErrors) {
  // The checks of a code variant named as kiln-run names it.
  RunResult result = Run({failing_, "--variant=x86-64-v2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-check: error: cannot load '" + failing_ +
                "': no code variant 'x86-64-v2' (available: cpu)\n");
  result = Run({failing_, "--variant=cpu", "--function=tensor_float"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  result = Run({failing_, "--function=nope"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "kiln-check: error: no function 'nope' (available: tensor_float, "
            "loop, with_args, tensor_int, error)\n");
  result = Run({failing_, "--function=with_args"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-check: error: function 'with_args' takes arguments "
            "(with_args(i32) -> ()); kiln-check runs functions without "
            "arguments\n");
}

// A module whose functions all take arguments runs nothing: not a pass.
TEST_F(KilnCheckTest, NothingRunIsAFailure) {
  fb::ModuleT spec = CheckSpec(false);
  spec.functions.erase(spec.functions.begin(), spec.functions.begin() + 2);
  ASSERT_EQ(spec.functions[0]->name, "with_args");
  RunResult result = Run({Write("args_only.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "skipped: with_args (takes arguments)\n"
            "0 passed, 0 failed\n");
  EXPECT_EQ(result.err,
            "kiln-check: error: no function ran: every public function takes "
            "arguments\n");
}

TEST_F(KilnCheckTest, BadModulesAndFlags) {
  RunResult result = Run({dir_ + "/missing.kiln"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-check: error: cannot open '" + dir_ +
                            "/missing.kiln': No such file or directory\n");
  result = Run({Write("garbage.kiln", {1, 2, 3, 4, 5, 6, 7, 8, 9})});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("kiln-check: error: "), std::string::npos);
  EXPECT_NE(result.err.find("not a kiln module"), std::string::npos);
  // A module the verifier refuses (a branch past the end).
  fb::ModuleT spec = CheckSpec(false);
  spec.functions[1]->body[5] = Branch(99);
  result = Run({Write("bad.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("function 'loop' instruction 5: branch target 99 "
                            "out of range (8 instructions)"),
            std::string::npos)
      << result.err;
  result = Run({});
  EXPECT_EQ(result.err, "kiln-check: error: no module given (see --help)\n");
  result = Run({passing_, "--bogus"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err,
            "kiln-check: error: unknown flag '--bogus' (see --help)\n");
  result = Run({passing_, "--threads=0"});
  EXPECT_EQ(result.err,
            "kiln-check: error: --threads expects an integer in [1, 1024], "
            "got '0'\n");
  result = Run({passing_, "--function"});
  EXPECT_EQ(result.err,
            "kiln-check: error: flag '--function' expects a value\n");
  result = Run({passing_, failing_});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "kiln-check: error: more than one module given ('" +
                            passing_ + "' and '" + failing_ + "')\n");
  result = Run({passing_, "-x"});
  EXPECT_EQ(result.err, "kiln-check: error: unknown flag '-x' (see --help)\n");
  result = Run({passing_, "--help=yes"});
  EXPECT_EQ(result.err, "kiln-check: error: flag '--help' takes no value\n");
  // Flags may come before the module, with their value as the next word.
  result = Run({"--function", "tensor_float", passing_});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "tensor_float: PASS\n1 passed, 0 failed\n");
}

// A library whose dynamic section points outside its segments (its hash
// recomputed, so the module verifies as far as hashes go) is refused before
// the dynamic loader reads it.
TEST_F(KilnCheckTest, LibraryTablesOutsideTheImageAreErrorsNotCrashes) {
  fb::ModuleT spec = CheckSpec(false);
  ASSERT_TRUE(RetagDynamicEntry(&spec.libraries[0]->data, DT_STRTAB, DT_STRTAB,
                                uint64_t{1} << 40));
  RunResult result = Run({Write("strtab.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 1) << result.err;
  EXPECT_NE(result.err.find("library 0: string table at address "
                            "1099511627776"),
            std::string::npos)
      << result.err;
}

// A function's name cannot forge a line of the report, its closing line
// least of all.
TEST_F(KilnCheckTest, NamesCannotForgeLines) {
  fb::ModuleT spec = CheckSpec(true);
  spec.functions[3]->name = "tensor_int: PASS\n3 passed, 0 failed\n\x1b[8m";
  spec.functions[3]->body[3] =
      ExpectEq(1, 0, "foo.mlir:12:3\n0 failed\r\xe2\x80\xae");
  RunResult result = Run({Write("forged.kiln", BuildModule(spec))});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out,
            "tensor_float: PASS\n"
            "loop: PASS\n"
            "skipped: with_args (takes arguments)\n"
            "tensor_int: PASS\\x0a3 passed, 0 failed\\x0a\\x1b[8m: FAIL\n"
            "  check failed at foo.mlir:12:3\\x0a0 failed\\x0d\\u202e: "
            "expected 2x2xi32=[1 2][3 4], got 2x2xi32=[1 2][3 5]; first "
            "difference at [1, 1]: expected 4, got 5\n"
            "error: FAIL\n"
            "  error: function 'error' instruction 0: dispatch 'fail' failed: "
            "workgroup (0, 0, 0) returned 7\n"
            "2 passed, 2 failed\n");
}

TEST_F(KilnCheckTest, StdoutWriteErrorsAreErrors) {
  RunResult result = RunInShell("exec >/dev/full", KILN_CHECK_PATH, {passing_});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "kiln-check: error: cannot write to stdout\n");
}

}  // namespace
}  // namespace kiln
