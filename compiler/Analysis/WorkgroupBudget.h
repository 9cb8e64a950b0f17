//===- WorkgroupBudget.h - how much work a workgroup takes ------*- C++ -*-===//
//
// The work one workgroup is given: dispatch formation sizes by it the image
// rows a convolution's workgroup pads (whether they fit a workgroup's
// share), and strategy selection the tiles it distributes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_ANALYSIS_WORKGROUPBUDGET_H_
#define KILN_ANALYSIS_WORKGROUPBUDGET_H_

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>

namespace mlir::kiln {

/// Output elements one workgroup computes, when each costs `reduction`
/// multiply-adds (or other steps): enough work to amortize its scheduling,
/// fewer elements for longer reductions.
int64_t getWorkgroupOutputBudget(int64_t reduction);

/// Elements of `type` counting each dimension known only at run time (a
/// batch) as one.
int64_t getStaticElementCount(ShapedType type);

} // namespace mlir::kiln

#endif // KILN_ANALYSIS_WORKGROUPBUDGET_H_
