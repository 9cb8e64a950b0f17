//===- check_test.cc - CheckOp: verification, semantics and messages ------===//

#include "kiln/check.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <tuple>

#include "gtest/gtest.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/tensor_io.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using namespace kiln::testing;

Tensor Parse(std::string_view text) {
  StatusOr<Tensor> tensor = ParseTensor(text);
  EXPECT_TRUE(tensor.ok()) << text << ": " << tensor.status().ToString();
  return tensor.ok() ? *tensor : Tensor();
}

// Builds a module whose function "checks" binds constants to slots and runs
// checks on them. The executable "ex" has inc_i32 (export 0) and less_i32
// (export 1) for loops.
class CheckModuleBuilder {
 public:
  CheckModuleBuilder() {
    spec_.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
    Executables(spec_).push_back(
        Executable("ex", 0,
                   {Export("inc_i32", 3, 2, {1, 1, 1}),
                    Export("less_i32", 4, 3, {1, 1, 1})}));
    spec_.functions.push_back(Function("checks", {}, {}, {}, {}));
  }

  fb::FunctionT& function() { return *spec_.functions[0]; }

  // A new slot of `type` (written by nothing yet).
  uint32_t Slot(fb::TensorTypeT type) {
    function().slot_types.push_back(
        std::make_unique<fb::TensorTypeT>(std::move(type)));
    return static_cast<uint32_t>(function().slot_types.size() - 1);
  }

  // A slot holding the value `text` (kiln-run syntax), bound by a ConstantOp
  // appended to the body.
  uint32_t Value(std::string_view text) {
    Tensor tensor = Parse(text);
    const fb::TensorTypeT type = Type(
        static_cast<fb::ElementType>(tensor.element_type()), tensor.shape());
    const auto* bytes = tensor.data_as<uint8_t>();
    spec_.constants.push_back(ConstantData(
        type, std::vector<uint8_t>(bytes, bytes + tensor.byte_size())));
    const uint32_t slot = Slot(type);
    Add(Constant(slot, static_cast<uint32_t>(spec_.constants.size() - 1)));
    return slot;
  }

  uint32_t Add(fb::OpUnion op) {
    function().body.push_back(std::move(op));
    return static_cast<uint32_t>(function().body.size() - 1);
  }

  const fb::ModuleT& spec() const { return spec_; }

 private:
  fb::ModuleT spec_ = NewModule("checks");
};

// Runs one check of `kind` on lhs (and rhs) through a module and returns
// "PASS" or the failure's message.
std::string RunCheck(fb::CheckKind kind, std::string_view lhs,
                     std::string_view rhs = "", float atol = 0.0001f,
                     float rtol = 0.0f) {
  CheckModuleBuilder builder;
  const uint32_t l = builder.Value(lhs);
  const uint32_t r = rhs.empty() ? 0 : builder.Value(rhs);
  fb::OpUnion check = Check(kind, l, r, "test.mlir:1:1");
  check.AsCheckOp()->atol = atol;
  check.AsCheckOp()->rtol = rtol;
  builder.Add(check);
  builder.Add(Return({}));
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(builder.spec());
  if (!module.ok()) return "load error: " + module.status().message();
  ThreadPool pool(1);
  Context context(*module, &pool);
  CheckRecorder checks;
  context.SetCheckHandler(&checks);
  std::vector<Tensor> outputs;
  Status status = context.Call("checks", {}, &outputs);
  if (!status.ok()) return "call error: " + status.message();
  if (checks.failures().empty()) return "PASS";
  EXPECT_EQ(checks.failures().size(), 1u);
  return checks.failures()[0].message;
}

//===----------------------------------------------------------------------===//
// Each kind, passing and failing
//===----------------------------------------------------------------------===//

TEST(CheckTest, ExpectTrue) {
  using fb::CheckKind;
  EXPECT_EQ(RunCheck(CheckKind::True, "i1=1"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::True, "i32=-7"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::True, "i64=4294967296"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::True, "i1=0"),
            "expected a nonzero value, got i1=0");
  EXPECT_EQ(RunCheck(CheckKind::True, "i32=0"),
            "expected a nonzero value, got i32=0");
}

TEST(CheckTest, ExpectFalse) {
  using fb::CheckKind;
  EXPECT_EQ(RunCheck(CheckKind::False, "i1=0"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::False, "i8=0"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::False, "i1=1"), "expected zero, got i1=1");
  EXPECT_EQ(RunCheck(CheckKind::False, "i16=3"), "expected zero, got i16=3");
}

TEST(CheckTest, ExpectAllTrue) {
  using fb::CheckKind;
  EXPECT_EQ(RunCheck(CheckKind::AllTrue, "4xi1=1 1 1 1"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::AllTrue, "2x2xi32=[1 -2][3 9]"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::AllTrue, "0xi1"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::AllTrue, "2x2xi1=[1 1][0 1]"),
            "expected all elements nonzero, got 2x2xi1=[1 1][0 1]; first "
            "zero at [1, 0]");
  EXPECT_EQ(RunCheck(CheckKind::AllTrue, "i32=0"),
            "expected all elements nonzero, got i32=0");
}

TEST(CheckTest, ExpectEq) {
  using fb::CheckKind;
  EXPECT_EQ(
      RunCheck(CheckKind::Equal, "2x2xi32=[1 2][3 4]", "2x2xi32=[1 2][3 4]"),
      "PASS");
  // lhs is what the program computed, rhs what the test expects.
  EXPECT_EQ(
      RunCheck(CheckKind::Equal, "2x2xi32=[1 2][3 5]", "2x2xi32=[1 2][3 4]"),
      "expected 2x2xi32=[1 2][3 4], got 2x2xi32=[1 2][3 5]; first "
      "difference at [1, 1]: expected 4, got 5");
  EXPECT_EQ(RunCheck(CheckKind::Equal, "2x3xf32=[1 2 3][4 5 6]",
                     "2x3xf32=[1 2 3][4 5.5 6.5]"),
            "expected 2x3xf32=[1 2 3][4 5.5 6.5], got 2x3xf32=[1 2 3][4 5 6]; "
            "first difference at [1, 1]: expected 5.5, got 5");
  EXPECT_EQ(RunCheck(CheckKind::Equal, "i32=3", "i32=4"),
            "expected i32=4, got i32=3");
  EXPECT_EQ(RunCheck(CheckKind::Equal, "3xi1=1 0 1", "3xi1=1 1 1"),
            "expected 3xi1=1 1 1, got 3xi1=1 0 1; first difference at [1]: "
            "expected 1, got 0");
  // Bytewise: equal NaNs are equal, 0 and -0 are not.
  EXPECT_EQ(RunCheck(CheckKind::Equal, "2xf32=nan 1", "2xf32=nan 1"), "PASS");
  EXPECT_EQ(RunCheck(CheckKind::Equal, "f32=-0", "f32=0"),
            "expected f32=0, got f32=-0");
}

TEST(CheckTest, ExpectAlmostEq) {
  using fb::CheckKind;
  EXPECT_EQ(
      RunCheck(CheckKind::AlmostEqual, "4xf32=1 2.00001 3 4", "4xf32=1 2 3 4"),
      "PASS");
  EXPECT_EQ(
      RunCheck(CheckKind::AlmostEqual, "4xf32=1 2.5 3 4.25", "4xf32=1 2 3 4"),
      "expected 4xf32=1 2 3 4, got 4xf32=1 2.5 3 4.25; first difference "
      "at [1]: expected 2, got 2.5; max absolute difference 0.5 (atol "
      "0.0001, rtol 0)");
  // |lhs - rhs| <= atol + rtol * |rhs|, with rhs the expected value.
  EXPECT_EQ(
      RunCheck(CheckKind::AlmostEqual, "2xf32=1 2.5", "2xf32=1 2", 0.0f, 0.25f),
      "PASS");
  EXPECT_EQ(
      RunCheck(CheckKind::AlmostEqual, "2xf32=1 2", "2xf32=1 2.5", 0.0f, 0.19f),
      "expected 2xf32=1 2.5, got 2xf32=1 2; first difference at [1]: "
      "expected 2.5, got 2; max absolute difference 0.5 (atol 0, rtol "
      "0.19)");
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "2xf32=1 2.5", "2xf32=1 2", 0.5f),
            "PASS");
  // NaN matches NaN only; an infinity matches only itself.
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "3xf32=nan inf -inf",
                     "3xf32=nan inf -inf"),
            "PASS");
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "2xf32=1 nan", "2xf32=1 1"),
            "expected 2xf32=1 1, got 2xf32=1 nan; first difference at [1]: "
            "expected 1, got nan; max absolute difference nan (atol 0.0001, "
            "rtol 0)");
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "f32=inf", "f32=3e38", 1.0f, 1.0f),
            "expected f32=3e+38, got f32=inf; max absolute difference inf "
            "(atol 1, rtol 1)");
  // f16, bf16 and f64 compare as doubles.
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "2xf16=1 1.5", "2xf16=1 1"),
            "expected 2xf16=1 1, got 2xf16=1 1.5; first difference at [1]: "
            "expected 1, got 1.5; max absolute difference 0.5 (atol 0.0001, "
            "rtol 0)");
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "2xbf16=1 2", "2xbf16=1 2"),
            "PASS");
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "f64=0.1", "f64=0.3"),
            "expected f64=0.3, got f64=0.1; max absolute difference "
            "0.19999999999999998 (atol 0.0001, rtol 0)");
  EXPECT_EQ(RunCheck(CheckKind::AlmostEqual, "f32=1", "f32=1.5", 1e-5f),
            "expected f32=1.5, got f32=1; max absolute difference 0.5 (atol "
            "1e-05, rtol 0)");
}

TEST(CheckTest, BigTensorsAreCutAfter32Elements) {
  std::string got = "100xi32=", expected = "100xi32=";
  for (int i = 0; i < 100; ++i) {
    got += StrCat(i, " ");
    expected += StrCat(i == 99 ? -1 : i, " ");
  }
  std::string prefix;
  for (int i = 0; i < 32; ++i) prefix += StrCat(i, i < 31 ? " " : "");
  EXPECT_EQ(RunCheck(fb::CheckKind::Equal, got, expected),
            StrCat("expected 100xi32=", prefix, "..., got 100xi32=", prefix,
                   "...; first difference at [99]: expected -1, got 99"));
}

TEST(CheckTest, FormatIndex) {
  EXPECT_EQ(FormatIndex({}, 0), "[]");
  EXPECT_EQ(FormatIndex({5}, 3), "[3]");
  EXPECT_EQ(FormatIndex({2, 3, 4}, 23), "[1, 2, 3]");
  EXPECT_EQ(FormatIndex({2, 3, 4}, 4), "[0, 1, 0]");
}

//===----------------------------------------------------------------------===//
// Failures are recorded, not fatal
//===----------------------------------------------------------------------===//

TEST(CheckTest, FailuresAreRecordedAndTheFunctionGoesOn) {
  CheckModuleBuilder builder;
  const uint32_t t = builder.Value("i1=1");
  const uint32_t a = builder.Value("2x2xi32=[1 2][3 4]");
  const uint32_t b = builder.Value("2x2xi32=[1 2][3 5]");
  const uint32_t first = builder.Add(ExpectFalse(t, "f.mlir:3:5"));
  builder.Add(ExpectEq(a, a, "f.mlir:4:5"));  // passes
  const uint32_t second = builder.Add(ExpectEq(b, a, ""));
  builder.Add(Return({b}));
  builder.function().result_types = Owned({Type(I32, {2, 2})});
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(builder.spec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(1);
  Context context(*module, &pool);
  CheckRecorder checks;
  context.SetCheckHandler(&checks);
  std::vector<Tensor> outputs;
  Status status = context.Call("checks", {}, &outputs);
  ASSERT_TRUE(status.ok()) << status.ToString();
  // The results are still returned.
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(FormatTensor(outputs[0]), "2x2xi32=[1 2][3 5]");

  const std::vector<CheckFailure>& failures = checks.failures();
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(checks.failure_count(), 2u);
  EXPECT_EQ(failures[0].function, "checks");
  EXPECT_EQ(failures[0].instruction, first);
  EXPECT_EQ(failures[0].kind, CheckKind::kFalse);
  EXPECT_EQ(failures[0].location, "f.mlir:3:5");
  EXPECT_EQ(failures[0].message, "expected zero, got i1=1");
  EXPECT_EQ(failures[0].ToString(),
            "check failed at f.mlir:3:5: expected zero, got i1=1");
  EXPECT_EQ(failures[1].kind, CheckKind::kEqual);
  EXPECT_EQ(failures[1].location, "");
  EXPECT_EQ(failures[1].ToString(),
            StrCat("check failed at function 'checks' instruction ", second,
                   ": expected 2x2xi32=[1 2][3 4], got 2x2xi32=[1 2][3 5]; "
                   "first difference at [1, 1]: expected 4, got 5"));
  EXPECT_EQ(CheckKindName(failures[1].kind), "expect_eq");

  // Failures accumulate across calls until cleared.
  ASSERT_TRUE(context.Call("checks", {}, &outputs).ok());
  EXPECT_EQ(checks.failures().size(), 4u);
  checks.Clear();
  EXPECT_TRUE(checks.failures().empty());
  EXPECT_EQ(checks.failure_count(), 0u);
  ASSERT_TRUE(context.Call("checks", {}, &outputs).ok());
  EXPECT_EQ(checks.failures().size(), 2u);
}

TEST(CheckTest, FailuresInALoopAreCountedBeyondTheRecordingLimit) {
  // for (i = 0; i < n; ++i) expect_true(false): n failures.
  CheckModuleBuilder builder;
  const uint32_t n = builder.Slot(Type(I32, {}));
  builder.function().arguments = {n};
  const uint32_t i = builder.Value("i32=0");  // 0
  const uint32_t f = builder.Value("i1=0");   // 1
  const uint32_t c = builder.Slot(Type(I1, {}));
  builder.Add(Dispatch(0, 1, {i, n}, {c}));     // 2: c = i < n
  builder.Add(CondBranch(c, 4, 7));             // 3
  builder.Add(ExpectTrue(f, "loop.mlir:2:3"));  // 4
  builder.Add(Dispatch(0, 0, {i}, {i}));        // 5: ++i
  builder.Add(Branch(2));                       // 6
  builder.Add(Return({}));                      // 7
  StatusOr<std::shared_ptr<const Module>> module = LoadSpec(builder.spec());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ThreadPool pool(1);
  Context context(*module, &pool);
  CheckRecorder checks;
  context.SetCheckHandler(&checks);
  std::vector<Tensor> outputs;
  const size_t count = CheckRecorder::kMaxRecordedFailures + 500;
  ASSERT_TRUE(
      context.Call("checks", {Parse(StrCat("i32=", count))}, &outputs).ok());
  EXPECT_EQ(checks.failures().size(), CheckRecorder::kMaxRecordedFailures);
  EXPECT_EQ(checks.failure_count(), count);
  EXPECT_EQ(checks.failures().back().location, "loop.mlir:2:3");
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

// A module whose function checks slots of these types: slot 0 is lhs, slot
// 1 is rhs (both arguments, so nothing needs a constant).
fb::ModuleT CheckSpec(fb::TensorTypeT lhs, fb::TensorTypeT rhs,
                      fb::OpUnion check) {
  fb::ModuleT spec = NewModule();
  spec.functions.push_back(Function("f", {std::move(lhs), std::move(rhs)},
                                    {0, 1}, {}, {check, Return({})}));
  return spec;
}

TEST(CheckVerifyTest, OperandTypes) {
  const fb::TensorTypeT i1 = Type(I1, {}), i32 = Type(I32, {}),
                        f32 = Type(F32, {}), v4i1 = Type(I1, {4}),
                        v4i32 = Type(I32, {4}), v4f32 = Type(F32, {4}),
                        m22f32 = Type(F32, {2, 2}),
                        v4f16 = Type(fb::ElementType::F16, {4}),
                        v4bf16 = Type(fb::ElementType::BF16, {4}),
                        v4f64 = Type(fb::ElementType::F64, {4}),
                        i64 = Type(fb::ElementType::I64, {});
  // Good combinations.
  for (const fb::ModuleT& spec :
       {CheckSpec(i1, i1, ExpectTrue(0)), CheckSpec(i64, i1, ExpectTrue(0)),
        CheckSpec(i32, f32, ExpectFalse(0)),
        CheckSpec(v4i1, f32, ExpectAllTrue(0)),
        CheckSpec(i32, f32, ExpectAllTrue(0)),
        CheckSpec(v4f32, v4f32, ExpectEq(0, 1)),
        CheckSpec(v4i32, v4i32, ExpectEq(0, 1)),
        CheckSpec(v4f32, v4f32, ExpectAlmostEq(0, 1)),
        CheckSpec(v4f16, v4f16, ExpectAlmostEq(0, 1)),
        CheckSpec(v4bf16, v4bf16, ExpectAlmostEq(0, 1)),
        CheckSpec(v4f64, v4f64, ExpectAlmostEq(0, 1))}) {
    StatusOr<std::shared_ptr<const Module>> module = LoadSpec(spec);
    EXPECT_TRUE(module.ok()) << module.status().ToString();
  }
  EXPECT_EQ(LoadError(CheckSpec(v4i32, i1, ExpectTrue(0))),
            "function 'f' instruction 0: check expect_true: lhs slot 0 has "
            "type 4xi32 but must be a 0-d integer tensor (i1 to i64)");
  EXPECT_EQ(LoadError(CheckSpec(f32, i1, ExpectFalse(0))),
            "function 'f' instruction 0: check expect_false: lhs slot 0 has "
            "type f32 but must be a 0-d integer tensor (i1 to i64)");
  EXPECT_EQ(LoadError(CheckSpec(v4f32, i1, ExpectAllTrue(0))),
            "function 'f' instruction 0: check expect_all_true: lhs slot 0 "
            "has type 4xf32 but must be an integer tensor (i1 to i64)");
  EXPECT_EQ(LoadError(CheckSpec(v4f32, m22f32, ExpectEq(0, 1))),
            "function 'f' instruction 0: check expect_eq: lhs slot 0 has type "
            "4xf32 but rhs slot 1 has type 2x2xf32 (they must match)");
  EXPECT_EQ(LoadError(CheckSpec(v4f32, v4i32, ExpectEq(0, 1))),
            "function 'f' instruction 0: check expect_eq: lhs slot 0 has type "
            "4xf32 but rhs slot 1 has type 4xi32 (they must match)");
  EXPECT_EQ(LoadError(CheckSpec(v4f32, v4f16, ExpectAlmostEq(0, 1))),
            "function 'f' instruction 0: check expect_almost_eq: lhs slot 0 "
            "has type 4xf32 but rhs slot 1 has type 4xf16 (they must match)");
  EXPECT_EQ(LoadError(CheckSpec(v4i32, v4i32, ExpectAlmostEq(0, 1))),
            "function 'f' instruction 0: check expect_almost_eq: operands "
            "have type 4xi32 but must be float tensors (f16, bf16, f32 or "
            "f64)");
}

TEST(CheckVerifyTest, IndicesKindTolerancesAndLocation) {
  const fb::TensorTypeT v4f32 = Type(F32, {4});
  EXPECT_EQ(LoadError(CheckSpec(v4f32, v4f32, ExpectEq(2, 1))),
            "function 'f' instruction 0: check expect_eq: lhs slot 2 out of "
            "range (2 slots)");
  EXPECT_EQ(LoadError(CheckSpec(v4f32, v4f32, ExpectAlmostEq(0, 9))),
            "function 'f' instruction 0: check expect_almost_eq: rhs slot 9 "
            "out of range (2 slots)");
  // rhs means nothing to the single-operand kinds.
  EXPECT_TRUE(LoadSpec(CheckSpec(Type(I1, {}), v4f32,
                                 Check(fb::CheckKind::True, 0, 99, "")))
                  .ok());
  fb::OpUnion check = ExpectEq(0, 1);
  check.AsCheckOp()->kind = static_cast<fb::CheckKind>(5);
  EXPECT_EQ(LoadError(CheckSpec(v4f32, v4f32, check)),
            "function 'f' instruction 0: invalid check kind 5");
  for (const auto& [atol, rtol, error] :
       std::vector<std::tuple<float, float, std::string>>{
           {-1.0f, 0.0f, "atol is -1"},
           {0.0f, -0.5f, "rtol is -0.5"},
           {std::numeric_limits<float>::infinity(), 0.0f, "atol is inf"},
           {0.0f, std::nanf(""), "rtol is nan"}}) {
    EXPECT_EQ(LoadError(CheckSpec(v4f32, v4f32,
                                  ExpectAlmostEq(0, 1, "", atol, rtol))),
              StrCat("function 'f' instruction 0: check expect_almost_eq: ",
                     error, " (must be finite and >= 0)"));
  }
  EXPECT_TRUE(
      LoadSpec(CheckSpec(v4f32, v4f32, ExpectAlmostEq(0, 1, "", 0.0f, 0.0f)))
          .ok());
  // Packed by the object API alone, which omits the empty location.
  const fb::ModuleT spec = CheckSpec(v4f32, v4f32, ExpectEq(0, 1));
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(fb::Module::Pack(fbb, &spec), fb::ModuleIdentifier());
  EXPECT_EQ(
      LoadError(std::vector<uint8_t>(fbb.GetBufferPointer(),
                                     fbb.GetBufferPointer() + fbb.GetSize())),
      "function 'f' instruction 0: check expect_eq: missing location "
      "(it may be empty, not absent)");
}

TEST(CheckVerifyTest, StraightLineOperandsMustBeWrittenFirst) {
  fb::ModuleT spec = NewModule();
  const fb::TensorTypeT i1 = Type(I1, {});
  spec.functions.push_back(
      Function("f", {i1, i1}, {0}, {}, {ExpectEq(0, 1), Return({})}));
  EXPECT_EQ(LoadError(spec),
            "function 'f' instruction 0: check expect_eq: rhs slot 1 is read "
            "before it is written");
  spec.functions[0]->body = {Release({0}), ExpectTrue(0), Return({})};
  EXPECT_EQ(LoadError(spec),
            "function 'f' instruction 1: check expect_true: lhs slot 0 is read "
            "after it was released");
}

}  // namespace
}  // namespace kiln
