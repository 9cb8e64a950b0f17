//===- DispatchConstants.cpp - kernel extents as dispatch constants -------===//

#include "Codegen/CPU/DispatchConstants.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::kiln {

std::optional<int64_t> findDispatchConstant(Value value, int64_t dim) {
  Value size;
  if (auto toTensorOp = value.getDefiningOp<bufferization::ToTensorOp>())
    return findDispatchConstant(toTensorOp.getBuffer(), dim);
  if (auto bindingOp = value.getDefiningOp<BindingOp>()) {
    if (!bindingOp.getType().isDynamicDim(dim))
      return std::nullopt;
    size = bindingOp
               .getDynamicSizes()[bindingOp.getType().getDynamicDimIndex(dim)];
  } else if (auto emptyOp = value.getDefiningOp<tensor::EmptyOp>()) {
    if (!emptyOp.getType().isDynamicDim(dim))
      return std::nullopt;
    size = emptyOp.getDynamicSize(dim);
  } else if (auto sliceOp = value.getDefiningOp<tensor::ExtractSliceOp>()) {
    // The slice's own size: result dims count the sizes it keeps.
    llvm::SmallBitVector dropped = sliceOp.getDroppedDims();
    for (auto [i, sizeOfDim] : llvm::enumerate(sliceOp.getMixedSizes())) {
      if (dropped.test(i))
        continue;
      if (dim-- == 0) {
        size = dyn_cast<Value>(sizeOfDim);
        break;
      }
    }
  } else if (auto dpsOp = value.getDefiningOp<DestinationStyleOpInterface>()) {
    return findDispatchConstant(
        dpsOp.getDpsInitOperand(cast<OpResult>(value).getResultNumber())->get(),
        dim);
  }
  if (!size)
    return std::nullopt;
  if (auto constantOp = size.getDefiningOp<DispatchConstantOp>())
    return constantOp.getIndex().getSExtValue();
  return std::nullopt;
}

std::optional<int64_t> findStoredDispatchConstant(Value value, int64_t dim) {
  for (Operation *user : value.getUsers())
    if (auto storeOp =
            dyn_cast<bufferization::MaterializeInDestinationOp>(user))
      if (std::optional<int64_t> constant =
              findDispatchConstant(storeOp.getDest(), dim))
        return constant;
  return std::nullopt;
}

SmallVector<SmallVector<int64_t>> findLoopRangeConstants(Operation *op) {
  // A pack's loops are its destination's outer dims, an unpack's its
  // destination's dims.
  if (isa<linalg::PackOp, linalg::UnPackOp>(op)) {
    Value dest = cast<DestinationStyleOpInterface>(op).getDpsInits().front();
    int64_t loopCount = isa<linalg::PackOp>(op)
                            ? cast<linalg::PackOp>(op).getSourceRank()
                            : cast<linalg::UnPackOp>(op).getDestRank();
    SmallVector<SmallVector<int64_t>> loops(loopCount);
    for (int64_t dim = 0; dim < loopCount; ++dim) {
      if (std::optional<int64_t> constant = findDispatchConstant(dest, dim))
        loops[dim].push_back(*constant);
      if (std::optional<int64_t> constant =
              findStoredDispatchConstant(op->getResult(0), dim))
        loops[dim].push_back(*constant);
    }
    return loops;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return {};
  SmallVector<SmallVector<int64_t>> loops(linalgOp.getNumLoops());
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type)
      continue;
    for (auto [dim, expr] : llvm::enumerate(
             linalgOp.getMatchingIndexingMap(&operand).getResults()))
      if (auto dimExpr = dyn_cast<AffineDimExpr>(expr);
          dimExpr && type.isDynamicDim(dim)) {
        if (std::optional<int64_t> constant =
                findDispatchConstant(operand.get(), dim))
          loops[dimExpr.getPosition()].push_back(*constant);
        if (!linalgOp.isDpsInit(&operand))
          continue;
        if (std::optional<int64_t> constant = findStoredDispatchConstant(
                linalgOp.getTiedOpResult(&operand), dim))
          loops[dimExpr.getPosition()].push_back(*constant);
      }
  }
  return loops;
}

} // namespace mlir::kiln
