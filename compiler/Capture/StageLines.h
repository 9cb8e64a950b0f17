//===- StageLines.h - op locations tagged with their stage-text line -*- C++ -*-===//
//
// The capture at the line stage (`--executable-debug-line-stage`) tags each
// op's location with where the op stands in that stage's text; the library
// builder turns the tags into DWARF line tables. The original location stays
// inside the tag, so diagnostics and every other reader still see it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CAPTURE_STAGELINES_H_
#define KILN_CAPTURE_STAGELINES_H_

#include "mlir/IR/Location.h"

namespace mlir::kiln {

/// `loc` tagged with `stageLine`: `loc(fused<stageLine>[loc])`.
Location tagWithStageLine(Location loc, FileLineColLoc stageLine);

/// The first stage line tagged anywhere in `loc` (a pass may have fused the
/// locations of several tagged ops), or null.
FileLineColLoc findStageLine(Location loc);

}  // namespace mlir::kiln

#endif  // KILN_CAPTURE_STAGELINES_H_
