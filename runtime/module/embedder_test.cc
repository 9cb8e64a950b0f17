//===- embedder_test.cc - The core runtime on its own ---------------------===//
//
// Linked with kiln_runtime alone, as a deployed embedder would be (no
// kiln_io, no kiln_check), and using only public headers besides the
// module builder: it fails to link if the core comes to need tooling, and
// shows what a module with check instructions does without kiln_check.
//
//===----------------------------------------------------------------------===//

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kiln/check_handler.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using namespace kiln::testing;

// add(a, add(a, b)) through the test library's add_f32, and a function
// "checks" whose expect_true on a false constant fails.
fb::ModuleT EmbedderSpec() {
  fb::ModuleT spec = NewModule("embedded");
  spec.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  Executables(spec).push_back(
      Executable("ex", 0, {Export("add_f32", 0, 3, {4, 1, 1})}));
  spec.constants.push_back(ConstantData(Type(fb::ElementType::I1, {}), {0}));
  const fb::TensorTypeT v8 = Type(fb::ElementType::F32, {8});
  spec.functions.push_back(Function(
      "main", {v8, v8, v8, v8}, {0, 1}, {v8},
      {Dispatch(0, 0, {0, 1}, {2}), Dispatch(0, 0, {0, 2}, {3}), Return({3})}));
  spec.functions.push_back(
      Function("checks", {Type(fb::ElementType::I1, {})}, {}, {},
               {Constant(0, 0), ExpectTrue(0, "t.mlir:1:1"), Return({})}));
  return spec;
}

Tensor Filled(float value) {
  Tensor tensor = Tensor::Allocate(ElementType::kF32, {8}).value();
  float* data = static_cast<float*>(tensor.mutable_data());
  for (int i = 0; i < 8; ++i) data[i] = value;
  return tensor;
}

// A context on the module, as an embedder sets one up.
class EmbedderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<std::shared_ptr<const Module>> module = LoadSpec(EmbedderSpec());
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    context_ = std::make_unique<Context>(*module, &pool_);
  }

  Status CallMain() {
    return context_->Call("main", {Filled(1), Filled(2)}, &outputs_);
  }

  ThreadPool pool_{2};
  std::unique_ptr<Context> context_;
  std::vector<Tensor> outputs_;
};

TEST_F(EmbedderTest, RunsAModule) {
  Status status = CallMain();
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(outputs_.size(), 1u);
  EXPECT_EQ(outputs_[0].data_as<float>()[7], 4.0f);
}

TEST_F(EmbedderTest, ChecksWithoutAHandlerAreAClearError) {
  Status status = context_->Call("checks", {}, &outputs_);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "function 'checks' has check instructions (check.expect_*) and "
            "the context has no check handler: link kiln_check and set a "
            "kiln::CheckRecorder (kiln/check.h) with "
            "Context::SetCheckHandler");
  // Functions without checks still run.
  EXPECT_TRUE(CallMain().ok());
}

// Sees every check it is handed, and stops the call.
class RefusingHandler final : public CheckHandler {
 public:
  Status Check(const CheckCall& call) override {
    seen.push_back(StrCat(call.function, ":", call.instruction, ":",
                          CheckKindName(call.kind), ":", call.location, ":",
                          call.rhs ? "rhs" : "no rhs"));
    return InternalError("refused");
  }
  std::vector<std::string> seen;
};

TEST_F(EmbedderTest, AnyHandlerServesChecksAndItsErrorStopsTheCall) {
  RefusingHandler handler;
  context_->SetCheckHandler(&handler);
  Status status = context_->Call("checks", {}, &outputs_);
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_EQ(status.message(), "function 'checks' instruction 1: refused");
  EXPECT_EQ(handler.seen,
            std::vector<std::string>{"checks:1:expect_true:t.mlir:1:1:no rhs"});
}

}  // namespace
}  // namespace kiln
