//===- StageLines.h - op locations tagged with their stage-text line -*- C++ -*-===//
//
// Each capture tags each op's location with where the op stands in that
// stage's text. The tags of one stage are how the next capture knows which
// lines of the text before an op came from (the cross-stage line maps), and
// the tags of the line stage (`--executable-debug-line-stage`) are what the
// library builder turns into DWARF line tables. The original location stays
// inside the tags, so diagnostics and every other reader still see it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CAPTURE_STAGELINES_H_
#define KILN_CAPTURE_STAGELINES_H_

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::kiln {

/// `loc` tagged with `stageLine`: `loc(fused<stageLine>[loc])`.
Location tagWithStageLine(Location loc, FileLineColLoc stageLine);

/// The first line of the text at `path` tagged anywhere in `loc` (a pass may
/// have fused the locations of several tagged ops), or null.
FileLineColLoc findStageLine(Location loc, StringRef path);

/// Where the op at `loc` came from.
struct StageLineOrigin {
  /// Lines of the text at the given path tagged in `loc`, ascending, unique.
  SmallVector<unsigned, 2> previousLines;
  /// The first file location outside every tag: the op's line in the input
  /// program (null if it has none).
  FileLineColLoc input;
};
StageLineOrigin getStageLineOrigin(Location loc, StringRef previousPath);

} // namespace mlir::kiln

#endif // KILN_CAPTURE_STAGELINES_H_
