//===- CaptureExecutableSources.cpp - stage texts of each variant ---------===//

#include "Capture/Passes.h"

#include "Capture/StageLines.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

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

/// `{previous = "...", input_files = [...], rows = array<i32: ...>}` with
/// `rows` sorted by (line, previous line, input file, input line) and
/// unique; `previous` is left out for the first stage.
DictionaryAttr
buildLineOrigins(Builder &builder, StringRef previousPath,
                 ArrayRef<std::pair<StringAttr, int32_t>> inputFiles,
                 SmallVector<int32_t> rows) {
  using Row = std::array<int32_t, 4>;
  MutableArrayRef<Row> quads(reinterpret_cast<Row *>(rows.data()),
                             rows.size() / 4);
  llvm::sort(quads);
  size_t unique = std::unique(quads.begin(), quads.end()) - quads.begin();
  rows.resize(unique * 4);
  SmallVector<Attribute> files;
  for (auto [file, index] : inputFiles)
    files.push_back(file);
  SmallVector<NamedAttribute> entries;
  if (!previousPath.empty())
    entries.push_back(builder.getNamedAttr(
        kLineOriginsPreviousName, builder.getStringAttr(previousPath)));
  entries.push_back(builder.getNamedAttr(kLineOriginsInputFilesName,
                                         builder.getArrayAttr(files)));
  entries.push_back(builder.getNamedAttr(kLineOriginsRowsName,
                                         builder.getDenseI32ArrayAttr(rows)));
  return builder.getDictionaryAttr(entries);
}

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

    // A detached executable holding this variant: printed as a top-level
    // op it is a complete, parseable file. The variant's body is lent to a
    // copy of the variant op made without it, and taken back once printed:
    // moving its block costs nothing, where copying the body cost a sixth
    // of the capture.
    OpBuilder builder(context);
    OwningOpRef<ExecutableOp> standalone = ExecutableOp::create(
        builder, executableOp.getLoc(), executableOp.getSymName());
    (*standalone)->setAttr(kStageAttrName, builder.getStringAttr(stage));
    Operation *shown = variantOp->cloneWithoutRegions();
    standalone->getBlock().push_back(shown);
    // Earlier captures are not part of the program text.
    shown->removeAttr(kSourcesAttrName);
    shown->removeAttr(kLineOriginsAttrName);
    SmallVector<std::pair<ExecutableExportOp, DictionaryAttr>> exportAttrs;
    for (ExecutableExportOp exportOp : variantOp.getExportOps()) {
      exportAttrs.emplace_back(exportOp,
                               exportOp->getDiscardableAttrDictionary());
      exportOp->removeDiscardableAttr(kSourceLocsAttrName);
      exportOp->removeDiscardableAttr(kProvenanceAttrName);
    }
    shown->getRegion(0).takeBody(variantOp.getBody());

    // The text is the program alone whatever printing flags the tool got.
    // The standalone executable has no parent module to satisfy its
    // verifier; the variant it shows was verified in place. It is printed
    // in a local scope: as a top-level op it would first go through MLIR's
    // alias pre-pass, a dummy print of every op that names repeated
    // attributes (`#map = affine_map<...>`), a quarter of the printing's
    // cost; the text spells them out instead. Only a text that refers to
    // resources (`dense_resource` constants) is printed again at the top
    // level, whose trailer carries their data.
    OpPrintingFlags flags;
    flags.enableDebugInfo(false)
        .printGenericOpForm(false)
        .skipRegions(false)
        .useLocalScope(true)
        .printValueUsers(false)
        .printUniqueSSAIDs(false)
        .printNameLocAsPrefix(false)
        .assumeVerified();
    // The printer records where each op starts: the variant's own ops,
    // back in place when the record is read for the entry lines and tags.
    std::string text;
    AsmState::LocationMap positions;
    // Prints the text; returns whether it refers to any resource.
    auto printReferringToResources = [&] {
      text.clear();
      positions.clear();
      llvm::raw_string_ostream os(text);
      AsmState state(*standalone, flags, &positions);
      (*standalone)->print(os, state);
      return llvm::any_of(state.getDialectResources(), [](const auto &entry) {
        return !entry.second.empty();
      });
    };
    if (printReferringToResources()) {
      flags.useLocalScope(false);
      printReferringToResources();
    }
    variantOp.getBody().takeBody(shown->getRegion(0));
    for (auto [exportOp, attrs] : exportAttrs)
      exportOp->setDiscardableAttrs(attrs);
    if (!StringRef(text).ends_with("\n"))
      text += "\n";
    warnIfAboveProfilerSourceSizeLimit(variantOp.getLoc(), "captured source",
                                       path, text.size());

    // Every location in the text names it: its path is uniqued once.
    StringAttr pathAttr = builder.getStringAttr(path);

    // Where each export's entry function landed in the text.
    ModuleOp innerModule = variantOp.getInnerModule();
    for (ExecutableExportOp exportOp : variantOp.getExportOps()) {
      Operation *entry = innerModule
                             ? innerModule.lookupSymbol(exportOp.getSymName())
                             : nullptr;
      auto position = positions.find(entry ? entry : exportOp.getOperation());
      if (position == positions.end()) {
        exportOp.emitError()
            << "cannot locate export in captured source '" << path << "'";
        return signalPassFailure();
      }
      addToDictionary(
          exportOp, kSourceLocsAttrName,
          builder.getNamedAttr(
              stage, FileLineColLoc::get(pathAttr, position->second.first,
                                         position->second.second)));
    }

    // Each op of the compiled IR keeps its location, tagged with its copy's
    // line: the next capture reads the tag back to say where its lines came
    // from, and the library's line tables point into the line stage's text.
    // Where this text's lines came from: the previous text's lines tagged
    // in each op's location, and its input location.
    std::string previousPath =
        previousStage.empty()
            ? std::string()
            : getCapturedSourcePath(moduleName, variantOp, previousStage);
    SmallVector<int32_t> rows;
    llvm::MapVector<StringAttr, int32_t> inputFiles;
    if (ModuleOp compiled = variantOp.getInnerModule())
      compiled->walk([&](Operation *op) {
        auto position = positions.find(op);
        if (position == positions.end())
          return;
        auto line = static_cast<int32_t>(position->second.first);
        StageLineOrigin origin = getStageLineOrigin(op->getLoc(), previousPath);
        int32_t inputFile = 0, inputLine = 0;
        if (origin.input) {
          inputFile =
              inputFiles
                  .try_emplace(origin.input.getFilename(), inputFiles.size())
                  .first->second;
          inputLine = origin.input.getLine();
        }
        if (origin.previousLines.empty())
          origin.previousLines.push_back(0);
        for (unsigned previousLine : origin.previousLines)
          rows.append(
              {line, static_cast<int32_t>(previousLine), inputFile, inputLine});
        op->setLoc(tagWithStageLine(
            op->getLoc(), FileLineColLoc::get(pathAttr, position->second.first,
                                              position->second.second)));
      });
    addToDictionary(
        variantOp, kLineOriginsAttrName,
        builder.getNamedAttr(path, buildLineOrigins(builder, previousPath,
                                                    inputFiles.getArrayRef(),
                                                    std::move(rows))));

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

} // namespace
} // namespace mlir::kiln
