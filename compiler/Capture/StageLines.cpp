//===- StageLines.cpp - op locations tagged with their stage-text line ----===//

#include "Capture/StageLines.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::kiln {

Location tagWithStageLine(Location loc, FileLineColLoc stageLine) {
  return FusedLoc::get(loc.getContext(), {loc}, stageLine);
}

FileLineColLoc findStageLine(Location loc) {
  auto tagged = loc->findInstanceOf<FusedLocWith<FileLineColLoc>>();
  return tagged ? tagged.getMetadata() : FileLineColLoc();
}

}  // namespace mlir::kiln
