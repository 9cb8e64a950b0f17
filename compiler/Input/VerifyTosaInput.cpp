//===- VerifyTosaInput.cpp - TOSA ops kiln cannot compile, by name --------===//

#include "Input/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_VERIFYTOSAINPUTPASS
#include "Input/Passes.h.inc"

namespace {

/// Why kiln cannot compile `op`, or "" when it can.
StringRef unsupportedReason(Operation *op) {
  if (isa<tosa::ScatterOp>(op))
    return "its conversion reads and writes tensor elements at computed "
           "positions on the host";
  if (isa<tosa::VariableOp, tosa::VariableReadOp, tosa::VariableWriteOp>(op))
    return "kiln modules hold no state between calls";
  if (isa<tosa::CustomOp>(op))
    return "a custom op has no lowering";
  return "";
}

struct VerifyTosaInputPass
    : impl::VerifyTosaInputPassBase<VerifyTosaInputPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      StringRef reason = unsupportedReason(op);
      if (reason.empty())
        return;
      op->emitError() << "'" << op->getName() << "' is not supported: "
                      << reason;
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

}  // namespace
}  // namespace mlir::kiln
