//===- PackAnalysis.cpp - packs and unpacks of packed contractions --------===//

#include "Analysis/PackAnalysis.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::kiln {

namespace {

/// Whether `type` has a static shape but for dim `rows`.
bool isStaticButRows(ShapedType type, int64_t rows) {
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size) && int64_t(dim) != rows)
      return false;
  return true;
}

} // namespace

bool canUnPackInContraction(Operation *op) {
  auto unpackOp = dyn_cast<linalg::UnPackOp>(op);
  if (!unpackOp)
    return false;
  ShapedType packedType = unpackOp.getSourceType();
  if (packedType.hasStaticShape() && unpackOp.getDestType().hasStaticShape())
    return true;
  // The packed result is (B,) M1, N1, M0, N0; the unpack's rows are the dim
  // its first inner tile splits.
  return unpackOp.getOuterDimsPerm().empty() &&
         isStaticButRows(packedType, packedType.getRank() - 4) &&
         isStaticButRows(unpackOp.getDestType(),
                         unpackOp.getInnerDimsPos().front());
}

bool canReadPackInPlace(Operation *op) {
  auto packOp = dyn_cast<linalg::PackOp>(op);
  if (!packOp)
    return false;
  ArrayRef<int64_t> tiles = packOp.getStaticInnerTiles();
  if (tiles.empty() || tiles.back() != 1)
    return false;
  // Of the source's dims only its rows, which the first inner tile splits,
  // may be known only at run time (a batch): the last tile's rows past
  // their end, however many, read the last row.
  ArrayRef<int64_t> shape = packOp.getSourceType().getShape();
  ArrayRef<int64_t> innerDims = packOp.getInnerDimsPos();
  bool dynamicRows = false;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    if (int64_t(dim) != innerDims.front())
      return false;
    dynamicRows = true;
  }
  bool pads = false;
  for (auto [dim, tile] : llvm::zip(innerDims, tiles)) {
    if (ShapedType::isDynamic(tile))
      return false;
    pads = pads || ShapedType::isDynamic(shape[dim]) || shape[dim] % tile != 0;
  }
  // A padded row of the LHS makes only a padded row of the result, which an
  // unpack drops: what the row holds does not matter, so the contraction may
  // read a real row there instead of the padding value.
  return llvm::all_of(packOp->getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    return isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(user) &&
           use.getOperandNumber() == 0 &&
           (!pads || llvm::all_of(user->getUsers(), [&](Operation *resultUser) {
             return dynamicRows ? canUnPackInContraction(resultUser)
                                : isa<linalg::UnPackOp>(resultUser);
           }));
  });
}

} // namespace mlir::kiln
