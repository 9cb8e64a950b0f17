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

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"

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

 private:
  Status Execute(size_t function_index, const std::vector<Tensor>& inputs,
                 std::vector<Tensor>* outputs);

  std::shared_ptr<const Module> module_;
  ThreadPool* pool_;
  // Per-call state, kept to reuse its capacity.
  std::vector<Tensor> slots_;
  std::vector<void*> binding_ptrs_;
  std::vector<uint64_t> binding_lengths_;
};

}  // namespace kiln

#endif  // KILN_CONTEXT_H_
