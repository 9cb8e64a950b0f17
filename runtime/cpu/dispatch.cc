//===- dispatch.cc - Dispatch executor ------------------------------------===//

#include "cpu/dispatch.h"

#include <atomic>
#include <string>
#include <vector>

namespace kiln {
namespace {

/// A zone per worker around its share of a dispatch's workgroups.
struct WorkerZones {
  Tracer* tracer = nullptr;
  TraceSite site;
  std::vector<uint64_t> tokens;  // by worker id

  static void Begin(void* context, uint32_t worker_id) {
    auto* self = static_cast<WorkerZones*>(context);
    self->tokens[worker_id] = self->tracer->BeginZone(self->site);
  }
  static void End(void* context, uint32_t worker_id) {
    auto* self = static_cast<WorkerZones*>(context);
    self->tracer->EndZone(self->site, self->tokens[worker_id]);
  }
};

}  // namespace

Status RunDispatch(ThreadPool& pool, const DispatchParams& params) {
  kiln_dispatch_state_v0_t dispatch_state = {};
  dispatch_state.workgroup_count[0] = params.workgroup_count[0];
  dispatch_state.workgroup_count[1] = params.workgroup_count[1];
  dispatch_state.workgroup_count[2] = params.workgroup_count[2];
  dispatch_state.binding_count = params.binding_count;
  dispatch_state.binding_ptrs = params.binding_ptrs;
  dispatch_state.binding_lengths = params.binding_lengths;
  dispatch_state.constant_count = params.constant_count;
  dispatch_state.constants = params.constants;

  const uint64_t count_x = params.workgroup_count[0];
  const uint64_t count_xy = count_x * params.workgroup_count[1];
  // The module verifier bounds the product; computed in 64 bits regardless.
  const uint64_t total = count_xy * params.workgroup_count[2];
  // 0 (a dynamic extent of 0): the zone shows the dispatch, nothing runs.

  // First failure wins; later workgroups see it and skip their work.
  std::atomic<bool> failed{false};
  std::atomic<int64_t> failed_index{-1};
  int failed_code = 0;

  // The dispatch zone, and optionally one per worker for its share of the
  // workgroups (named like the dispatch, on the worker's own thread).
  // Called directly, not through ScopedZone: one tracer lookup per dispatch.
  Tracer& tracer = GetTracer();
  const TraceSite* site = tracer.enabled() ? params.trace_site : nullptr;
  const uint64_t token = site ? tracer.BeginZone(*site) : 0;
  WorkerZones worker_zones;
  ThreadPool::WorkerScope scope;
  const bool per_worker = site && tracer.options().workgroup_zones;
  if (per_worker) {
    worker_zones.tracer = &tracer;
    worker_zones.site = *site;
    worker_zones.site.kind = ZoneKind::kWorkgroups;
    worker_zones.site.id = 0;  // changed: no longer the dispatch site's
    worker_zones.tokens.resize(pool.thread_count());
    scope.begin = &WorkerZones::Begin;
    scope.end = &WorkerZones::End;
    scope.context = &worker_zones;
  }
  pool.ParallelFor(
      static_cast<int64_t>(total),
      [&](int64_t index, uint32_t worker_id) {
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
      },
      per_worker ? &scope : nullptr);
  if (site) tracer.EndZone(*site, token);

  if (failed.load(std::memory_order_relaxed)) {
    const uint64_t i = static_cast<uint64_t>(failed_index.load());
    const std::string workgroup = StrCat(
        "dispatch '", params.export_name, "' failed: workgroup (", i % count_x,
        ", ", (i % count_xy) / count_x, ", ", i / count_xy, ")");
    if (failed_code == KILN_DISPATCH_OUT_OF_BOUNDS) {
      return OutOfRangeError(
          workgroup,
          " found sizes it computes from this call's that do not fit (a "
          "slice outside its tensor, a slice's source or a result of other "
          "sizes than its place, or a temporary larger than a kernel may "
          "take of the stack); nothing was read or written out of bounds");
    }
    return InternalError(workgroup, " returned ", failed_code);
  }
  return OkStatus();
}

}  // namespace kiln
