//===- Passes.h - input conversion passes -------------------------*- C++ -*-===//

#ifndef KILN_INPUT_PASSES_H_
#define KILN_INPUT_PASSES_H_

#include "Dialect/IREETestFormat/Check/IR/CheckDialect.h"
#include "Dialect/IREETestFormat/Flow/IR/FlowDialect.h"
#include "Dialect/IREETestFormat/Util/IR/UtilDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Input/Passes.h.inc"

/// Patterns rewriting softmax, pad and concat into simpler ops.
void populateDecomposeAggregateOpsPatterns(RewritePatternSet &patterns);

/// Patterns giving values of compile-time known shape their static types:
/// IREE's shape ties, casts through barriers and checks, and the shape
/// canonicalizations of arith, linalg and tensor.
void populateRefineStaticShapesPatterns(RewritePatternSet &patterns);

/// Adds the passes that bring an input program to the form global
/// optimization expects: verified, inlined, elementwise tensor math as linalg,
/// aggregate ops decomposed. `strictTosa`: TOSA ops with element types outside
/// the target's profiles are errors (warnings otherwise).
void buildInputConversionPassPipeline(OpPassManager &pm, bool strictTosa);

#define GEN_PASS_REGISTRATION
#include "Input/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_INPUT_PASSES_H_
