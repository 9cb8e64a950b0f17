//===- tracing.cc - kiln.trace: the process's tracer from Python ---------===//

#include "tracing.h"

#include <nanobind/stl/string.h>

#include <memory>
#include <mutex>
#include <string>

#include "errors.h"
#include "kiln/trace.h"

namespace nb = nanobind;

namespace kiln::python {

namespace {

// The process's tracer, installed by StartTrace: calls hold the lock shared
// while they run, so a tracer is installed and flushed between calls only.
std::shared_mutex g_trace_mutex;
std::unique_ptr<Tracer> g_tracer;  // guarded by g_trace_mutex

}  // namespace

std::shared_lock<std::shared_mutex> HoldTracer() {
  return std::shared_lock<std::shared_mutex>(g_trace_mutex);
}

namespace {

void StartTrace(const std::string& spec, const std::string& stage,
                bool workgroup_zones, bool print_source) {
  TraceOptions options;
  options.stage = stage;
  options.workgroup_zones = workgroup_zones;
  options.print_source = print_source;
  nb::gil_scoped_release release;
  std::unique_lock<std::shared_mutex> lock(g_trace_mutex);
  if (g_tracer) throw Failure("a trace is already running");
  g_tracer = ValueOrThrow(CreateTracer(spec, options));
  SetTracer(g_tracer.get());
}

void StopTrace() {
  nb::gil_scoped_release release;
  std::unique_lock<std::shared_mutex> lock(g_trace_mutex);
  if (!g_tracer) return;
  Status flushed = g_tracer->Flush();
  SetTracer(nullptr);
  g_tracer.reset();
  ThrowIfError(flushed);
}

}  // namespace

void DefineTracing(nb::module_& m) {
  m.def("start_trace", &StartTrace, nb::arg("spec"), nb::arg("stage"),
        nb::arg("workgroup_zones"), nb::arg("print_source"));
  m.def("stop_trace", &StopTrace);
  m.attr("AVAILABLE_TRACERS") = std::string(AvailableTracers());
}

}  // namespace kiln::python
