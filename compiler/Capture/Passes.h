//===- Passes.h - source capture passes ---------------------------*- C++ -*-===//

#ifndef KILN_CAPTURE_PASSES_H_
#define KILN_CAPTURE_PASSES_H_

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::kiln {

#define GEN_PASS_DECL
#include "Capture/Passes.h.inc"

/// Texts above this size are beyond what Tracy transfers to its viewer.
inline constexpr size_t kProfilerSourceSizeLimit = 256 * 1024;

/// The path under which the text of `variantOp` at `stage` is stored.
std::string getCapturedSourcePath(StringRef moduleName,
                                  ExecutableVariantOp variantOp,
                                  StringRef stage);

#define GEN_PASS_REGISTRATION
#include "Capture/Passes.h.inc"

}  // namespace mlir::kiln

#endif  // KILN_CAPTURE_PASSES_H_
