//===- Passes.cpp - input conversion pipeline ---------------------*- C++ -*-===//

#include "Input/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::kiln {

void buildInputConversionPassPipeline(OpPassManager &pm, bool strictTosa) {
  // Before anything renames an op or moves its body.
  pm.addPass(createRecordInputOpsPass());
  // TOSA first, through upstream MLIR: control flow to scf, then ops to
  // linalg, tensor and arith. Ops it cannot convert are reported at their
  // location; element types outside the target's profiles are refused only
  // when strict (warned about otherwise).
  pm.addPass(createAttachTosaTargetPass());
  VerifyTosaInputPassOptions verifyOptions;
  verifyOptions.strict = strictTosa;
  pm.addPass(createVerifyTosaInputPass(verifyOptions));
  pm.addNestedPass<func::FuncOp>(createTosaToSCFPass());
  // Validation in the conversion only when strict: when lenient, the
  // verification above has validated already.
  std::optional<tosa::TosaValidationOptions> validation;
  if (strictTosa)
    validation = tosa::TosaValidationOptions{
        /*strictOpSpecAlignment=*/false,
        /*allowInvalidOpDatatypeCombinations=*/false};
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(), validation);
  // tosa.apply_scale (from tosa.rescale, integer tosa.mul with a shift and
  // integer pooling) is kept by default for backends that have it natively.
  TosaToArithPassOptions arithOptions;
  arithOptions.includeApplyRescale = true;
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass(arithOptions));
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  // The conversions read tosa.const_shape operands but leave the ops behind,
  // dead.
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  // IREE's test-format helpers become plain constants and checks.
  pm.addPass(createConvertTestOpsPass());
  // Host functions do not call: calls to private helpers are inlined away,
  // after which shapes that only the call sites knew are static.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addNestedPass<func::FuncOp>(createRefineStaticShapesPass());
  // Reject what cannot be compiled before kiln rewrites it further, so
  // errors point at the user's own ops.
  pm.addPass(createVerifyInputPass());
  // Host scalars (loop counters, conditions) become 0-d tensors computed by
  // dispatches; counted loops become while loops first.
  pm.addNestedPass<func::FuncOp>(createForToWhileLoopPass());
  pm.addNestedPass<func::FuncOp>(createConvertHostScalarsToTensorsPass());
  // arith/math on whole tensors become linalg.generic, the only elementwise
  // form dispatch formation fuses.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregateOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

} // namespace mlir::kiln
