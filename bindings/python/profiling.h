//===- profiling.h - kiln.profile: sampled calls from Python ------*- C++ -*-===//
//
// While a profile runs, every call is sampled by a Profiler of its own
// (kiln/profiler.h) over the caller and its context's workers, and its
// samples are kept per module and function; one Profiler samples at a time
// per process, so profiled calls run one at a time. A stopped profile
// resolves the samples against each module (which it keeps alive) and
// shows them through kiln/profile_report.h at any captured stage.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BINDINGS_PYTHON_PROFILING_H_
#define KILN_BINDINGS_PYTHON_PROFILING_H_

#include <nanobind/nanobind.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"

namespace kiln::python {

// Whether a profile runs (calls then go through CallProfiled).
bool Profiling();

// Runs function `index` on `context` (whose workers are `pool`'s) under a
// Profiler and keeps its samples in the profile, or runs it plainly when
// the profile stopped meanwhile.
Status CallProfiled(Context& context, ThreadPool& pool,
                    const std::shared_ptr<const Module>& module, size_t index,
                    const std::vector<Tensor>& inputs,
                    std::vector<Tensor>* outputs);

// start_profile(hz), stop_profile() -> Profile.
void DefineProfiling(nanobind::module_& m);

}  // namespace kiln::python

#endif  // KILN_BINDINGS_PYTHON_PROFILING_H_
