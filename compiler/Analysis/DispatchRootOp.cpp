//===- DispatchRootOp.cpp - the op that names a dispatch's work -----------===//

#include "Analysis/DispatchRootOp.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::kiln {

namespace {

bool isComputeOp(Operation *op) {
  return isa<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp,
             tensor::InsertSliceOp, tensor::ExtractSliceOp>(op);
}

/// True for ops that carry the real work of a dispatch, as opposed to
/// elementwise epilogues and initializations.
bool isHeavyOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::FillOp>(op))
    return false;
  return !isa<linalg::GenericOp>(op) || linalgOp.getNumReductionLoops() > 0 ||
         !linalg::isElementwise(linalgOp);
}

} // namespace

Operation *findDispatchRootOp(Region &body) {
  Operation *lastCompute = nullptr;
  Operation *heavy = nullptr;
  Operation *relayout = nullptr;
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isComputeOp(op))
      return WalkResult::advance();
    // A pack or unpack beside a contraction (its fused operand packing)
    // is not the dispatch's work; on its own it is.
    if (isa<linalg::PackOp, linalg::UnPackOp>(op)) {
      if (!relayout)
        relayout = op;
    } else if (!heavy && isHeavyOp(op)) {
      heavy = op;
    }
    lastCompute = op;
    return WalkResult::skip();
  });
  if (heavy)
    return heavy;
  return relayout ? relayout : lastCompute;
}

} // namespace mlir::kiln
