//===- control_flow_test.cc - Branches: verification and execution --------===//
//
// Functions with BranchOp / CondBranchOp, driven by the test library's
// inc_i32 and less_i32 exports (runtime/module/testdata/test_library.c).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstring>

#include "base/allocation_counter.h"
#include "gtest/gtest.h"
#include "kiln/check.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/tensor_io.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using namespace kiln::testing;

// Executable 0 "ex": export 0 add_f32, 1 inc_i32, 2 less_i32.
constexpr uint32_t kAdd = 0, kInc = 1, kLess = 2;

// Elements of the vectors `accumulate` works on (1 MiB of f32).
constexpr int64_t kBig = 256 * 1024;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Constants: 0 = i32 0, 1 = 8xf32 1..8, 2 = 8xf32 10..80.
// Functions (slot numbers matter to the messages):
//   select(c: i1) -> 8xf32           c ? constant 1 : constant 2, one return
//   select2(c: i1) -> 8xf32          the same with a return in each arm
//   count(n: i32) -> i32             i = 0; while (i < n) i = i + 1; return i
//   accumulate(n: i32, x: kBigxf32)  acc = x; repeat n times: acc = acc + x
//   unwritten(c: i1) -> 8xf32        returns slot 1, written only if c
fb::ModuleT ControlFlowSpec() {
  fb::ModuleT spec = NewModule("cf");
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  Executables(spec).push_back(Executable(
      "ex", 0,
      {Export("add_f32", 0, 3, {4, 1, 1}), Export("inc_i32", 3, 2, {1, 1, 1}),
       Export("less_i32", 4, 3, {1, 1, 1})}));
  spec.constants.push_back(ConstantData(Type(I32, {}), Bytes<int32_t>({0})));
  spec.constants.push_back(
      ConstantData(Type(F32, {8}), Bytes<float>({1, 2, 3, 4, 5, 6, 7, 8})));
  spec.constants.push_back(ConstantData(
      Type(F32, {8}), Bytes<float>({10, 20, 30, 40, 50, 60, 70, 80})));
  const fb::TensorTypeT i1 = Type(I1, {}), i32 = Type(I32, {}),
                        v8 = Type(F32, {8}), big = Type(F32, {kBig});
  spec.functions.push_back(Function("select", {i1, v8}, {0}, {v8},
                                    {CondBranch(0, 1, 3), Constant(1, 1),
                                     Branch(4), Constant(1, 2), Return({1})}));
  spec.functions.push_back(
      Function("select2", {i1, v8}, {0}, {v8},
               {CondBranch(0, 1, 3), Constant(1, 1), Return({1}),
                Constant(1, 2), Return({1})}));
  spec.functions.push_back(
      Function("count", {i32, i32, i1}, {0}, {i32},
               {Constant(1, 0),                   // 0: i = 0
                Dispatch(0, kLess, {1, 0}, {2}),  // 1: i < n
                CondBranch(2, 3, 5),              // 2
                Dispatch(0, kInc, {1}, {1}),      // 3: i += 1
                Branch(1),                        // 4
                Return({1})}));                   // 5
  spec.functions.push_back(
      Function("accumulate", {i32, big, i32, i1, big}, {0, 1}, {big},
               {Reshape(4, 1),                    // 0: acc = x
                Constant(2, 0),                   // 1: i = 0
                Dispatch(0, kLess, {2, 0}, {3}),  // 2: i < n
                CondBranch(3, 4, 7),              // 3
                Dispatch(0, kAdd, {4, 1}, {4}),   // 4: acc += x
                Dispatch(0, kInc, {2}, {2}),      // 5: i += 1
                Branch(2),                        // 6
                Return({4})}));                   // 7
  spec.functions.push_back(
      Function("unwritten", {i1, v8}, {0}, {v8},
               {CondBranch(0, 1, 2), Constant(1, 1), Return({1})}));
  return spec;
}

Tensor Parse(std::string_view text) {
  StatusOr<Tensor> tensor = ParseTensor(text);
  EXPECT_TRUE(tensor.ok()) << tensor.status().ToString();
  return tensor.ok() ? *tensor : Tensor();
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

TEST(ControlFlowVerifyTest, GoodModulesWithLoopsLoad) {
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(ControlFlowSpec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_EQ((*module)->functions()[2].ToString(), "count(i32) -> (i32)");
}

TEST(ControlFlowVerifyTest, BranchTargetsInRange) {
  fb::ModuleT spec = ControlFlowSpec();
  spec.functions[0]->body[2] = Branch(5);
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 2: branch target 5 out of range (5 "
            "instructions)");
  spec = ControlFlowSpec();
  spec.functions[0]->body[0] = CondBranch(0, 7, 3);
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 0: true target 7 out of range (5 "
            "instructions)");
  spec = ControlFlowSpec();
  spec.functions[0]->body[0] = CondBranch(0, 1, 5);
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 0: false target 5 out of range (5 "
            "instructions)");
  // The last valid target is fine.
  spec = ControlFlowSpec();
  spec.functions[0]->body[0] = CondBranch(0, 4, 4);
  spec.functions[0]->body[2] = Branch(4);
  EXPECT_TRUE(LoadSpec(spec).ok());
}

TEST(ControlFlowVerifyTest, ConditionMustBeA0dI1) {
  fb::ModuleT spec = ControlFlowSpec();
  *spec.functions[0]->slot_types[0] = Type(I32, {});
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 0: condition slot 0 has type i32 "
            "but must be a 0-d i1 tensor");
  spec = ControlFlowSpec();
  *spec.functions[0]->slot_types[0] = Type(I1, {1});
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 0: condition slot 0 has type 1xi1 "
            "but must be a 0-d i1 tensor");
  spec = ControlFlowSpec();
  spec.functions[0]->body[0] = CondBranch(2, 1, 3);
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 0: condition slot 2 out of range (2 "
            "slots)");
}

TEST(ControlFlowVerifyTest, BodyCannotFallOffItsEnd) {
  fb::ModuleT spec = ControlFlowSpec();
  // select: the else arm runs into the end.
  spec.functions[0]->body.back() = Release({1});
  EXPECT_EQ(LoadError(spec),
            "function 'select': execution can fall off the end of the body "
            "(instruction 4 is a ReleaseOp; the last instruction must be a "
            "return or a branch)");
  spec = ControlFlowSpec();
  spec.functions[0]->body[4] = Constant(1, 1);
  spec.functions[0]->body[2] = Branch(3);
  EXPECT_EQ(LoadError(spec),
            "function 'select': execution can fall off the end of the body "
            "(instruction 4 is a ConstantOp; the last instruction must be a "
            "return or a branch)");
  // Ending in a branch (back to a return) cannot fall off.
  spec = ControlFlowSpec();
  spec.functions[0]->body = {Branch(2), Return({1}), Constant(1, 1), Branch(1)};
  EXPECT_TRUE(LoadSpec(spec).ok());
  // Nor can ending in a conditional branch: both targets are in range.
  spec = ControlFlowSpec();
  spec.functions[0]->body = {Branch(3), Constant(1, 1), Return({1}),
                             CondBranch(0, 1, 1)};
  EXPECT_TRUE(LoadSpec(spec).ok());
}

// A cycle that no condition leads out of would never end: refused at load.
TEST(ControlFlowVerifyTest, EndlessLoopsAreRefused) {
  fb::ModuleT spec = ControlFlowSpec();
  spec.functions[0]->body = {Branch(0), Return({1})};
  EXPECT_EQ(LoadError(spec),
            "function 'select': instruction 0 branches to itself: an endless "
            "loop");
  spec = ControlFlowSpec();
  spec.functions[0]->body = {CondBranch(0, 1, 4), Constant(1, 1), Release({1}),
                             Branch(1), Return({1})};
  EXPECT_EQ(LoadError(spec),
            "function 'select': instruction 3 leads back to instruction 1 "
            "with no conditional branch or return in between: an endless "
            "loop");
  // Straight-line code falling into a backward branch's target.
  spec = ControlFlowSpec();
  spec.functions[0]->body = {Branch(2), Return({1}), Constant(1, 1), Branch(2)};
  EXPECT_EQ(LoadError(spec),
            "function 'select': instruction 3 leads back to instruction 2 "
            "with no conditional branch or return in between: an endless "
            "loop");
  // A loop through a conditional branch is the program's business.
  EXPECT_TRUE(LoadSpec(ControlFlowSpec()).ok());
}

TEST(ControlFlowVerifyTest, SlotsMayBeWrittenAgainAndReadOnAnyPath) {
  // With branches, the linear "written once" and "defined before read"
  // rules no longer apply (reads are checked when they run).
  fb::ModuleT spec = ControlFlowSpec();
  EXPECT_TRUE(LoadSpec(spec).ok());
  // The same body without the branch (a straight line) keeps every rule.
  spec.functions[0]->body = {Constant(1, 1), Constant(1, 2), Return({1})};
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 1: result slot 1 is written more "
            "than once");
  spec = ControlFlowSpec();
  spec.functions[4]->body = {Return({1})};
  EXPECT_EQ(LoadError(spec),
            "function 'unwritten' instruction 0: returned slot 1 is read "
            "before it is written");
  // Types, indices and distinct argument slots are still checked.
  spec = ControlFlowSpec();
  spec.functions[2]->body[3] = Dispatch(0, kInc, {1}, {7});
  EXPECT_EQ(LoadError(spec),
            "function 'count' instruction 3: result slot 7 out of range (3 "
            "slots)");
  spec = ControlFlowSpec();
  spec.functions[0]->body[3] = Constant(1, 0);
  EXPECT_EQ(LoadError(spec),
            "function 'select' instruction 3: slot 1 has type 8xf32 but "
            "constant 0 is i32");
  spec = ControlFlowSpec();
  spec.functions[3]->arguments = {0, 0};
  EXPECT_EQ(LoadError(spec),
            "function 'accumulate' argument 1: argument slot 0 is written "
            "more than once");
  // A return may sit anywhere with branches, not only at the end.
  spec = ControlFlowSpec();
  EXPECT_EQ(spec.functions[1]->body[2].type, fb::Op::ReturnOp);
  EXPECT_TRUE(LoadSpec(spec).ok());
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

class ControlFlowRunTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    StatusOr<std::shared_ptr<const Module>> module =
        LoadSpec(ControlFlowSpec());
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    module_ = *module;
    pool_ = std::make_unique<ThreadPool>(GetParam());
    context_ = std::make_unique<Context>(module_, pool_.get());
  }

  // Calls `function` and returns its only result as text, or the error.
  std::string Run(std::string_view function, std::vector<Tensor> inputs) {
    return CallForText(*context_, function, inputs);
  }

  std::shared_ptr<const Module> module_;
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<Context> context_;
};

TEST_P(ControlFlowRunTest, IfElseChoosesByCondition) {
  for (const char* function : {"select", "select2"}) {
    SCOPED_TRACE(function);
    EXPECT_EQ(Run(function, {Parse("i1=1")}), "8xf32=1 2 3 4 5 6 7 8");
    EXPECT_EQ(Run(function, {Parse("i1=0")}), "8xf32=10 20 30 40 50 60 70 80");
    EXPECT_EQ(Run(function, {Parse("i1=true")}), "8xf32=1 2 3 4 5 6 7 8");
  }
}

TEST_P(ControlFlowRunTest, CountedLoop) {
  for (int n : {0, 1, 2, 7, 1000}) {
    EXPECT_EQ(Run("count", {Parse(StrCat("i32=", n))}), StrCat("i32=", n));
  }
  // A negative bound never enters the loop.
  EXPECT_EQ(Run("count", {Parse("i32=-5")}), "i32=0");
}

TEST_P(ControlFlowRunTest, LoopCarriedValues) {
  // acc = x + n * x; the result never aliases the input, even for n = 0.
  Tensor x = Parse(StrCat(kBig, "xf32=1.5"));
  for (int n : {0, 1, 3}) {
    std::vector<Tensor> outputs;
    Status status =
        context_->Call("accumulate", {Parse(StrCat("i32=", n)), x}, &outputs);
    ASSERT_TRUE(status.ok()) << status.ToString();
    ASSERT_EQ(outputs.size(), 1u);
    EXPECT_FALSE(outputs[0].SharesStorageWith(x));
    const float* values = outputs[0].data_as<float>();
    EXPECT_EQ(values[0], 1.5f * (n + 1));
    EXPECT_EQ(values[kBig - 1], 1.5f * (n + 1));
  }
  EXPECT_EQ(x.data_as<float>()[0], 1.5f);
}

TEST_P(ControlFlowRunTest, ReadingAnUnwrittenSlotIsAnError) {
  EXPECT_EQ(Run("unwritten", {Parse("i1=1")}), "8xf32=1 2 3 4 5 6 7 8");
  EXPECT_EQ(Run("unwritten", {Parse("i1=0")}),
            "error: function 'unwritten' instruction 2: slot 1 read before it "
            "was written");
  std::vector<Tensor> outputs;
  Status status = context_->Call("unwritten", {Parse("i1=0")}, &outputs);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(outputs.empty());
  // The context stays usable.
  EXPECT_EQ(Run("unwritten", {Parse("i1=1")}), "8xf32=1 2 3 4 5 6 7 8");
}

// Every instruction that reads a slot checks it.
TEST(ControlFlowUnwrittenTest, EveryReadIsChecked) {
  const fb::TensorTypeT i1 = Type(I1, {}), v8 = Type(F32, {8}),
                        m24 = Type(F32, {2, 4});
  struct Case {
    std::vector<fb::TensorTypeT> slots;
    std::vector<fb::OpUnion> body;
    std::string error;
  };
  // Slot 0 is the argument (false); slot 1 is only written when it is true.
  const std::vector<Case> cases = {
      {{i1, v8, v8},
       {CondBranch(0, 1, 2), Constant(1, 1), Dispatch(0, kAdd, {1, 1}, {2}),
        Return({2})},
       "function 'f' instruction 2: slot 1 read before it was written"},
      {{i1, v8, m24, v8},
       {CondBranch(0, 1, 2), Constant(1, 1), Reshape(2, 1), Constant(3, 1),
        Return({3})},
       "function 'f' instruction 2: slot 1 read before it was written"},
      {{i1, v8, i1, v8},
       {CondBranch(0, 1, 2), Constant(1, 1), CondBranch(2, 3, 3),
        Constant(3, 1), Return({3})},
       "function 'f' instruction 2: slot 2 read before it was written"},
      {{i1, v8, v8},
       {CondBranch(0, 1, 2), Constant(1, 1), ExpectEq(1, 1), Constant(2, 1),
        Return({2})},
       "function 'f' instruction 2: slot 1 read before it was written"},
      // A released slot holds nothing either.
      {{i1, v8},
       {Constant(1, 1), Release({1}), CondBranch(0, 3, 3), Return({1})},
       "function 'f' instruction 3: slot 1 read before it was written"},
  };
  for (const Case& c : cases) {
    fb::ModuleT spec = ControlFlowSpec();
    spec.functions.clear();
    spec.functions.push_back(Function("f", c.slots, {0}, {v8}, c.body));
    StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    ThreadPool pool(1);
    Context context(*module, &pool);
    CheckRecorder checks;  // for the case with a check
    context.SetCheckHandler(&checks);
    std::vector<Tensor> outputs;
    Status status = context.Call("f", {Parse("i1=0")}, &outputs);
    EXPECT_EQ(status.message(), c.error);
  }
}

// With branches the verifier cannot tell what a buffer holds when a slot is
// read: the Context checks every read and every dispatch as it runs.
// f(c: i1, x: 8xf32) -> 8xf32 puts x + x into buffer 0, then, only when c
// holds, a second value into the same buffer, and reads the first again.
TEST(ControlFlowBufferTest, BuffersAreCheckedAsTheFunctionRuns) {
  const fb::TensorTypeT i1 = Type(I1, {}), v8 = Type(F32, {8});
  struct Case {
    std::vector<fb::OpUnion> body;
    std::string error;
  };
  const std::vector<Case> cases = {
      // Slot 2 is read after its buffer was written again.
      {{DispatchInto(0, kAdd, {1, 1}, {2}, {0}), CondBranch(0, 2, 4),
        DispatchInto(0, kAdd, {1, 1}, {3}, {0}), Branch(4),
        Dispatch(0, kAdd, {2, 1}, {4}), Return({4})},
       "function 'f' instruction 4: slot 2 read after buffer 0, which it "
       "views, was written again: two values live at once share a buffer"},
      // The dispatch would write the buffer its operand is in.
      {{DispatchInto(0, kAdd, {1, 1}, {2}, {0}), CondBranch(0, 2, 4),
        DispatchInto(0, kAdd, {2, 1}, {3}, {0}), Return({3}), Return({2})},
       "function 'f' instruction 2: operand 0 (slot 2) is in buffer 0, which "
       "result 0 is written into"},
  };
  for (const Case& c : cases) {
    fb::ModuleT spec = ControlFlowSpec();
    spec.functions.clear();
    spec.functions.push_back(
        Function("f", {i1, v8, v8, v8, v8}, {0, 1}, {v8}, c.body, {32}));
    StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    ThreadPool pool(1);
    Context context(*module, &pool);
    std::vector<Tensor> outputs;
    Tensor x = Parse("8xf32=1,2,3,4,5,6,7,8");
    // Not taken: what the first value's buffer holds is still its own.
    Status status = context.Call("f", {Parse("i1=0"), x}, &outputs);
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(outputs[0].data_as<float>()[7],
              c.body.size() == 6 ? 24.0f : 16.0f);
    status = context.Call("f", {Parse("i1=1"), x}, &outputs);
    EXPECT_EQ(status.message(), c.error);
  }
}

// A loop whose condition goes into a buffer each iteration (as kiln-compile
// plans it) and whose counter, carried around the loop, into new storage:
// the buffer is allocated once per Context, each iteration then allocates
// only the counter.
TEST(ControlFlowBufferTest, LoopConditionsReuseOneBuffer) {
  const fb::TensorTypeT i1 = Type(I1, {}), i32 = Type(I32, {});
  fb::ModuleT spec = ControlFlowSpec();
  spec.functions.clear();
  spec.functions.push_back(
      Function("count", {i32, i32, i1}, {0}, {i32},
               {Constant(1, 0), DispatchInto(0, kLess, {1, 0}, {2}, {0}),
                CondBranch(2, 3, 5), Dispatch(0, kInc, {1}, {1}), Branch(1),
                Return({1})},
               {1}));
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  struct Counting : Allocator {
    void* Allocate(uint64_t byte_size) override {
      ++allocations;
      return Allocator::Default()->Allocate(byte_size);
    }
    void Free(void* data, uint64_t byte_size) override {
      Allocator::Default()->Free(data, byte_size);
    }
    int allocations = 0;
  };
  auto allocator = std::make_shared<Counting>();
  ThreadPool pool(1);
  Context context(*module, &pool, allocator);
  std::vector<Tensor> outputs;
  for (int call = 0; call < 2; ++call) {
    Status status = context.Call("count", {Parse("i32=5")}, &outputs);
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(outputs[0].data_as<int32_t>()[0], 5);
  }
  // The buffer once, 5 counters per call.
  EXPECT_EQ(allocator->allocations, 1 + 2 * 5);
}

// Replacing a loop-carried value frees the old one: a loop of n iterations
// over 1 MiB values holds about two of them at any time, not n. (1 MiB is
// below the size from which tensors get their own mapping, which mallinfo2
// would not see.)
TEST_P(ControlFlowRunTest, LoopCarriedValuesAreFreedAsTheyAreReplaced) {
  if (!kHeapStatsAreReliable) {
    GTEST_SKIP() << "the sanitizer's allocator does not report glibc heap use";
  }
  constexpr int kIterations = 48;
  constexpr int64_t kValueBytes = kBig * sizeof(float);
  Tensor x = Parse(StrCat(kBig, "xf32=1"));
  Tensor n = Parse(StrCat("i32=", kIterations));
  int64_t peak = 0;
  int dispatches = 0;
  context_->SetDispatchObserver(
      [&](const ExportView&, const std::vector<Tensor>&, size_t,
          const std::vector<int64_t>&) {
        peak = std::max(peak, HeapBytesInUse());
        ++dispatches;
        return OkStatus();
      });
  const int64_t before = HeapBytesInUse();
  std::vector<Tensor> outputs;
  Status status = context_->Call("accumulate", {n, x}, &outputs);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(dispatches, 3 * kIterations + 1);
  EXPECT_EQ(outputs[0].data_as<float>()[0], kIterations + 1.0f);
  // x, the accumulator and the next one: leaking would keep ~48 MiB.
  EXPECT_LT(peak - before, 4 * kValueBytes)
      << "peak heap use grew by " << (peak - before) << " bytes";
  outputs.clear();
  EXPECT_LT(HeapBytesInUse() - before, kValueBytes / 2);
}

// A dispatch observer sees each binding as the kernel read and wrote it:
// the loop-carried accumulator (`acc = acc + x`, one slot both operand and
// result) as its input, not as the result that replaces it.
TEST_P(ControlFlowRunTest, ObserverSeesLoopCarriedOperandsAsTheKernelReadThem) {
  Tensor x = Parse(StrCat(kBig, "xf32=1.5"));
  std::vector<std::pair<float, float>> adds;  // (acc in, acc out)
  context_->SetDispatchObserver([&](const ExportView& view,
                                    const std::vector<Tensor>& bindings,
                                    size_t operand_count,
                                    const std::vector<int64_t>&) {
    if (view.name() == "add_f32") {
      EXPECT_EQ(operand_count, 2u);
      adds.emplace_back(bindings[0].data_as<float>()[0],
                        bindings[2].data_as<float>()[0]);
    }
    return OkStatus();
  });
  std::vector<Tensor> outputs;
  Status status = context_->Call("accumulate", {Parse("i32=3"), x}, &outputs);
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(adds.size(), 3u);
  for (size_t i = 0; i < adds.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(adds[i].first, 1.5f * (i + 1));
    EXPECT_EQ(adds[i].second, 1.5f * (i + 2));
  }
}

INSTANTIATE_TEST_SUITE_P(Threads, ControlFlowRunTest, ::testing::Values(1, 3));

}  // namespace
}  // namespace kiln
