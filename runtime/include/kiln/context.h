//===- context.h - Running host functions --------------------------*- C++ -*-===//
//
// A Context runs the host functions of one Module: it checks the inputs,
// interprets the function's instructions (constants, dispatches, reshapes,
// releases, return) and hands back owned results. A Context runs one call at
// a time; use one per thread to call a Module concurrently.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTEXT_H_
#define KILN_CONTEXT_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "kiln/trace.h"

namespace kiln {

class Context {
 public:
  /// `pool` is borrowed and must outlive the context.
  Context(std::shared_ptr<const Module> module, ThreadPool* pool);

  const Module& module() const { return *module_; }

  /// Runs `function` on `inputs` (shared, not copied, and never written) and
  /// replaces `*outputs` with its results. Results never alias an input or
  /// the module's constants.
  Status Call(std::string_view function, const std::vector<Tensor>& inputs,
              std::vector<Tensor>* outputs);
  /// Same, by index into module().functions().
  Status Call(size_t function_index, const std::vector<Tensor>& inputs,
              std::vector<Tensor>* outputs);

  /// Runs one export on its own, outside any function (to debug a kernel):
  /// export `export_index` of executable `executable` over
  /// `workgroup_count`, with `bindings` in the export's order (inputs, then
  /// outputs), through the same path as a function's dispatches. The export
  /// must record its binding types; the count and each type must match
  /// exactly. Every binding must be an allocated (not borrowed) tensor: the
  /// module does not say which bindings a kernel writes, so any may be
  /// written in place. Each workgroup count entry must lie in [1, the
  /// export's]: compiled kernels derive their tile from the workgroup id
  /// without bounds checks, so a larger count would access memory out of
  /// bounds, while a smaller one runs a prefix of the workgroups.
  Status Dispatch(uint32_t executable, uint32_t export_index,
                  const std::array<uint32_t, 3>& workgroup_count,
                  const std::vector<Tensor>& bindings);
  /// Same, by export of this context's module (from Module::FindExport or
  /// GetExport), with the export's own workgroup count.
  Status Dispatch(const ExportView& export_view,
                  const std::vector<Tensor>& bindings);

  /// Called after every dispatch a function runs, with the export and its
  /// bindings (`input_count` inputs, then the results it just wrote), e.g. to
  /// save each dispatch as a reproducer. An error stops the call.
  using DispatchObserver = std::function<Status(
      const ExportView& export_view, const std::vector<Tensor>& bindings,
      size_t input_count)>;
  /// Sets (or, with nullptr, clears) the observer; none by default.
  void SetDispatchObserver(DispatchObserver observer) {
    dispatch_observer_ = std::move(observer);
  }

 private:
  Status Execute(size_t function_index, const std::vector<Tensor>& inputs,
                 std::vector<Tensor>* outputs);
  /// Builds the trace sites of every function and export for the process
  /// tracer, when it changed since the last call; false when tracing is off.
  bool PrepareTraceSites();

  std::shared_ptr<const Module> module_;
  ThreadPool* pool_;
  // Per-call state, kept to reuse its capacity.
  std::vector<Tensor> slots_;
  std::vector<void*> binding_ptrs_;
  std::vector<uint64_t> binding_lengths_;
  DispatchObserver dispatch_observer_;
  // What zones show, per function and per [executable][export], built for
  // `trace_sites_tracer_` (views into the module; see kiln/trace.h).
  const Tracer* trace_sites_tracer_ = nullptr;
  std::vector<TraceSite> function_sites_;
  std::vector<std::vector<TraceSite>> export_sites_;
};

}  // namespace kiln

#endif  // KILN_CONTEXT_H_
