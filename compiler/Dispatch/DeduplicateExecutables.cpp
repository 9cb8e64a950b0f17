//===- DeduplicateExecutables.cpp - one copy of identical kernels ---------===//

#include "Dispatch/Passes.h"

#include "llvm/ADT/StringMap.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_DEDUPLICATEEXECUTABLESPASS
#include "Dispatch/Passes.h.inc"

namespace {

/// Text of `executableOp` with every symbol it defines replaced by a
/// positional name, so executables that differ only in names print equal.
std::string printWithoutNames(ExecutableOp executableOp) {
  OwningOpRef<Operation *> clone(executableOp->clone());
  auto cloned = cast<ExecutableOp>(*clone);
  cloned.setSymName("executable");
  // The other CPUs' variants are copies of the first (OutlineDispatchRegions):
  // equal first variants make equal executables.
  for (auto variantOp : llvm::to_vector(
           llvm::drop_begin(cloned.getBlock().getOps<ExecutableVariantOp>())))
    variantOp.erase();
  for (auto variantOp : cloned.getBlock().getOps<ExecutableVariantOp>()) {
    for (auto exportOp : variantOp.getExportOps()) {
      std::string name =
          "export" + std::to_string(exportOp.getOrdinal().getZExtValue());
      if (ModuleOp innerModule = variantOp.getInnerModule())
        if (auto funcOp =
                innerModule.lookupSymbol<func::FuncOp>(exportOp.getSymName()))
          funcOp.setSymName(name);
      exportOp.setSymName(name);
      // Where the work came from does not make kernels different.
      exportOp->removeAttr(kProvenanceAttrName);
      exportOp->removeAttr(kProvenanceSitesAttrName);
      exportOp->removeAttr(kProvenanceKernelOpsAttrName);
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  cloned->print(os, OpPrintingFlags().useLocalScope());
  return text;
}

/// The kept export now computes the duplicate's work too: it inherits its
/// input ops (its own canonical location stays first), each numbered by the
/// dispatch it came from, so that a profile can give each dispatch sharing
/// the kernel its share.
void mergeProvenance(ExecutableExportOp kept, ExecutableExportOp duplicate) {
  auto keptOps = kept->getAttrOfType<ArrayAttr>(kProvenanceAttrName);
  auto duplicateOps = duplicate->getAttrOfType<ArrayAttr>(kProvenanceAttrName);
  if (!duplicateOps)
    return;
  // Each site lists all of its ops, even those another site shares (a
  // constant both read).
  SmallVector<Attribute> merged;
  SmallVector<int32_t> sites;
  if (keptOps) {
    llvm::append_range(merged, keptOps);
    if (auto keptSites =
            kept->getAttrOfType<DenseI32ArrayAttr>(kProvenanceSitesAttrName))
      llvm::append_range(sites, keptSites.asArrayRef());
    else
      sites.assign(keptOps.size(), 0);
  }
  int32_t site = sites.empty() ? 0 : *llvm::max_element(sites) + 1;
  llvm::append_range(merged, duplicateOps);
  sites.append(duplicateOps.size(), site);
  kept->setAttr(kProvenanceAttrName, ArrayAttr::get(kept.getContext(), merged));
  // Each entry keeps the kernel op it is computed by: the kernels are the
  // same, so the duplicate's positions are the kept one's.
  auto keptKernelOps =
      kept->getAttrOfType<DenseI32ArrayAttr>(kProvenanceKernelOpsAttrName);
  auto duplicateKernelOps =
      duplicate->getAttrOfType<DenseI32ArrayAttr>(kProvenanceKernelOpsAttrName);
  if (keptKernelOps && duplicateKernelOps) {
    SmallVector<int32_t> kernelOps(keptKernelOps.asArrayRef());
    llvm::append_range(kernelOps, duplicateKernelOps.asArrayRef());
    kept->setAttr(kProvenanceKernelOpsAttrName,
                  DenseI32ArrayAttr::get(kept.getContext(), kernelOps));
  } else {
    kept->removeAttr(kProvenanceKernelOpsAttrName);
  }
  kept->setAttr(kProvenanceSitesAttrName,
                DenseI32ArrayAttr::get(kept.getContext(), sites));
}

struct DeduplicateExecutablesPass
    : impl::DeduplicateExecutablesPassBase<DeduplicateExecutablesPass> {
  void runOnOperation() override {
    ModuleOp moduleOp = getOperation();
    llvm::StringMap<ExecutableOp> firstByText;
    // Entry point of a duplicate -> entry point of the executable kept.
    DenseMap<Attribute, SymbolRefAttr> replacements;
    SmallVector<ExecutableOp> duplicates;
    for (auto executableOp : moduleOp.getOps<ExecutableOp>()) {
      auto [it, inserted] = firstByText.try_emplace(
          printWithoutNames(executableOp), executableOp);
      if (inserted)
        continue;
      ExecutableOp kept = it->second;
      // Equal texts have their variants and exports in one order.
      for (auto [keptVariant, dupVariant] :
           llvm::zip(kept.getBlock().getOps<ExecutableVariantOp>(),
                     executableOp.getBlock().getOps<ExecutableVariantOp>()))
        for (auto [dupExport, keptExport] :
             llvm::zip(dupVariant.getExportOps(), keptVariant.getExportOps())) {
          auto from = SymbolRefAttr::get(
              executableOp.getSymNameAttr(),
              {FlatSymbolRefAttr::get(dupExport.getSymNameAttr())});
          replacements[from] = SymbolRefAttr::get(
              kept.getSymNameAttr(),
              {FlatSymbolRefAttr::get(keptExport.getSymNameAttr())});
          mergeProvenance(keptExport, dupExport);
        }
      duplicates.push_back(executableOp);
    }
    if (duplicates.empty())
      return;
    moduleOp.walk([&](DispatchOp dispatchOp) {
      auto it = replacements.find(dispatchOp.getEntryPoint());
      if (it != replacements.end())
        dispatchOp.setEntryPointAttr(it->second);
    });
    for (ExecutableOp executableOp : duplicates)
      executableOp.erase();
  }
};

} // namespace
} // namespace mlir::kiln
