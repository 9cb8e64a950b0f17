//===- dispatch.h - Runs one dispatch over the thread pool ---------*- C++ -*-===//
//
// The single place where a dispatch starts and ends: tracing zones and other
// per-dispatch instrumentation belong in RunDispatch.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_CPU_DISPATCH_H_
#define KILN_RUNTIME_CPU_DISPATCH_H_

#include <cstdint>
#include <string_view>

#include "kiln/executable_library.h"
#include "kiln/status.h"
#include "kiln/thread_pool.h"
#include "kiln/trace.h"

namespace kiln {

/// Everything needed to run one dispatch. Pointers are borrowed for the
/// duration of RunDispatch.
struct DispatchParams {
  /// For error messages (and, later, trace zones).
  std::string_view export_name;
  kiln_dispatch_fn_v0_t function = nullptr;
  uint32_t workgroup_count[3] = {1, 1, 1};
  uint32_t binding_count = 0;
  void* const* binding_ptrs = nullptr;
  const uint64_t* binding_lengths = nullptr;
  /// The bindings' dynamic extents (kiln_dispatch_state_v0_t::constants).
  uint32_t constant_count = 0;
  const int64_t* constants = nullptr;
  /// The zone of this dispatch when tracing (null otherwise).
  const TraceSite* trace_site = nullptr;
};

/// Runs every workgroup of the dispatch (x fastest, then y, then z) across
/// `pool`. If any workgroup returns nonzero, the remaining ones are skipped
/// and the error names the export, the workgroup and its return code.
Status RunDispatch(ThreadPool& pool, const DispatchParams& params);

}  // namespace kiln

#endif  // KILN_RUNTIME_CPU_DISPATCH_H_
