//===- StageLines.cpp - op locations tagged with their stage-text line ----===//

#include "Capture/StageLines.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::kiln {

Location tagWithStageLine(Location loc, FileLineColLoc stageLine) {
  return FusedLoc::get(loc.getContext(), {loc}, stageLine);
}

namespace {

/// Calls `onTag` with each stage line tagged in `loc` and `onFile` with
/// each file location outside the tags, outermost and leftmost first.
void visitStageLines(Location loc, function_ref<void(FileLineColLoc)> onTag,
                     function_ref<void(FileLineColLoc)> onFile) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    if (auto tag = dyn_cast_if_present<FileLineColLoc>(fused.getMetadata()))
      onTag(tag);
    for (Location nested : fused.getLocations())
      visitStageLines(nested, onTag, onFile);
  } else if (auto name = dyn_cast<NameLoc>(loc)) {
    visitStageLines(name.getChildLoc(), onTag, onFile);
  } else if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
    // An inlined op stands at its own line, the callee's.
    visitStageLines(callSite.getCallee(), onTag, onFile);
    visitStageLines(callSite.getCaller(), onTag, onFile);
  } else if (auto opaque = dyn_cast<OpaqueLoc>(loc)) {
    visitStageLines(opaque.getFallbackLocation(), onTag, onFile);
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    onFile(file);
  }
}

} // namespace

FileLineColLoc findStageLine(Location loc, StringRef path) {
  FileLineColLoc found;
  visitStageLines(
      loc,
      [&](FileLineColLoc tag) {
        if (!found && tag.getFilename() == path)
          found = tag;
      },
      [](FileLineColLoc) {});
  return found;
}

StageLineOrigin getStageLineOrigin(Location loc, StringRef previousPath) {
  StageLineOrigin origin;
  visitStageLines(
      loc,
      [&](FileLineColLoc tag) {
        if (tag.getFilename() == previousPath)
          origin.previousLines.push_back(tag.getLine());
      },
      [&](FileLineColLoc file) {
        if (!origin.input)
          origin.input = file;
      });
  llvm::sort(origin.previousLines);
  origin.previousLines.erase(llvm::unique(origin.previousLines),
                             origin.previousLines.end());
  return origin;
}

} // namespace mlir::kiln
