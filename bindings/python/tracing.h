//===- tracing.h - kiln.trace: the process's tracer from Python ---*- C++ -*-===//
//
// One tracer at a time for the process (kiln/trace.h), installed and
// flushed between calls: a call holds the tracer for as long as it runs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BINDINGS_PYTHON_TRACING_H_
#define KILN_BINDINGS_PYTHON_TRACING_H_

#include <nanobind/nanobind.h>

#include <shared_mutex>

namespace kiln::python {

// Held (shared) by a call while it runs, the GIL released.
std::shared_lock<std::shared_mutex> HoldTracer();

// start_trace(spec, stage, workgroup_zones, print_source), stop_trace().
void DefineTracing(nanobind::module_& m);

}  // namespace kiln::python

#endif  // KILN_BINDINGS_PYTHON_TRACING_H_
