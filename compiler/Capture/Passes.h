//===- Passes.h - capturing and printing stage texts ------------*- C++ -*-===//

#ifndef KILN_CAPTURE_PASSES_H_
#define KILN_CAPTURE_PASSES_H_

#include "Capture/InputFiles.h"
#include "Capture/SourceSizeLimit.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Capture/Passes.h.inc"

/// The path under which the text of `variantOp` at `stage` is stored.
std::string getCapturedSourcePath(StringRef moduleName,
                                  ExecutableVariantOp variantOp,
                                  StringRef stage);

#define GEN_PASS_REGISTRATION
#include "Capture/Passes.h.inc"

} // namespace mlir::kiln

#endif // KILN_CAPTURE_PASSES_H_
