//===- InputOps.cpp - the input program's ops, by location ----------------===//

#include "Dialect/Kiln/IR/InputOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

namespace mlir::kiln {

std::optional<FileLineColLoc> findFileLoc(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
      found = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void recordInputOps(ModuleOp moduleOp) {
  MLIRContext *context = moduleOp.getContext();
  llvm::SetVector<Attribute> entries;
  moduleOp.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == moduleOp.getOperation())
      return;
    std::optional<FileLineColLoc> loc = findFileLoc(op->getLoc());
    if (!loc)
      return;
    // An implicit body (linalg.broadcast's yield) is where its op is.
    Operation *parent = op->getParentOp();
    if (parent && findFileLoc(parent->getLoc()) == loc)
      return;
    unsigned lastLine = loc->getLine();
    op->walk([&](Operation *nested) {
      std::optional<FileLineColLoc> nestedLoc = findFileLoc(nested->getLoc());
      if (nestedLoc && nestedLoc->getFilename() == loc->getFilename())
        lastLine = std::max(lastLine, nestedLoc->getLine());
    });
    Location span =
        lastLine == loc->getLine()
            ? Location(*loc)
            : Location(FileLineColRange::get(loc->getFilename(), loc->getLine(),
                                             loc->getColumn(), lastLine, 0));
    entries.insert(NameLoc::get(
        StringAttr::get(context, op->getName().getStringRef()), span));
  });
  moduleOp->setAttr(kInputOpsAttrName,
                    ArrayAttr::get(context, entries.getArrayRef()));
}

InputOpTable::InputOpTable(ModuleOp moduleOp) {
  auto entries = moduleOp->getAttrOfType<ArrayAttr>(kInputOpsAttrName);
  if (!entries)
    return;
  for (Attribute entry : entries) {
    auto nameLoc = dyn_cast<NameLoc>(entry);
    auto range =
        nameLoc ? dyn_cast<FileLineColRange>(nameLoc.getChildLoc()) : nullptr;
    if (!range)
      continue;
    // The first op recorded at a location.
    ops.try_emplace(
        {range.getFilename(), range.getStartLine(), range.getStartColumn()},
        InputOp{nameLoc.getName(), range.getEndLine()});
  }
}

std::optional<InputOp> InputOpTable::lookup(FileLineColLoc loc) const {
  auto found = ops.find({loc.getFilename(), loc.getLine(), loc.getColumn()});
  if (found == ops.end())
    return std::nullopt;
  return found->second;
}

} // namespace mlir::kiln
