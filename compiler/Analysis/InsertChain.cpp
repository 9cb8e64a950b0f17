//===- InsertChain.cpp - the inserts of a pad or concat -------------------===//

#include "Analysis/InsertChain.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::kiln {

std::optional<InsertChain> matchInsertChain(tensor::InsertSliceOp root) {
  InsertChain chain;
  Value dest = root.getResult();
  while (auto insertOp = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!insertOp.hasUnitStride() ||
        ShapedType::isDynamicShape(insertOp.getStaticOffsets()) ||
        insertOp.getSourceType().getRank() != insertOp.getType().getRank())
      return std::nullopt;
    chain.inserts.push_back(insertOp);
    dest = insertOp.getDest();
  }
  chain.base = dest;
  auto fillOp = dest.getDefiningOp<linalg::FillOp>();
  if (!dest.getDefiningOp<tensor::EmptyOp>() &&
      !(fillOp && fillOp.hasPureTensorSemantics()))
    return std::nullopt;
  std::reverse(chain.inserts.begin(), chain.inserts.end());
  return chain;
}

} // namespace mlir::kiln
