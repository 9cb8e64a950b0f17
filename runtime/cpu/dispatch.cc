//===- dispatch.cc - Dispatch executor ------------------------------------===//

#include "cpu/dispatch.h"

#include <atomic>

namespace kiln {

Status RunDispatch(ThreadPool& pool, const DispatchParams& params) {
  kiln_dispatch_state_v0_t dispatch_state = {};
  dispatch_state.workgroup_count[0] = params.workgroup_count[0];
  dispatch_state.workgroup_count[1] = params.workgroup_count[1];
  dispatch_state.workgroup_count[2] = params.workgroup_count[2];
  dispatch_state.binding_count = params.binding_count;
  dispatch_state.binding_ptrs = params.binding_ptrs;
  dispatch_state.binding_lengths = params.binding_lengths;

  const uint64_t count_x = params.workgroup_count[0];
  const uint64_t count_xy = count_x * params.workgroup_count[1];
  // The module verifier bounds the product; computed in 64 bits regardless.
  const uint64_t total = count_xy * params.workgroup_count[2];

  // First failure wins; later workgroups see it and skip their work.
  std::atomic<bool> failed{false};
  std::atomic<int64_t> failed_index{-1};
  int failed_code = 0;

  // TODO(tracing): begin the dispatch zone here (export name, source
  // location of the chosen stage).
  pool.ParallelFor(
      static_cast<int64_t>(total), [&](int64_t index, uint32_t worker_id) {
        if (failed.load(std::memory_order_relaxed)) return;
        const uint64_t i = static_cast<uint64_t>(index);
        kiln_workgroup_state_v0_t workgroup_state = {};
        workgroup_state.workgroup_id[0] = static_cast<uint32_t>(i % count_x);
        workgroup_state.workgroup_id[1] =
            static_cast<uint32_t>((i % count_xy) / count_x);
        workgroup_state.workgroup_id[2] = static_cast<uint32_t>(i / count_xy);
        workgroup_state.worker_id = worker_id;
        const int code = params.function(&dispatch_state, &workgroup_state);
        if (code != 0) {
          int64_t expected = -1;
          if (failed_index.compare_exchange_strong(expected, index)) {
            failed_code = code;  // published by ParallelFor's join
          }
          failed.store(true, std::memory_order_relaxed);
        }
      });
  // TODO(tracing): end the dispatch zone here.

  if (failed.load(std::memory_order_relaxed)) {
    const uint64_t i = static_cast<uint64_t>(failed_index.load());
    return InternalError("dispatch '", params.export_name, "' failed: workgroup (",
                         i % count_x, ", ", (i % count_xy) / count_x, ", ",
                         i / count_xy, ") returned ", failed_code);
  }
  return OkStatus();
}

}  // namespace kiln
