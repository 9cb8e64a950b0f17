//===- CaptureExecutableSources.cpp - stage texts of each variant ---------===//

#include "Capture/Passes.h"

#include "Capture/StageLines.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_CAPTUREEXECUTABLESOURCESPASS
#include "Capture/Passes.h.inc"

std::string getCapturedSourcePath(StringRef moduleName,
                                  ExecutableVariantOp variantOp,
                                  StringRef stage) {
  auto executableOp = variantOp->getParentOfType<ExecutableOp>();
  return (moduleName + "_" + executableOp.getSymName() + "_" +
          variantOp.getSymName() + "." + stage + ".mlir")
      .str();
}

namespace {

/// Adds `entry` to the dictionary attribute `name` of `op`.
void addToDictionary(Operation *op, StringRef name, NamedAttribute entry) {
  NamedAttrList entries;
  if (auto existing = op->getAttrOfType<DictionaryAttr>(name))
    entries.append(existing.getValue());
  entries.set(entry.getName(), entry.getValue());
  op->setAttr(name, entries.getDictionary(op->getContext()));
}

struct CaptureExecutableSourcesPass
    : impl::CaptureExecutableSourcesPassBase<CaptureExecutableSourcesPass> {
  using Base::Base;

  void runOnOperation() override {
    ExecutableVariantOp variantOp = getOperation();
    MLIRContext *context = &getContext();
    auto executableOp = variantOp->getParentOfType<ExecutableOp>();
    if (!executableOp) {
      variantOp.emitError("variant is not inside an executable");
      return signalPassFailure();
    }
    std::string path = getCapturedSourcePath(moduleName, variantOp, stage);

    // A detached executable holding a copy of this variant: printed as a
    // top-level op it is a complete, parseable file.
    OpBuilder builder(context);
    OwningOpRef<ExecutableOp> standalone =
        ExecutableOp::create(builder, executableOp.getLoc(),
                             executableOp.getSymName());
    (*standalone)->setAttr(kStageAttrName, builder.getStringAttr(stage));
    builder.setInsertionPointToStart(&standalone->getBlock());
    IRMapping cloned;
    auto clone =
        cast<ExecutableVariantOp>(builder.clone(*variantOp, cloned));
    // Earlier captures are not part of the program text.
    clone->removeAttr(kSourcesAttrName);
    for (ExecutableExportOp exportOp : clone.getExportOps()) {
      exportOp->removeAttr(kSourceLocsAttrName);
      exportOp->removeAttr(kProvenanceAttrName);
    }

    // The text is the program alone whatever printing flags the tool got.
    // The standalone executable has no parent module to satisfy its
    // verifier; the variant it copies was verified in place.
    OpPrintingFlags flags;
    flags.enableDebugInfo(false)
        .printGenericOpForm(false)
        .skipRegions(false)
        .useLocalScope(false)
        .printValueUsers(false)
        .printUniqueSSAIDs(false)
        .printNameLocAsPrefix(false)
        .assumeVerified();
    // Printed once; the printer records where each op starts. The clone is
    // dropped afterwards, so nothing is relocated: only the entry lines (and,
    // with `record-op-lines`, the tags) are read from that record.
    std::string text;
    AsmState::LocationMap positions;
    {
      llvm::raw_string_ostream os(text);
      AsmState state(*standalone, flags, &positions);
      (*standalone)->print(os, state);
    }
    if (!StringRef(text).ends_with("\n"))
      text += "\n";
    warnIfAboveProfilerSourceSizeLimit(variantOp.getLoc(), "captured source",
                                       path, text.size());

    // Where each export's entry function landed in the text.
    ModuleOp innerModule = clone.getInnerModule();
    for (auto [original, copied] :
         llvm::zip(variantOp.getExportOps(), clone.getExportOps())) {
      Operation *entry =
          innerModule ? innerModule.lookupSymbol(copied.getSymName()) : nullptr;
      auto position = positions.find(entry ? entry : copied.getOperation());
      if (position == positions.end()) {
        original.emitError() << "cannot locate export in captured source '"
                             << path << "'";
        return signalPassFailure();
      }
      addToDictionary(original, kSourceLocsAttrName,
                      builder.getNamedAttr(
                          stage, FileLineColLoc::get(context, path,
                                                     position->second.first,
                                                     position->second.second)));
    }

    // The line tables of the library point into this text: each op of the
    // compiled IR keeps its location, tagged with its copy's line.
    if (recordOpLines)
      if (ModuleOp compiled = variantOp.getInnerModule())
        compiled->walk([&](Operation *op) {
          auto position = positions.find(cloned.lookupOrNull(op));
          if (position == positions.end())
            return;
          op->setLoc(tagWithStageLine(
              op->getLoc(),
              FileLineColLoc::get(context, path, position->second.first,
                                  position->second.second)));
        });

    auto type = RankedTensorType::get({static_cast<int64_t>(text.size())},
                                      builder.getIntegerType(8));
    auto resource = DenseResourceElementsAttr::get(
        type, path,
        HeapAsmResourceBlob::allocateAndCopyInferAlign(
            ArrayRef<char>(text.data(), text.size())));
    addToDictionary(variantOp, kSourcesAttrName,
                    builder.getNamedAttr(path, resource));
    // Only the capture's own attributes changed, and no analysis reads them;
    // this also spares the pass manager verifying the whole variant again.
    markAllAnalysesPreserved();
  }
};

}  // namespace
}  // namespace mlir::kiln
