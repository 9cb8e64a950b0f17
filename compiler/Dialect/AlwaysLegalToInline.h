//===- AlwaysLegalToInline.h - Inliner interface, test dialects -*- C++ -*-===//
//
// IREE's test-format dialects (check, util, flow) hold ops that mean the
// same at a call site as in the helper that held them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_ALWAYSLEGALTOINLINE_H_
#define KILN_DIALECT_ALWAYSLEGALTOINLINE_H_

#include "mlir/Transforms/InliningUtils.h"

namespace mlir::kiln {

/// Every op of the dialect may be inlined.
struct AlwaysLegalToInline : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace mlir::kiln

#endif // KILN_DIALECT_ALWAYSLEGALTOINLINE_H_
