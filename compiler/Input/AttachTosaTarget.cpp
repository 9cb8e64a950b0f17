//===- AttachTosaTarget.cpp - the TOSA target kiln implements -------------===//

#include "Input/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_ATTACHTOSATARGETPASS
#include "Input/Passes.h.inc"

namespace {

struct AttachTosaTargetPass
    : impl::AttachTosaTargetPassBase<AttachTosaTargetPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module->hasAttr(tosa::TargetEnvAttr::name))
      return;
    using tosa::Extension;
    // Not fp8, int4, variable, mxfp or dynamic shapes: kiln has no such
    // element types, state or shapes.
    const Extension extensions[] = {Extension::int16, Extension::bf16,
                                    Extension::fft, Extension::controlflow,
                                    Extension::doubleround};
    const tosa::Profile profiles[] = {tosa::Profile::pro_int,
                                      tosa::Profile::pro_fp};
    module->setAttr(tosa::TargetEnvAttr::name,
                    tosa::TargetEnvAttr::get(
                        &getContext(), tosa::SpecificationVersion::V_1_0,
                        tosa::Level::none, profiles, extensions));
  }
};

} // namespace
} // namespace mlir::kiln
