//===- dispatch_test.cc - Dispatch executor tests -------------------------===//

#include "cpu/dispatch.h"

#include <atomic>
#include <vector>

#include "gtest/gtest.h"

namespace kiln {
namespace {

// Records each workgroup id (x | y << 8 | z << 16) at its linear index and
// counts visits, checking the dispatch state on the way.
int RecordWorkgroup(const kiln_dispatch_state_v0_t* dispatch,
                    const kiln_workgroup_state_v0_t* workgroup) {
  if (dispatch->binding_count != 2) return 100;
  auto* ids = static_cast<int32_t*>(dispatch->binding_ptrs[0]);
  auto* visits = static_cast<std::atomic<int>*>(dispatch->binding_ptrs[1]);
  const uint32_t* n = dispatch->workgroup_count;
  const uint32_t* id = workgroup->workgroup_id;
  if (id[0] >= n[0] || id[1] >= n[1] || id[2] >= n[2]) return 101;
  const uint64_t linear = id[0] + n[0] * (id[1] + uint64_t{n[1]} * id[2]);
  if (dispatch->binding_lengths[0] != uint64_t{n[0]} * n[1] * n[2] * 4) {
    return 102;
  }
  ids[linear] = static_cast<int32_t>(id[0] | (id[1] << 8) | (id[2] << 16));
  visits[linear].fetch_add(1);
  return 0;
}

int FailOnWorkgroup3(const kiln_dispatch_state_v0_t*,
                     const kiln_workgroup_state_v0_t* workgroup) {
  return workgroup->workgroup_id[0] == 3 && workgroup->workgroup_id[1] == 1 ? 42
                                                                            : 0;
}

class DispatchTest : public ::testing::TestWithParam<int> {};

TEST_P(DispatchTest, RunsEveryWorkgroupOnceWithItsId) {
  ThreadPool pool(GetParam());
  const uint32_t nx = 5, ny = 3, nz = 4;
  std::vector<int32_t> ids(nx * ny * nz, -1);
  std::vector<std::atomic<int>> visits(nx * ny * nz);
  for (auto& v : visits) v = 0;
  void* ptrs[2] = {ids.data(), visits.data()};
  uint64_t lengths[2] = {ids.size() * 4, visits.size() * sizeof(visits[0])};
  DispatchParams params;
  params.export_name = "record";
  params.function = RecordWorkgroup;
  params.workgroup_count[0] = nx;
  params.workgroup_count[1] = ny;
  params.workgroup_count[2] = nz;
  params.binding_count = 2;
  params.binding_ptrs = ptrs;
  params.binding_lengths = lengths;
  Status status = RunDispatch(pool, params);
  ASSERT_TRUE(status.ok()) << status.ToString();
  for (uint32_t z = 0; z < nz; ++z) {
    for (uint32_t y = 0; y < ny; ++y) {
      for (uint32_t x = 0; x < nx; ++x) {
        const size_t i = x + nx * (y + ny * z);
        EXPECT_EQ(visits[i].load(), 1);
        EXPECT_EQ(ids[i], static_cast<int32_t>(x | (y << 8) | (z << 16)));
      }
    }
  }
}

TEST_P(DispatchTest, NonzeroReturnNamesTheExport) {
  ThreadPool pool(GetParam());
  DispatchParams params;
  params.export_name = "main_dispatch_0_matmul";
  params.function = FailOnWorkgroup3;
  params.workgroup_count[0] = 8;
  params.workgroup_count[1] = 2;
  Status status = RunDispatch(pool, params);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_EQ(status.message(),
            "dispatch 'main_dispatch_0_matmul' failed: workgroup (3, 1, 0) "
            "returned 42");
}

INSTANTIATE_TEST_SUITE_P(Threads, DispatchTest, ::testing::Values(1, 2, 8));

}  // namespace
}  // namespace kiln
