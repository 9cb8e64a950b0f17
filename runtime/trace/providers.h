//===- providers.h - Tracing providers ----------------------------*- C++ -*-===//

#ifndef KILN_RUNTIME_TRACE_PROVIDERS_H_
#define KILN_RUNTIME_TRACE_PROVIDERS_H_

#include <cstdio>
#include <memory>
#include <string>

#include "kiln/trace.h"

namespace kiln {

/// A line per dispatch on stderr and a per-export summary at Flush.
std::unique_ptr<Tracer> CreateConsoleTracer(TraceOptions options);
/// Like CreateConsoleTracer, writing to `out` (for tests).
std::unique_ptr<Tracer> CreateConsoleTracer(TraceOptions options, FILE* out);

/// Chrome Trace Event JSON written to `path` at Flush, embedding the texts
/// its events point at.
std::unique_ptr<Tracer> CreateChromeTracer(std::string path,
                                           TraceOptions options);

#ifdef KILN_HAVE_TRACY
/// Zones and source texts for the Tracy profiler.
std::unique_ptr<Tracer> CreateTracyTracer(TraceOptions options);
#endif

}  // namespace kiln

#endif  // KILN_RUNTIME_TRACE_PROVIDERS_H_
