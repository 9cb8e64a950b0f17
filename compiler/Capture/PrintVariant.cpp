//===- PrintVariant.cpp - print each variant at a stage -------------------===//

#include "Capture/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_PRINTVARIANTPASS
#include "Capture/Passes.h.inc"

namespace {

struct PrintVariantPass : impl::PrintVariantPassBase<PrintVariantPass> {
  using Base::Base;

  void runOnOperation() override {
    ExecutableVariantOp variantOp = getOperation();
    auto executableOp = variantOp->getParentOfType<ExecutableOp>();
    if (!executableOp) {
      variantOp.emitError("variant is not inside an executable");
      return signalPassFailure();
    }
    // Built whole and written at once: variants of different executables
    // run on different threads, and their texts must not interleave.
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "// -----// ";
    if (!stage.empty())
      os << stage << " ";
    os << executableOp.getSymName() << "::" << variantOp.getSymName()
       << " //----- //\n";
    // Numbered and verified alone: the enclosing module holds other
    // executables that passes on other threads are changing meanwhile (the
    // pass manager verified this variant already).
    variantOp->print(os, OpPrintingFlags().useLocalScope().assumeVerified());
    os << "\n";
    llvm::errs() << text;
    markAllAnalysesPreserved();
  }
};

} // namespace
} // namespace mlir::kiln
