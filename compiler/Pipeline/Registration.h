//===- Registration.h - dialects and passes kiln tools load -------*- C++ -*-===//

#ifndef KILN_PIPELINE_REGISTRATION_H_
#define KILN_PIPELINE_REGISTRATION_H_

#include "mlir/IR/DialectRegistry.h"

namespace mlir::kiln {

/// Every dialect an input program, kiln's own IR or a captured stage may
/// contain, with the interfaces (bufferization, tiling, LLVM translation)
/// the pipeline needs.
void registerAllDialects(DialectRegistry &registry);

/// kiln passes plus the upstream passes tests and pipelines use.
void registerAllPasses();

} // namespace mlir::kiln

#endif // KILN_PIPELINE_REGISTRATION_H_
