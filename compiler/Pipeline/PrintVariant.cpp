//===- PrintVariant.cpp - print each variant at a stage -------------------===//

#include "Pipeline/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_PRINTVARIANTPASS
#include "Pipeline/Passes.h.inc"

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
    // The pass manager verified the variant; verifying again here would
    // read IR that passes on other executables are changing meanwhile.
    variantOp->print(os, OpPrintingFlags().assumeVerified());
    os << "\n";
    llvm::errs() << text;
    markAllAnalysesPreserved();
  }
};

}  // namespace
}  // namespace mlir::kiln
