//===- SourceSizeLimit.h - embedded texts a profiler can show -----*- C++ -*-===//
//
// Header-only so that every part of the compiler that embeds a text (stage
// captures, input files) warns the same way without linking KilnCapture.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CAPTURE_SOURCESIZELIMIT_H_
#define KILN_CAPTURE_SOURCESIZELIMIT_H_

#include "kiln/module_format.h"
#include "mlir/IR/Diagnostics.h"

#include <cstdint>

namespace mlir::kiln {

/// Texts above this size are beyond what Tracy transfers to its viewer.
inline constexpr uint64_t kProfilerSourceSizeLimit =
    KILN_TRACY_MAX_SOURCE_BYTES;

/// Warns at `loc` when the embedded text at `path` (a `kind` such as
/// "captured source" or "input file") of `size` bytes is too large for a
/// profiler to show. It is still embedded: kiln-dump and the other tracers
/// show it.
inline void warnIfAboveProfilerSourceSizeLimit(Location loc, StringRef kind,
                                               StringRef path, uint64_t size) {
  if (size <= kProfilerSourceSizeLimit)
    return;
  emitWarning(loc) << kind << " '" << path << "' is " << size
                   << " bytes, above the " << kProfilerSourceSizeLimit
                   << " bytes a profiler such as Tracy transfers; it is "
                      "embedded but Tracy will not show it";
}

} // namespace mlir::kiln

#endif // KILN_CAPTURE_SOURCESIZELIMIT_H_
