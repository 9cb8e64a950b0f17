//===- Utils.cpp - facts of ops that CPU code generation tiles ------------===//

#include "Codegen/CPU/Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::kiln {

SmallVector<int64_t> getStaticLoopRanges(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getStaticLoopRanges();
  if (auto packOp = dyn_cast<linalg::PackOp>(op))
    return SmallVector<int64_t>(
        packOp.getDestType().getShape().take_front(packOp.getSourceRank()));
  if (auto unpackOp = dyn_cast<linalg::UnPackOp>(op))
    return SmallVector<int64_t>(unpackOp.getDestType().getShape());
  return {};
}

SmallVector<int64_t> getPlanningLoopRanges(Operation *op) {
  SmallVector<int64_t> ranges = getStaticLoopRanges(op);
  for (int64_t &range : ranges)
    if (ShapedType::isDynamic(range))
      range = kPlanningRange;
  return ranges;
}

int64_t getIterationSpaceSize(Operation *op) {
  int64_t size = 1;
  for (int64_t range : getStaticLoopRanges(op)) {
    if (ShapedType::isDynamic(range))
      return ShapedType::kDynamic;
    size *= range;
  }
  return size;
}

ExecutableExportOp getExportOf(func::FuncOp funcOp) {
  auto variantOp = funcOp->getParentOfType<ExecutableVariantOp>();
  if (!variantOp)
    return {};
  for (ExecutableExportOp exportOp : variantOp.getExportOps())
    if (exportOp.getSymName() == funcOp.getSymName())
      return exportOp;
  return {};
}

} // namespace mlir::kiln
