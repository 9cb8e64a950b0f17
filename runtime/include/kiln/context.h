//===- context.h - Running host functions --------------------------*- C++ -*-===//
//
// A Context runs the host functions of one Module: it checks the inputs,
// interprets the function's instructions (constants, dispatches, reshapes,
// releases, branches, checks, return) and hands back owned results. A
// Context runs one call at a time; use one per thread to call a Module
// concurrently.
//
// Checks (IREE's check.expect_*, compiled from test programs) never stop a
// function: a failing check is recorded on the Context, with where it is and
// what it expected and got, and the function goes on. See check_failures().
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONTEXT_H_
#define KILN_CONTEXT_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "kiln/trace.h"

namespace kiln {

namespace fb {
struct DispatchOp;  // schema/module.fbs
}  // namespace fb
struct FunctionPlan;  // module/module_impl.h

/// What a check asserts; the values equal those of kiln::fb::CheckKind in
/// schema/module.fbs.
enum class CheckKind : uint8_t {
  kTrue = 0,         // a 0-d integer tensor is nonzero
  kFalse = 1,        // a 0-d integer tensor is zero
  kAllTrue = 2,      // every element of an integer tensor is nonzero
  kEqual = 3,        // lhs == rhs bytewise (NaNs with equal bits are equal)
  kAlmostEqual = 4,  // floats: |lhs - rhs| <= atol + rtol * |rhs| everywhere
};
/// IREE's name of the check: "expect_true", "expect_false",
/// "expect_all_true", "expect_eq", "expect_almost_eq".
std::string_view CheckKindName(CheckKind kind);

/// A check that failed while a function ran.
struct CheckFailure {
  /// The function that ran the check and the check's instruction index.
  std::string function;
  uint32_t instruction = 0;
  CheckKind kind = CheckKind::kTrue;
  /// "file:line:column" of the check in the input program, as the module
  /// records it; may be empty.
  std::string location;
  /// What was expected and what was got, e.g. for kEqual
  ///   expected 2x2xi32=[1 2][3 4], got 2x2xi32=[1 2][3 5]; first
  ///   difference at [1, 1]: expected 4, got 5
  /// (rhs is the expected value, lhs the one got). Tensors are printed as
  /// kiln-run prints them, cut after 32 elements ("..."); kAlmostEqual adds
  /// the largest absolute difference and the tolerances, kAllTrue the index
  /// of the first zero.
  std::string message;

  /// "check failed at LOCATION: MESSAGE"; without a location, LOCATION is
  /// "function 'f' instruction N".
  std::string ToString() const;
};

/// Whether `inputs` match `signature` in number, element type and shape:
/// what Context::Call checks before it runs anything, with the same errors
/// ("main(8xf32) -> (8xf32) takes 1 inputs, got 2", "input 0: expected
/// 8xf32, got 4xf32"), for a caller that wants to know before it starts.
Status CheckInputs(const FunctionSignature& signature,
                   const std::vector<Tensor>& inputs);

class Context {
 public:
  /// `pool` is borrowed and must outlive the context.
  Context(std::shared_ptr<const Module> module, ThreadPool* pool);

  const Module& module() const { return *module_; }

  /// Runs `function` on `inputs` (shared, not copied, and never written) and
  /// replaces `*outputs` with its results. Results never alias an input or
  /// the module's constants. Branches may loop for as long as the program
  /// says (there is no step limit). Reading a slot that holds nothing (in a
  /// function with branches, the verifier cannot rule it out) fails the call:
  /// "function 'f' instruction 7: slot 3 read before it was written". Failing
  /// checks do not fail the call; see check_failures().
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

  /// Check failures recorded by calls on this context, oldest first. They
  /// accumulate across calls (a failing check does not make Call fail) until
  /// ClearCheckFailures(). At most kMaxRecordedCheckFailures are kept (a
  /// check failing in every iteration of a long loop must not exhaust
  /// memory); check_failure_count() counts every failure.
  const std::vector<CheckFailure>& check_failures() const {
    return check_failures_;
  }
  size_t check_failure_count() const { return check_failure_count_; }
  void ClearCheckFailures() {
    check_failures_.clear();
    check_failure_count_ = 0;
  }
  static constexpr size_t kMaxRecordedCheckFailures = 1000;

 private:
  Status Execute(size_t function_index, const std::vector<Tensor>& inputs,
                 std::vector<Tensor>* outputs);
  /// Runs the DispatchOp at instruction `pc` of function `name`.
  Status RunDispatchOp(const fb::DispatchOp& op, const FunctionPlan& plan,
                       const std::string& name, uint32_t pc);
  void RecordCheckFailure(const std::string& function, uint32_t instruction,
                          CheckKind kind, std::string_view location,
                          std::string message);
  /// Builds the trace sites of every function and export for the process
  /// tracer, when it changed since the last call; false when tracing is off.
  bool PrepareTraceSites();

  std::shared_ptr<const Module> module_;
  ThreadPool* pool_;
  // Per-call state, kept to reuse its capacity.
  std::vector<Tensor> slots_;
  std::vector<Tensor> dispatch_results_;
  std::vector<void*> binding_ptrs_;
  std::vector<uint64_t> binding_lengths_;
  DispatchObserver dispatch_observer_;
  std::vector<CheckFailure> check_failures_;
  size_t check_failure_count_ = 0;
  // What zones show, per function and per [executable][export], built for
  // `trace_sites_tracer_` (views into the module; see kiln/trace.h).
  const Tracer* trace_sites_tracer_ = nullptr;
  std::vector<TraceSite> function_sites_;
  std::vector<std::vector<TraceSite>> export_sites_;
};

}  // namespace kiln

#endif  // KILN_CONTEXT_H_
