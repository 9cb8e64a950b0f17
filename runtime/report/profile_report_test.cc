//===- profile_report_test.cc - A profile per input op --------------------===//

#include "kiln/profile_report.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "module/module_test_util.h"

namespace kiln {
namespace {

namespace fb = kiln::fb;
using testing::DebugModuleSpec;
using testing::Executables;
using testing::FusedOp;
using testing::LoadSpec;
using testing::Location;

fb::FusedOpT SpanningOp(std::string name, uint32_t line, uint32_t last_line) {
  fb::FusedOpT op = FusedOp(std::move(name), Location("model.mlir", line, 3));
  op.last_line = last_line;
  return op;
}

// add_f32 computes a linalg.generic spanning model.mlir lines 2-6 with a
// linalg.exp on line 4 fused into it; fail computes the same exp.
std::shared_ptr<const Module> ModuleWithSpans() {
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  auto& add = *Executables(spec)[0]->exports[0];
  add.provenance.clear();
  add.provenance.push_back(
      std::make_unique<fb::FusedOpT>(SpanningOp("linalg.generic", 2, 6)));
  add.provenance.push_back(
      std::make_unique<fb::FusedOpT>(SpanningOp("linalg.exp", 4, 0)));
  auto& fail = *Executables(spec)[0]->exports[1];
  fail.provenance.push_back(
      std::make_unique<fb::FusedOpT>(SpanningOp("linalg.exp", 4, 0)));
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(std::move(spec), {.load_libraries = false});
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? *module : nullptr;
}

// Each op's samples as ("NAME@LINE", samples), in the table's order.
std::vector<std::pair<std::string, uint64_t>> SamplesByOp(
    const ProfileInputOps& by_op) {
  std::vector<std::pair<std::string, uint64_t>> samples;
  for (const ProfileInputOp& op : by_op.ops) {
    samples.emplace_back(StrCat(op.op_name, "@", op.location.line), op.samples);
  }
  return samples;
}

TEST(ProfileByInputOpTest, FindsTheInnermostOpWhoseTextSpansALine) {
  std::shared_ptr<const Module> module = ModuleWithSpans();
  ASSERT_TRUE(module);
  const ExportView add = module->GetExport(0, 0).value();
  EXPECT_EQ(FindLineOp(add, "model.mlir", 2)->name, "linalg.generic");
  EXPECT_EQ(FindLineOp(add, "model.mlir", 4)->name, "linalg.exp");
  // A line of the generic's body that is no op of its own.
  EXPECT_EQ(FindLineOp(add, "model.mlir", 5)->name, "linalg.generic");
  EXPECT_EQ(FindLineOp(add, "model.mlir", 6)->last_line, 6u);
  EXPECT_FALSE(FindLineOp(add, "model.mlir", 7));
  EXPECT_FALSE(FindLineOp(add, "other.mlir", 4));
}

TEST(ProfileByInputOpTest, SumsEachOpAcrossDispatchesAndCountsTheRest) {
  std::shared_ptr<const Module> module = ModuleWithSpans();
  ASSERT_TRUE(module);
  Profile profile;
  profile.samples = 40;
  profile.host_samples = 5;
  ProfileExport& add = profile.exports.emplace_back();
  add.export_view = module->GetExport(0, 0).value();
  add.samples = 30;
  add.lines = {{kNoSource, 5, 12, "model.mlir"},
               {kNoSource, 4, 8, "model.mlir"},
               {kNoSource, 9, 3, "model.mlir"},
               {kNoSource, 0, 2, {}},
               {kNoSource, 2, 5, "model.mlir"}};
  ProfileExport& fail = profile.exports.emplace_back();
  fail.export_view = module->GetExport(0, 1).value();
  fail.samples = 5;
  fail.lines = {{kNoSource, 4, 5, "model.mlir"}};

  const ProfileInputOps by_op = ProfileByInputOp(profile);
  ASSERT_EQ(by_op.ops.size(), 2u);
  EXPECT_EQ(by_op.ops[0].op_name, "linalg.generic");
  EXPECT_EQ(by_op.ops[0].samples, 17u);
  EXPECT_EQ(by_op.ops[0].exports, std::vector<std::string_view>{"add_f32"});
  EXPECT_EQ(by_op.ops[1].op_name, "linalg.exp");
  EXPECT_EQ(by_op.ops[1].samples, 13u);
  EXPECT_EQ(by_op.ops[1].location.ToString(), "model.mlir:4:3");
  EXPECT_EQ(by_op.ops[1].exports,
            (std::vector<std::string_view>{"add_f32", "fail"}));
  EXPECT_EQ(by_op.kernel_samples, 35u);
  EXPECT_EQ(by_op.unplaced_samples, 5u);
  EXPECT_EQ(UnplacedSamples(profile.exports[0]), 5u);
  EXPECT_EQ(UnplacedSamples(profile.exports[1]), 0u);

  std::string table = FormatInputOpTable(profile, "main");
  EXPECT_NE(table.find("    share  samples  op                                "
                       "dispatches\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("by input op: 2 ops with samples"), std::string::npos)
      << table;
  EXPECT_NE(table.find("42.5%       17  linalg.generic at model.mlir:2:3  "
                       "add_f32\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("on no input op's line: 5 samples (14.3% of the 35 in "
                       "kernels)"),
            std::string::npos)
      << table;

  // Sampled: each sample is its share of the threads' CPU time.
  profile.sampling =
      ProfileSampling{ProfileClock::kCpuClockEvent, 1000, 2, 0.040};
  table = FormatInputOpTable(profile, "main");
  EXPECT_NE(table.find("42.5%       17     17 ms  linalg.generic at "
                       "model.mlir:2:3  add_f32\n"),
            std::string::npos)
      << table;
}

// add_f32's kernel is shared by three dispatches (identical kernels
// merged): each lists its generic and exp, in the same order.
TEST(ProfileByInputOpTest, DispatchesSharingAKernelShareItsSamples) {
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  auto& add = *Executables(spec)[0]->exports[0];
  add.provenance.clear();
  for (uint32_t site = 0; site < 3; ++site) {
    fb::FusedOpT generic =
        SpanningOp("linalg.generic", 2 + 10 * site, 6 + 10 * site);
    generic.site = site;
    fb::FusedOpT exp = SpanningOp("linalg.exp", 4 + 10 * site, 0);
    exp.site = site;
    add.provenance.push_back(std::make_unique<fb::FusedOpT>(generic));
    add.provenance.push_back(std::make_unique<fb::FusedOpT>(exp));
  }
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(std::move(spec), {.load_libraries = false});
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  Profile profile;
  profile.samples = 31;
  ProfileExport& ex = profile.exports.emplace_back();
  ex.export_view = (*module)->GetExport(0, 0).value();
  ex.samples = 31;
  // The kernel's lines are site 0's: a line of another site's op is none.
  ex.lines = {{kNoSource, 5, 10, "model.mlir"},
              {kNoSource, 4, 20, "model.mlir"},
              {kNoSource, 14, 1, "model.mlir"}};
  EXPECT_EQ(FindLineOp(ex.export_view, "model.mlir", 14), std::nullopt);

  const ProfileInputOps by_op = ProfileByInputOp(profile);
  const std::vector<std::pair<std::string, uint64_t>> samples =
      SamplesByOp(by_op);
  // 20 over three: 7, 7, 6; 10: 4, 3, 3.
  EXPECT_EQ(samples, (std::vector<std::pair<std::string, uint64_t>>{
                         {"linalg.exp@4", 7},
                         {"linalg.exp@14", 7},
                         {"linalg.exp@24", 6},
                         {"linalg.generic@2", 4},
                         {"linalg.generic@12", 3},
                         {"linalg.generic@22", 3}}));
  EXPECT_EQ(by_op.unplaced_samples, 1u);
}

// Merged kernels whose fused ops carry different numbers of input ops (a
// block's residual add takes along the previous block's ops, one more
// after a downsample): entries align by the kernel op computing them.
TEST(ProfileByInputOpTest, SharedKernelsAlignByKernelOp) {
  fb::ModuleT spec = DebugModuleSpec(KILN_TEST_LIBRARY_1);
  auto& add = *Executables(spec)[0]->exports[0];
  add.provenance.clear();
  auto entry = [&](std::string name, uint32_t line, uint32_t site,
                   uint32_t kernel_op) {
    fb::FusedOpT op = SpanningOp(std::move(name), line, 0);
    op.site = site;
    op.kernel_op = kernel_op;
    add.provenance.push_back(std::make_unique<fb::FusedOpT>(op));
  };
  entry("linalg.add", 2, 0, 0);
  entry("linalg.exp", 3, 0, 0);  // the previous block's, fused in
  entry("linalg.matmul", 4, 0, 1);
  entry("linalg.add", 12, 1, 0);
  entry("linalg.matmul", 14, 1, 1);
  StatusOr<std::shared_ptr<const Module>> module =
      LoadSpec(std::move(spec), {.load_libraries = false});
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  Profile profile;
  profile.samples = 12;
  ProfileExport& ex = profile.exports.emplace_back();
  ex.export_view = (*module)->GetExport(0, 0).value();
  ex.samples = 12;
  ex.lines = {{kNoSource, 4, 10, "model.mlir"},
              {kNoSource, 3, 2, "model.mlir"}};
  const ProfileInputOps by_op = ProfileByInputOp(profile);
  const std::vector<std::pair<std::string, uint64_t>> samples =
      SamplesByOp(by_op);
  // The matmul's 10 split 5 / 5; the exp's 2 go to it and to the other
  // site's first entry of that kernel op.
  EXPECT_EQ(samples, (std::vector<std::pair<std::string, uint64_t>>{
                         {"linalg.matmul@4", 5},
                         {"linalg.matmul@14", 5},
                         {"linalg.exp@3", 1},
                         {"linalg.add@12", 1}}));
}

}  // namespace
}  // namespace kiln
