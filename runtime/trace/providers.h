//===- providers.h - Tracing providers ----------------------------*- C++ -*-===//

#ifndef KILN_RUNTIME_TRACE_PROVIDERS_H_
#define KILN_RUNTIME_TRACE_PROVIDERS_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "kiln/status.h"
#include "kiln/trace.h"

namespace kiln {

/// Monotonic time for zone begin and end, in nanoseconds.
inline uint64_t NowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A line per dispatch on stderr and a per-export summary at Flush.
std::unique_ptr<Tracer> CreateConsoleTracer(TraceOptions options);
/// Like CreateConsoleTracer, writing to `out` (for tests).
std::unique_ptr<Tracer> CreateConsoleTracer(TraceOptions options, FILE* out);

/// Chrome Trace Event JSON streamed to `path` as events accumulate, made
/// complete (thread names and the texts its events point at) at Flush.
std::unique_ptr<Tracer> CreateChromeTracer(std::string path,
                                           TraceOptions options);

/// Opens `path` for a chrome trace, created if missing and emptied if
/// `truncate`: a descriptor, or an error naming the file. The trace is
/// rewritten in place (pwrite), so a FIFO or socket is refused, without
/// waiting for a reader to open its other end.
StatusOr<int> OpenChromeTraceFile(const std::string& path, bool truncate);

#ifdef KILN_HAVE_TRACY
/// Zones and source texts for the Tracy profiler.
std::unique_ptr<Tracer> CreateTracyTracer(TraceOptions options);
#endif

}  // namespace kiln

#endif  // KILN_RUNTIME_TRACE_PROVIDERS_H_
