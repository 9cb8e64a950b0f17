//===- Passes.h - pipeline passes ---------------------------------*- C++ -*-===//

#ifndef KILN_PIPELINE_PASSES_H_
#define KILN_PIPELINE_PASSES_H_

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Pipeline/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Pipeline/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_PIPELINE_PASSES_H_
