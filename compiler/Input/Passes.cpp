//===- Passes.cpp - input conversion pipeline ---------------------*- C++ -*-===//

#include "Input/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::kiln {

void buildInputConversionPassPipeline(OpPassManager &pm) {
  // Reject what cannot be compiled before anything rewrites it, so errors
  // point at the user's own ops.
  pm.addPass(createVerifyInputPass());
  // Host functions are straight-line programs: calls to private helpers are
  // inlined away.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  // arith/math on whole tensors become linalg.generic, the only elementwise
  // form dispatch formation fuses.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregateOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

}  // namespace mlir::kiln
