//===- dynamic_shapes_test.cc - Dimensions known only at run time ---------===//
//
// Functions whose slots, arguments and results have dynamic dimensions:
// index registers (DimOp, IndexOp), dynamic results and reshapes, dispatch
// constants and workgroup tiles, driven by the test library's add_f32 and
// double_rows_f32 (runtime/module/testdata/test_library.c). Modules are
// described with the schema's object API.
//
//===----------------------------------------------------------------------===//

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "kiln/tensor_io.h"
#include "kiln/thread_pool.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

using namespace kiln::testing;

constexpr int64_t kDynamic = KILN_DYNAMIC_DIMENSION;

/// f32 tensor types of each shape.
std::vector<fb::TensorTypeT> F32Types(
    const std::vector<std::vector<int64_t>>& shapes) {
  std::vector<fb::TensorTypeT> types;
  for (const auto& shape : shapes) types.push_back(Type(F32, shape));
  return types;
}

fb::OpUnion Dim(uint32_t result, uint32_t source, uint32_t dimension) {
  fb::DimOpT op;
  op.result = result;
  op.source = source;
  op.dimension = dimension;
  return Op(op);
}

fb::OpUnion Index(fb::IndexKind kind, uint32_t result, uint32_t lhs,
                  uint32_t rhs, int64_t value = 0) {
  fb::IndexOpT op;
  op.kind = kind;
  op.result = result;
  op.lhs = lhs;
  op.rhs = rhs;
  op.value = value;
  return Op(op);
}

fb::OpUnion Extract(uint32_t result, uint32_t source, uint64_t element,
                    bool is_unsigned) {
  fb::ExtractOpT op;
  op.result = result;
  op.source = source;
  op.element = element;
  op.is_unsigned = is_unsigned;
  return Op(op);
}

fb::OpUnion IndexConstant(uint32_t result, int64_t value) {
  return Index(fb::IndexKind::Constant, result, 0, 0, value);
}

/// A dispatch of export `export_index` of executable 0 whose results take
/// their dynamic dimensions from registers `result_dims`.
fb::OpUnion DispatchWithDims(uint32_t export_index,
                             std::vector<uint32_t> operands,
                             std::vector<uint32_t> results,
                             std::vector<uint32_t> result_dims) {
  fb::OpUnion op =
      Dispatch(0, export_index, std::move(operands), std::move(results));
  op.AsDispatchOp()->result_dims = std::move(result_dims);
  return op;
}

fb::OpUnion ReshapeWithDims(uint32_t result, uint32_t source,
                            std::vector<uint32_t> result_dims) {
  fb::OpUnion op = Reshape(result, source);
  op.AsReshapeOp()->result_dims = std::move(result_dims);
  return op;
}

/// A function over f32 tensors of these shapes with `index_count` index
/// registers.
std::unique_ptr<fb::FunctionT> DynamicFunction(
    std::string name, const std::vector<std::vector<int64_t>>& slots,
    std::vector<uint32_t> arguments,
    const std::vector<std::vector<int64_t>>& results,
    std::vector<fb::OpUnion> body, uint32_t index_count) {
  auto function =
      Function(std::move(name), F32Types(slots), std::move(arguments),
               F32Types(results), std::move(body));
  function->index_count = index_count;
  return function;
}

/// An export of f32 bindings of these shapes.
fb::ExportT DynamicExport(std::string name, uint32_t ordinal,
                          const std::vector<std::vector<int64_t>>& bindings) {
  fb::ExportT ex =
      Export(std::move(name), ordinal, static_cast<uint32_t>(bindings.size()));
  ex.binding_types = Owned(F32Types(bindings));
  return ex;
}

// Executable 0, exports:
//   0 add_f32 over ?xf32 (one workgroup; the kernel bounds itself),
//   1 double_rows_f32 over ?x?xf32, one workgroup per row (a tile of 1 of
//     constant 0, the input's rows),
//   2 affine_f32 over ?xf32 with 2 index constants m and c: m * x + c.
// Functions:
//   add(x: ?xf32, y: ?xf32) -> ?xf32          x + y, sized as x
//   double(x: ?x?xf32) -> ?x?xf32             2 * x
//   flatten(x: ?x?xf32) -> ?xf32              x reshaped to rows * cols
//   index(x: 12xf32, kind, lhs, rhs) -> ?xf32 x reshaped to [lhs kind rhs]
//     (one function per case, named by it; see IndexFunction)
//   affine(x: ?xf32) -> ?xf32                 3 * x + size(x), m and c
//     from index registers
fb::ModuleT DynamicModule() {
  fb::ModuleT module = NewModule("dyn");
  module.libraries.push_back(Library(ReadBinaryFile(KILN_TEST_LIBRARY_1)));
  fb::ExportT rows = DynamicExport(
      "double_rows_f32", 6, {{kDynamic, kDynamic}, {kDynamic, kDynamic}});
  rows.workgroup_tiles.emplace_back(/*dimension=*/0, /*constant=*/0,
                                    /*tile=*/1);
  fb::ExportT affine =
      DynamicExport("affine_f32", 7, {{kDynamic}, {kDynamic}});
  affine.index_constant_count = 2;
  Executables(module).push_back(Executable(
      "ex", 0,
      {DynamicExport("add_f32", 0, {{kDynamic}, {kDynamic}, {kDynamic}}), rows,
       affine}));
  // add: slots 0 x, 1 y, 2 sum; register 0 = x's size.
  module.functions.push_back(DynamicFunction(
      "add", {{kDynamic}, {kDynamic}, {kDynamic}}, {0, 1}, {{kDynamic}},
      {Dim(0, 0, 0), DispatchWithDims(0, {0, 1}, {2}, {0}), Return({2})}, 2));
  // double: slots 0 x, 1 2x; registers 0, 1 = x's rows and columns.
  module.functions.push_back(
      DynamicFunction("double", {{kDynamic, kDynamic}, {kDynamic, kDynamic}},
                      {0}, {{kDynamic, kDynamic}},
                      {Dim(0, 0, 0), Dim(1, 0, 1),
                       DispatchWithDims(1, {0}, {1}, {0, 1}), Return({1})},
                      3));
  // flatten: slots 0 x, 1 flat; register 2 = rows * cols.
  module.functions.push_back(DynamicFunction(
      "flatten", {{kDynamic, kDynamic}, {kDynamic}}, {0}, {{kDynamic}},
      {Dim(0, 0, 0), Dim(1, 0, 1), Index(fb::IndexKind::Mul, 2, 0, 1),
       ReshapeWithDims(1, 0, {2}), Return({1})},
      4));
  // affine: slots 0 x, 1 result; register 0 = x's size, 1 = 3.
  fb::OpUnion affine_dispatch = DispatchWithDims(2, {0}, {1}, {0});
  affine_dispatch.AsDispatchOp()->constants = {1, 0};
  module.functions.push_back(DynamicFunction(
      "affine", {{kDynamic}, {kDynamic}}, {0}, {{kDynamic}},
      {Dim(0, 0, 0), IndexConstant(1, 3), std::move(affine_dispatch),
       Return({1})},
      2));
  return module;
}

// sized_NAME(sizes: 2xTYPE, x: 12xf32) -> ?xf32: x reshaped to element
// `element` of sizes, read as signed or unsigned.
std::unique_ptr<fb::FunctionT> SizedFunction(const std::string& name,
                                             fb::ElementType type,
                                             uint64_t element,
                                             bool is_unsigned) {
  auto function =
      Function("sized_" + name,
               {Type(type, {2}), Type(F32, {12}), Type(F32, {kDynamic})},
               {0, 1}, {Type(F32, {kDynamic})},
               {Extract(0, 0, element, is_unsigned), ReshapeWithDims(2, 1, {0}),
                Return({2})});
  function->index_count = 1;
  return function;
}

// index_NAME(x: 12xf32) -> ?xf32: x reshaped to [lhs KIND rhs].
std::unique_ptr<fb::FunctionT> IndexFunction(const std::string& name,
                                             fb::IndexKind kind, int64_t lhs,
                                             int64_t rhs) {
  return DynamicFunction(
      "index_" + name, {{12}, {kDynamic}}, {0}, {{kDynamic}},
      {IndexConstant(0, lhs), IndexConstant(1, rhs), Index(kind, 2, 0, 1),
       ReshapeWithDims(1, 0, {2}), Return({1})},
      4);
}

class DynamicShapesTest : public ::testing::TestWithParam<int> {
 protected:
  void Init(const fb::ModuleT& module, const ModuleLoadOptions& options = {}) {
    StatusOr<std::shared_ptr<const Module>> loaded = LoadSpec(module, options);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    module_ = *loaded;
    pool_ = std::make_unique<ThreadPool>(GetParam());
    context_ = std::make_unique<Context>(module_, pool_.get());
  }

  // Calls `function` on inputs given as text and returns its only result as
  // text, or the error.
  std::string Run(std::string_view function,
                  const std::vector<std::string>& inputs) {
    std::vector<Tensor> tensors;
    for (const std::string& text : inputs) {
      StatusOr<Tensor> tensor = ParseTensor(text);
      if (!tensor.ok()) return "bad input: " + tensor.status().message();
      tensors.push_back(*tensor);
    }
    return CallForText(*context_, function, tensors);
  }

  std::shared_ptr<const Module> module_;
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<Context> context_;
};

TEST_P(DynamicShapesTest, SignaturesShowDynamicDimensions) {
  Init(DynamicModule());
  EXPECT_EQ(module_->functions()[0].ToString(), "add(?xf32, ?xf32) -> (?xf32)");
  EXPECT_EQ(module_->functions()[1].ToString(), "double(?x?xf32) -> (?x?xf32)");
}

TEST_P(DynamicShapesTest, ResultsTakeTheSizesOfEachCall) {
  Init(DynamicModule());
  EXPECT_EQ(Run("add", {"3xf32=1,2,3", "3xf32=10,20,30"}), "3xf32=11 22 33");
  EXPECT_EQ(Run("add", {"1xf32=5", "1xf32=1"}), "1xf32=6");
  EXPECT_EQ(Run("add", {"0xf32", "0xf32"}), "0xf32=");
  // The kernel gets each binding's extents as its dispatch constants and a
  // grid of one workgroup per row.
  EXPECT_EQ(Run("double", {"2x3xf32=1,2,3,4,5,6"}), "2x3xf32=[2 4 6][8 10 12]");
  EXPECT_EQ(Run("double", {"5x1xf32=1,2,3,4,5"}), "5x1xf32=[2][4][6][8][10]");
  EXPECT_EQ(Run("double", {"0x4xf32"}), "0x4xf32=");
  // A function of the same module called again at another size.
  EXPECT_EQ(Run("add", {"2xf32=1,2", "2xf32=3,4"}), "2xf32=4 6");
}

TEST_P(DynamicShapesTest, InputsMustMatchTheStaticPartAndRank) {
  Init(DynamicModule());
  EXPECT_EQ(Run("double", {"4xf32=1,2,3,4"}),
            "error: input 0: expected ?x?xf32, got 4xf32");
  EXPECT_EQ(Run("add", {"2xi32=1,2", "2xf32=3,4"}),
            "error: input 0: expected ?xf32, got 2xi32");
}

TEST_P(DynamicShapesTest, ReshapeTakesComputedDimensions) {
  Init(DynamicModule());
  EXPECT_EQ(Run("flatten", {"2x3xf32=1,2,3,4,5,6"}), "6xf32=1 2 3 4 5 6");
  EXPECT_EQ(Run("flatten", {"1x0xf32"}), "0xf32=");
}

TEST_P(DynamicShapesTest, IndexArithmetic) {
  fb::ModuleT module = DynamicModule();
  using K = fb::IndexKind;
  // Each makes 12, the size of the reshaped input, or fails.
  const struct {
    const char* name;
    K kind;
    int64_t lhs, rhs;
  } cases[] = {
      {"add", K::Add, 5, 7},
      {"sub", K::Sub, 20, 8},
      {"mul", K::Mul, 3, 4},
      {"floordiv", K::FloorDiv, 25, 2},
      {"floordiv_negative", K::FloorDiv, -25, -2},
      {"ceildiv", K::CeilDiv, 23, 2},
      {"ceildiv_negative", K::CeilDiv, -23, -2},
      {"rem", K::Rem, 25, 13},
      {"min", K::Min, 12, 40},
      {"max", K::Max, 12, -3},
      {"floor_of_negative", K::FloorDiv, -25, 2},  // -13
      {"ceil_of_negative", K::CeilDiv, -25, 2},    // -12
      {"rem_negative", K::Rem, -25, 13},           // -12
      {"zero", K::FloorDiv, 1, 0},
      {"overflow", K::Mul, int64_t{1} << 62, 4},
      {"min_by_minus_one", K::FloorDiv, INT64_MIN, -1},
      {"div", K::Div, 25, 2},
      {"div_negative", K::Div, -25, -2},
      {"divu", K::DivU, 24, 2},
      {"ceildivu", K::CeilDivU, 23, 2},
      {"remu", K::RemU, 25, 13},
      // As unsigned, -4 is 2^64 - 4, and 2^64 % 20 = 16.
      {"remu_of_negative", K::RemU, -4, 20},
      {"div_of_negative", K::Div, -25, 2},  // -12 (truncated)
      {"divu_zero", K::DivU, 1, 0},
  };
  for (const auto& c : cases) {
    module.functions.push_back(IndexFunction(c.name, c.kind, c.lhs, c.rhs));
  }
  Init(module);
  const std::string x = "12xf32=1,2,3,4,5,6,7,8,9,10,11,12";
  const std::string twelve = "12xf32=1 2 3 4 5 6 7 8 9 10 11 12";
  for (const char* name :
       {"add", "sub", "mul", "floordiv", "floordiv_negative", "ceildiv",
        "ceildiv_negative", "rem", "min", "max", "div", "div_negative", "divu",
        "ceildivu", "remu", "remu_of_negative"}) {
    EXPECT_EQ(Run(std::string("index_") + name, {x}), twelve) << name;
  }
  const struct {
    const char* name;
    const char* error;
  } errors[] = {
      {"floor_of_negative", "3: slot 1 (?xf32) dimension 0 would be -13"},
      {"ceil_of_negative", "3: slot 1 (?xf32) dimension 0 would be -12"},
      {"rem_negative", "3: slot 1 (?xf32) dimension 0 would be -12"},
      {"zero", "2: index division by zero"},
      {"overflow", "2: index Mul of 4611686018427387904 and 4 overflows"},
      {"min_by_minus_one",
       "2: index FloorDiv of -9223372036854775808 and -1 overflows"},
      {"div_of_negative", "3: slot 1 (?xf32) dimension 0 would be -12"},
      {"divu_zero", "2: index division by zero"},
  };
  for (const auto& e : errors) {
    const std::string function = std::string("index_") + e.name;
    EXPECT_EQ(Run(function, {x}),
              "error: function '" + function + "' instruction " + e.error);
  }
}

TEST_P(DynamicShapesTest, SizesReadFromContents) {
  fb::ModuleT module = DynamicModule();
  using E = fb::ElementType;
  module.functions.push_back(SizedFunction("i8", E::I8, 1, false));
  module.functions.push_back(SizedFunction("u8", E::I8, 1, true));
  module.functions.push_back(SizedFunction("i16", E::I16, 0, false));
  module.functions.push_back(SizedFunction("u32", E::I32, 1, true));
  module.functions.push_back(SizedFunction("i64", E::I64, 1, false));
  Init(module);
  const std::string x = "12xf32=1,2,3,4,5,6,7,8,9,10,11,12";
  const std::string twelve = "12xf32=1 2 3 4 5 6 7 8 9 10 11 12";
  EXPECT_EQ(Run("sized_i8", {"2xi8=0,12", x}), twelve);
  EXPECT_EQ(Run("sized_i16", {"2xi16=12,0", x}), twelve);
  EXPECT_EQ(Run("sized_u32", {"2xi32=0,12", x}), twelve);
  EXPECT_EQ(Run("sized_i64", {"2xi64=0,12", x}), twelve);
  // -12 sign-extends, and as unsigned is 244.
  EXPECT_EQ(Run("sized_i8", {"2xi8=0,-12", x}),
            "error: function 'sized_i8' instruction 1: slot 2 (?xf32) "
            "dimension 0 would be -12");
  EXPECT_EQ(Run("sized_u8", {"2xi8=0,-12", x}),
            "error: function 'sized_u8' instruction 1: reshape of 12xf32 to "
            "244xf32 changes its size");
}

TEST(DynamicShapesVerifyTest, SizesReadFromContents) {
  fb::ModuleT module = DynamicModule();
  module.functions.push_back(
      SizedFunction("far", fb::ElementType::I64, 2, false));
  EXPECT_EQ(LoadError(module),
            "function 'sized_far' instruction 0: element 2 of slot 0 out of "
            "range (2 elements)");

  module = DynamicModule();
  module.functions.push_back(SizedFunction("f32", F32, 0, false));
  EXPECT_EQ(LoadError(module),
            "function 'sized_f32' instruction 0: element read of slot 0 of "
            "type 2xf32: not an integer");
}

TEST_P(DynamicShapesTest, ReshapeToAnotherSizeFails) {
  fb::ModuleT module = DynamicModule();
  module.functions.push_back(IndexFunction("eleven", fb::IndexKind::Add, 5, 6));
  Init(module);
  EXPECT_EQ(Run("index_eleven", {"12xf32=1,2,3,4,5,6,7,8,9,10,11,12"}),
            "error: function 'index_eleven' instruction 3: reshape of 12xf32 "
            "to 11xf32 changes its size");
}

TEST_P(DynamicShapesTest, ResultsBeyondTheBufferLimitFail) {
  fb::ModuleT module = DynamicModule();
  // 2^20 elements of f32: 4 MiB, over a limit of 1 MiB.
  module.functions.push_back(IndexFunction("big", fb::IndexKind::Mul,
                                           int64_t{1} << 10, int64_t{1} << 10));
  ModuleLoadOptions options;
  options.max_buffer_bytes = 1 << 20;
  Init(module, options);
  EXPECT_EQ(Run("index_big", {"12xf32=1,2,3,4,5,6,7,8,9,10,11,12"}),
            "error: function 'index_big' instruction 3: slot 1 (?xf32) would "
            "be 1048576xf32, more than the buffer limit of 1048576 bytes "
            "(ModuleLoadOptions::max_buffer_bytes; default: physical memory)");
}

TEST_P(DynamicShapesTest, StaticSlotsBindDynamicBindings) {
  fb::ModuleT module = DynamicModule();
  // add4(x: 4xf32, y: 4xf32) -> 4xf32 through the dynamic add_f32.
  module.functions.push_back(
      DynamicFunction("add4", {{4}, {4}, {4}}, {0, 1}, {{4}},
                      {Dispatch(0, 0, {0, 1}, {2}), Return({2})}, 0));
  Init(module);
  EXPECT_EQ(Run("add4", {"4xf32=1,2,3,4", "4xf32=1,1,1,1"}), "4xf32=2 3 4 5");
}

TEST_P(DynamicShapesTest, DisagreeingExtentsAreRefused) {
  fb::ModuleT module = DynamicModule();
  // add_f32 runs one loop over both inputs and its output.
  Executables(module)[0]->exports[0]->equal_constants = {0, 1, 0, 2};
  Init(module);
  EXPECT_EQ(Run("add", {"3xf32=1,2,3", "2xf32=1,2"}),
            "error: function 'add' instruction 1: dispatch of 'add_f32': "
            "binding 0 dimension 0 is 3 but binding 1 dimension 0 is 2; the "
            "kernel runs one loop over both (sizes the program says agree "
            "must agree)");
  EXPECT_EQ(Run("add", {"2xf32=1,2", "2xf32=3,4"}), "2xf32=4 6");
}

TEST_P(DynamicShapesTest, DisagreeingIndexConstantsAreRefused) {
  fb::ModuleT module = DynamicModule();
  // Say affine_f32 runs one loop over x and m (m = 3 in `affine`).
  Executables(module)[0]->exports[2]->equal_constants = {0, 2};
  Init(module);
  EXPECT_EQ(Run("affine", {"3xf32=1,2,3"}), "3xf32=6 9 12");
  EXPECT_EQ(Run("affine", {"2xf32=1,2"}),
            "error: function 'affine' instruction 2: dispatch of "
            "'affine_f32': binding 0 dimension 0 is 2 but index constant 0 "
            "is 3; the kernel runs one loop over both (sizes the program "
            "says agree must agree)");
}

TEST_P(DynamicShapesTest, TilesThatDoNotCoverTheirExtentAreRefused) {
  fb::ModuleT module = DynamicModule();
  // Say affine_f32 reads x's extent in tiles of 2, m (3 in `affine`) of them.
  Executables(module)[0]->exports[2]->covering_tiles = {
      fb::CoveringTiles(2, 0, 2)};
  Init(module);
  EXPECT_EQ(Run("affine", {"6xf32=1,1,1,1,1,1"}), "6xf32=9 9 9 9 9 9");
  EXPECT_EQ(Run("affine", {"7xf32=1,1,1,1,1,1,1"}),
            "error: function 'affine' instruction 2: dispatch of "
            "'affine_f32': index constant 0 is 3 tiles of 2, which do not "
            "cover binding 0 dimension 0 (7); the kernel reads the tiles that "
            "extent needs");
  StatusOr<ExportView> affine = module_->FindExport("affine_f32");
  ASSERT_TRUE(affine.ok()) << affine.status().ToString();
  StatusOr<Tensor> x = ParseTensor("2xf32=1,2");
  StatusOr<Tensor> out = ParseTensor("2xf32=0,0");
  ASSERT_TRUE(x.ok() && out.ok());
  EXPECT_TRUE(context_->Dispatch(*affine, {*x, *out}, {1, 0}).ok());
  EXPECT_EQ(context_->Dispatch(*affine, {*x, *out}, {-1, 0}).message(),
            "dispatch of 'affine_f32': index constant 0 is -1 tiles of 2, "
            "which do not cover binding 0 dimension 0 (2); the kernel reads "
            "the tiles that extent needs");
}

TEST_P(DynamicShapesTest, IndexConstantsFollowTheExtents) {
  Init(DynamicModule());
  // affine_f32 checks that it gets 4 constants (2 extents, m, c).
  EXPECT_EQ(Run("affine", {"3xf32=1,2,3"}), "3xf32=6 9 12");
  EXPECT_EQ(Run("affine", {"1xf32=-1"}), "1xf32=-2");
}

TEST_P(DynamicShapesTest, DispatchTakesIndexConstants) {
  Init(DynamicModule());
  StatusOr<ExportView> affine = module_->FindExport("affine_f32");
  ASSERT_TRUE(affine.ok()) << affine.status().ToString();
  EXPECT_EQ(affine->index_constant_count(), 2u);
  StatusOr<Tensor> x = ParseTensor("2xf32=1,2");
  StatusOr<Tensor> out = ParseTensor("2xf32=0,0");
  ASSERT_TRUE(x.ok() && out.ok());
  Status status = context_->Dispatch(*affine, {*x, *out}, {10, -1});
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(FormatTensor(*out), "2xf32=9 19");
  EXPECT_EQ(context_->Dispatch(*affine, {*x, *out}, {10}).message(),
            "dispatch 'affine_f32': expected 2 index constants, got 1");
}

INSTANTIATE_TEST_SUITE_P(Threads, DynamicShapesTest, ::testing::Values(1, 3));

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

TEST(DynamicShapesVerifyTest, RegistersAndDimensions) {
  fb::ModuleT module = DynamicModule();
  module.functions[0]->index_count = 4;
  EXPECT_EQ(LoadError(module),
            "function 'add' has 4 index registers but 3 instructions");

  module = DynamicModule();
  module.functions[0]->body[0].AsDimOp()->result = 2;
  EXPECT_EQ(LoadError(module),
            "function 'add' instruction 0: result index register 2 out of "
            "range (2 registers)");

  module = DynamicModule();
  module.functions[0]->body[0].AsDimOp()->dimension = 1;
  EXPECT_EQ(LoadError(module),
            "function 'add' instruction 0: dimension 1 of slot 0 out of range "
            "(rank 1)");

  module = DynamicModule();
  module.functions[0]->body[1].AsDispatchOp()->result_dims.clear();
  EXPECT_EQ(LoadError(module),
            "function 'add' instruction 1: results have 1 dynamic dimensions "
            "but 0 registers name them");

  module = DynamicModule();
  module.functions[2]->body[3].AsReshapeOp()->result_dims = {2, 2};
  EXPECT_EQ(LoadError(module),
            "function 'flatten' instruction 3: result has 1 dynamic "
            "dimensions but 2 registers name them");

  module = DynamicModule();
  module.functions[2]->body[2].AsIndexOp()->rhs = 9;
  EXPECT_EQ(LoadError(module),
            "function 'flatten' instruction 2: rhs index register 9 out of "
            "range (4 registers)");

  // A constant's operands are registers too: they are read.
  module = DynamicModule();
  module.functions[3]->body[1].AsIndexOp()->lhs = 0xFFFFFFFF;
  EXPECT_EQ(LoadError(module),
            "function 'affine' instruction 1: lhs index register 4294967295 "
            "out of range (2 registers)");
}

TEST(DynamicShapesVerifyTest, Types) {
  // A dynamic slot binds only a binding that leaves that dimension dynamic.
  fb::ModuleT module = DynamicModule();
  Executables(module)[0]->exports[0]->binding_types[2]->shape = {4};
  EXPECT_EQ(LoadError(module),
            "function 'add' instruction 1: dispatch of 'add_f32' binding 2 is "
            "slot 2 of type ?xf32 but the export takes 4xf32");

  // Constants are static.
  module = DynamicModule();
  module.constants.push_back(ConstantData(Type(F32, {kDynamic}), {}));
  EXPECT_EQ(LoadError(module), "constant 0: dynamic dimension in ?xf32");

  // The static part of a dynamic type has a valid size.
  module = DynamicModule();
  module.functions[0]->slot_types[0]->shape = {kDynamic, -2};
  EXPECT_EQ(LoadError(module),
            "function 'add' slot 0: dimension 1 is negative (-2)");
}

TEST(DynamicShapesVerifyTest, WorkgroupTiles) {
  fb::ModuleT module = DynamicModule();
  Executables(module)[0]->exports[1]->workgroup_tiles[0] =
      fb::WorkgroupTile(3, 0, 1);
  EXPECT_EQ(LoadError(module),
            "executable 0 'ex' export 'double_rows_f32': workgroup tiles: row "
            "0 (dimension 3, tile 1) needs a dimension of 0 to 2 and a tile of "
            "at least 1");

  module = DynamicModule();
  Executables(module)[0]->exports[1]->workgroup_tiles[0] =
      fb::WorkgroupTile(0, 0, 0);
  EXPECT_EQ(LoadError(module),
            "executable 0 'ex' export 'double_rows_f32': workgroup tiles: row "
            "0 (dimension 0, tile 0) needs a dimension of 0 to 2 and a tile of "
            "at least 1");

  module = DynamicModule();
  Executables(module)[0]->exports[0]->equal_constants = {0, 1, 2};
  EXPECT_EQ(LoadError(module),
            "executable 0 'ex' export 'add_f32': equal constants: 3 entries "
            "(pairs expected)");

  module = DynamicModule();
  Executables(module)[0]->exports[0]->equal_constants = {0, 3};
  EXPECT_EQ(LoadError(module),
            "executable 'ex' export 'add_f32': equal constants name constant "
            "3 but the library export takes 3 constants");

  // Dispatches pass the index constants their export takes.
  module = DynamicModule();
  module.functions[3]->body[2].AsDispatchOp()->constants = {1};
  EXPECT_EQ(LoadError(module),
            "function 'affine' instruction 2: dispatch of 'affine_f32' passes "
            "1 index constants but the export takes 2");
  module = DynamicModule();
  module.functions[3]->body[2].AsDispatchOp()->constants = {1, 5};
  EXPECT_EQ(LoadError(module),
            "function 'affine' instruction 2: constant index register 5 out "
            "of range (2 registers)");

  // The library says how many index constants its code reads.
  module = DynamicModule();
  Executables(module)[0]->exports[2]->index_constant_count = 1;
  module.functions[3]->body[2].AsDispatchOp()->constants = {1};
  EXPECT_EQ(LoadError(module),
            "executable 'ex' export 'affine_f32': module declares 1 index "
            "constants but the library export takes 2");

  // Equal constants and workgroup tiles may name an index constant.
  module = DynamicModule();
  Executables(module)[0]->exports[2]->equal_constants = {0, 4};
  EXPECT_EQ(LoadError(module),
            "executable 'ex' export 'affine_f32': equal constants name "
            "constant 4 but the library export takes 4 constants");

  // Covering tiles name constants the library takes, in tiles of one or more.
  module = DynamicModule();
  Executables(module)[0]->exports[2]->covering_tiles = {
      fb::CoveringTiles(4, 0, 2)};
  EXPECT_EQ(LoadError(module),
            "executable 'ex' export 'affine_f32': covering tiles 0 name "
            "constants 4 and 0 but the library export takes 4 constants");
  module = DynamicModule();
  Executables(module)[0]->exports[2]->covering_tiles = {
      fb::CoveringTiles(2, 0, 0)};
  EXPECT_EQ(LoadError(module),
            "executable 0 'ex' export 'affine_f32': covering tiles 0: a tile "
            "of at least 1 is needed");

  // The library's descriptor of double_rows_f32 leaves 4 extents open.
  module = DynamicModule();
  Executables(module)[0]->exports[1]->workgroup_tiles[0] =
      fb::WorkgroupTile(0, 4, 1);
  EXPECT_EQ(LoadError(module),
            "executable 'ex' export 'double_rows_f32': workgroup tile 0 "
            "divides constant 4 but the library export takes 4 constants");
}

}  // namespace
}  // namespace kiln
