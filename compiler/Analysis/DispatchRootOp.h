//===- DispatchRootOp.h - the op that names a dispatch's work ---*- C++ -*-===//
//
// Which op of a dispatch body is its work: dispatch outlining names the
// dispatch after it, and strategy selection plans the kernel around it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_ANALYSIS_DISPATCHROOTOP_H_
#define KILN_ANALYSIS_DISPATCHROOTOP_H_

#include "mlir/IR/Region.h"

namespace mlir::kiln {

/// The op that names and characterizes the work of a dispatch body: its most
/// expensive linalg op (contraction, convolution, reduction, named op) or,
/// failing that, its last compute op.
Operation *findDispatchRootOp(Region &body);

} // namespace mlir::kiln

#endif // KILN_ANALYSIS_DISPATCHROOTOP_H_
