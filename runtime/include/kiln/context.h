//===- context.h - Running host functions --------------------------*- C++ -*-===//
//
// A Context runs the host functions of one Module: it checks the inputs,
// interprets the function's instructions (constants, dispatches, reshapes,
// releases, branches, checks, return) and hands back owned results. A
// Context runs one call at a time; use one per thread to call a Module
// concurrently.
//
// Dispatch results go where the module's plan puts them: intermediates into
// the function's buffers, which the Context allocates on the first call that
// needs them and keeps for the next (shared by all its functions: a buffer
// holds nothing from one call to the next), results into new storage the
// caller then owns. So a call in the steady state allocates only what it
// returns. Every byte comes from the Context's Allocator (kiln/allocator.h).
//
// Check instructions (IREE's check.expect_*, compiled from test programs)
// go to the CheckHandler set on the Context (kiln/check_handler.h); the core
// runtime gives them no meaning of its own.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTEXT_H_
#define KILN_CONTEXT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "kiln/allocator.h"
#include "kiln/check_handler.h"
#include "kiln/debug_info.h"
#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"

namespace kiln {

/// Whether `inputs` match `signature` in number, element type and shape:
/// what Context::Call checks before it runs anything, with the same errors
/// ("main(8xf32) -> (8xf32) takes 1 inputs, got 2", "input 0: expected
/// 8xf32, got 4xf32"), for a caller that wants to know before it starts.
Status CheckInputs(const FunctionSignature& signature,
                   const std::vector<Tensor>& inputs);
/// Same for the types of inputs not yet allocated (kiln/tensor_io.h's
/// ParseTensorValueType), so that a wrong shape is refused before a tensor
/// of it is allocated.
Status CheckInputTypes(const FunctionSignature& signature,
                       const std::vector<TensorType>& types);

class Context {
 public:
  /// `pool` is borrowed and must outlive the context. Buffers and results
  /// come from `allocator` (null: Allocator::Default()), which the results
  /// keep alive.
  Context(std::shared_ptr<const Module> module, ThreadPool* pool,
          std::shared_ptr<Allocator> allocator = nullptr);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Module& module() const;

  /// Runs `function` on `inputs` (shared, not copied, and never written) and
  /// replaces `*outputs` with its results. Results never alias an input, the
  /// module's constants or the Context's buffers: a caller may keep them
  /// across calls. Branches may loop for as long as the program
  /// says (there is no step limit). Reading a slot that holds nothing (in a
  /// function with branches, the verifier cannot rule it out) fails the call:
  /// "function 'f' instruction 7: slot 3 read before it was written". A
  /// function with check instructions needs a check handler
  /// (SetCheckHandler); without one the call fails before it runs anything.
  /// So does reading a slot whose buffer a dispatch has written again since,
  /// or running a dispatch with an operand in the buffer a result is written
  /// into (the verifier refuses both in functions without branches).
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
  /// export's] (over dynamic extents, the grid these bindings need):
  /// compiled kernels derive their tile from the workgroup id without
  /// bounds checks, so a larger count would access memory out of bounds,
  /// while a smaller one runs a prefix of the workgroups.
  /// `index_constants` are the index values the export takes after its
  /// bindings' dynamic extents (ExportView::index_constant_count of them).
  Status Dispatch(uint32_t executable, uint32_t export_index,
                  const std::array<uint32_t, 3>& workgroup_count,
                  const std::vector<Tensor>& bindings,
                  const std::vector<int64_t>& index_constants = {});
  /// Same, by export of this context's module (from Module::FindExport or
  /// GetExport), with the export's own workgroup count: for a kernel over
  /// dynamic extents, the count these bindings need.
  Status Dispatch(const ExportView& export_view,
                  const std::vector<Tensor>& bindings,
                  const std::vector<int64_t>& index_constants = {});

  /// Called after every dispatch a function runs, with the export and its
  /// bindings (`input_count` inputs, then the results it just wrote) and the
  /// index constants it passed, e.g. to save each dispatch as a reproducer. The bindings are valid during the
  /// observer's call only (a buffer is written again by later dispatches).
  /// An error stops the call.
  using DispatchObserver = std::function<Status(
      const ExportView& export_view, const std::vector<Tensor>& bindings,
      size_t input_count, const std::vector<int64_t>& index_constants)>;
  /// Sets (or, with nullptr, clears) the observer; none by default.
  void SetDispatchObserver(DispatchObserver observer);

  /// Where check instructions go (borrowed; must outlive the calls that use
  /// it); nullptr, the default, leaves functions with checks unable to run.
  void SetCheckHandler(CheckHandler* handler);

 private:
  class Impl;  // module/context.cc
  std::unique_ptr<Impl> impl_;
};

}  // namespace kiln

#endif  // KILN_CONTEXT_H_
