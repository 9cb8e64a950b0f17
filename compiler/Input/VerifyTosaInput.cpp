//===- VerifyTosaInput.cpp - TOSA ops kiln cannot compile, by name --------===//

#include "Input/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

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

/// What TOSA validation says of an op whose element types no profile or
/// extension of the target allows.
constexpr StringLiteral kOutsideProfiles =
    "did not align with any profile or extension";

/// What it says of an operand the specification wants constant (a table, a
/// pad value): upstream lowers the computed value all the same, or reports
/// the op it cannot.
constexpr StringLiteral kNotConstant =
    "expected compile time resolvable constant";

struct VerifyTosaInputPass
    : impl::VerifyTosaInputPassBase<VerifyTosaInputPass> {
  using Base::Base;

  /// Runs TOSA validation (which only reads the IR), reporting the ops it
  /// finds outside the target's profiles or with computed operands the
  /// specification wants constant as warnings; its other findings stay
  /// errors. Returns whether there were none of those (the conversion runs
  /// no validation of its own when lenient).
  bool validateWarningOutsideProfiles() {
    bool otherErrors = false;
    ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
      std::string message = diag.str();
      if (diag.getSeverity() != DiagnosticSeverity::Error ||
          (!StringRef(message).contains(kOutsideProfiles) &&
           !StringRef(message).contains(kNotConstant))) {
        otherErrors |= diag.getSeverity() == DiagnosticSeverity::Error;
        return failure(); // not ours: reported as it is
      }
      if (size_t at = message.find(" op illegal: "); at != std::string::npos)
        message.replace(at, 13, " leaves the target's TOSA profiles: ");
      emitWarning(diag.getLocation())
          << message
          << " (compiled as upstream lowers it; --tosa-validation=strict "
             "refuses it)";
      return success();
    });
    OpPassManager validation(ModuleOp::getOperationName());
    validation.addPass(tosa::createTosaValidation(
        tosa::TosaValidationOptions{/*strictOpSpecAlignment=*/false,
                                    /*allowInvalidOpDatatypeCombinations=*/
                                    false}));
    (void)runPipeline(validation, getOperation());
    return !otherErrors;
  }

  void runOnOperation() override {
    bool failed = !strict && !validateWarningOutsideProfiles();
    getOperation()->walk([&](Operation *op) {
      StringRef reason = unsupportedReason(op);
      if (reason.empty())
        return;
      op->emitError() << "'" << op->getName()
                      << "' is not supported: " << reason;
      failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
