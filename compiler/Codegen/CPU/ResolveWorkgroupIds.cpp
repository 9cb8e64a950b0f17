//===- ResolveWorkgroupIds.cpp - forall iterations to workgroup ids -------===//

#include "Codegen/CPU/Passes.h"

#include "Codegen/CPU/Utils.h"

#include "Codegen/CPU/DispatchConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_RESOLVEWORKGROUPIDSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// A workgroup grid (x innermost): a static count per dimension, and for
/// each loop whose range is a dispatch constant, a triple (dimension,
/// constant, tile) as ExecutableExportOp's workgroup_tiles.
struct WorkgroupGrid {
  SmallVector<int64_t> count = {1, 1, 1};
  SmallVector<int64_t> tiles;
  bool operator==(const WorkgroupGrid &other) const {
    return count == other.count && tiles == other.tiles;
  }
  bool operator!=(const WorkgroupGrid &other) const {
    return !(*this == other);
  }
  /// "[4, 1, 1]", then " x ceil(constant 0 / 64) along 0" per tile.
  std::string describe() const {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "[";
    llvm::interleaveComma(count, os);
    os << "]";
    for (size_t i = 0; i + 2 < tiles.size(); i += 3)
      os << " x ceil(constant " << tiles[i + 1] << " / " << tiles[i + 2]
         << ") along " << tiles[i];
    return text;
  }
};

/// The dispatch constant `value` is: the constant itself, or a dynamic
/// size of a binding read back with memref.dim.
std::optional<int64_t> getDispatchConstantIndex(Value value) {
  if (auto constantOp = value.getDefiningOp<DispatchConstantOp>())
    return constantOp.getIndex().getSExtValue();
  if (auto dimOp = value.getDefiningOp<memref::DimOp>())
    if (std::optional<int64_t> dim = dimOp.getConstantIndex())
      return findDispatchConstant(dimOp.getSource(), *dim);
  return std::nullopt;
}

/// The grid `forallOp` distributes over, if its bounds are static or
/// dispatch constants from 0.
std::optional<WorkgroupGrid> getWorkgroupGrid(scf::ForallOp forallOp) {
  int64_t rank = forallOp.getRank();
  if (rank > 3)
    return std::nullopt;
  WorkgroupGrid grid;
  // Innermost (x) first, the order strategy selection lists tiles in.
  for (int64_t i = rank - 1; i >= 0; --i) {
    std::optional<int64_t> lb =
        getConstantIntValue(forallOp.getMixedLowerBound()[i]);
    OpFoldResult upper = forallOp.getMixedUpperBound()[i];
    std::optional<int64_t> ub = getConstantIntValue(upper);
    std::optional<int64_t> step =
        getConstantIntValue(forallOp.getMixedStep()[i]);
    if (!lb || !step || *step <= 0)
      return std::nullopt;
    int64_t dim = rank - 1 - i;
    if (ub) {
      grid.count[dim] =
          llvm::divideCeil(std::max<int64_t>(*ub - *lb, 0), *step);
      continue;
    }
    std::optional<int64_t> constant =
        getDispatchConstantIndex(cast<Value>(upper));
    if (!constant || *lb != 0)
      return std::nullopt;
    llvm::append_values(grid.tiles, dim, *constant, *step);
  }
  return grid;
}

/// The code handles workgroup ids below its loops' trip counts and nothing
/// else, so the export's workgroup count (what the runtime launches) must be
/// exactly that grid. A stage text recompiled with --compile-mode=executable
/// may say otherwise.
LogicalResult verifyWorkgroupCount(func::FuncOp funcOp,
                                   ArrayRef<scf::ForallOp> forallOps) {
  ExecutableExportOp exportOp = getExportOf(funcOp);
  if (!exportOp)
    return success();
  WorkgroupGrid declared;
  if (auto count = exportOp.getWorkgroupCountAttr())
    for (auto [i, value] : llvm::enumerate(count.asArrayRef()))
      if (i < 3)
        declared.count[i] = value;
  if (auto tiles = exportOp.getWorkgroupTilesAttr())
    declared.tiles = llvm::to_vector(tiles.asArrayRef());
  WorkgroupGrid built;
  Operation *where = funcOp;
  for (scf::ForallOp forallOp : forallOps) {
    std::optional<WorkgroupGrid> grid = getWorkgroupGrid(forallOp);
    if (!grid)
      return forallOp.emitError(
          "workgroup loop must be at most 3-D with static bounds or "
          "dispatch constants");
    built = *grid;
    where = forallOp;
    if (built != declared)
      break;
  }
  if (built == declared)
    return success();
  InFlightDiagnostic diag =
      exportOp.emitError() << "declares workgroup count " << declared.describe()
                           << " but its kernel is built for "
                           << built.describe();
  diag.attachNote(where->getLoc()) << "workgroup loop here";
  return diag;
}

struct ResolveWorkgroupIdsPass
    : impl::ResolveWorkgroupIdsPassBase<ResolveWorkgroupIdsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    IRRewriter rewriter(&getContext());
    auto forallOps =
        llvm::to_vector(funcOp.getBody().front().getOps<scf::ForallOp>());
    if (failed(verifyWorkgroupCount(funcOp, forallOps)))
      return signalPassFailure();
    for (auto forallOp : forallOps) {
      if (forallOp.getNumResults() != 0 || forallOp.getRank() > 3) {
        forallOp.emitError("workgroup loop must be bufferized and at most 3-D");
        return signalPassFailure();
      }
      Location loc = forallOp.getLoc();
      rewriter.setInsertionPoint(forallOp);
      SmallVector<Value> ivs;
      int64_t rank = forallOp.getRank();
      for (int64_t i = 0; i < rank; ++i) {
        // The innermost loop is x (dimension 0).
        Value id = WorkgroupIdOp::create(rewriter, loc,
                                         rewriter.getIndexAttr(rank - 1 - i));
        Value lb = getValueOrCreateConstantIndexOp(
            rewriter, loc, forallOp.getMixedLowerBound()[i]);
        Value step = getValueOrCreateConstantIndexOp(
            rewriter, loc, forallOp.getMixedStep()[i]);
        Value scaled = arith::MulIOp::create(rewriter, loc, id, step);
        ivs.push_back(arith::AddIOp::create(rewriter, loc, lb, scaled));
      }
      Block *body = forallOp.getBody();
      rewriter.eraseOp(body->getTerminator());
      rewriter.inlineBlockBefore(body, forallOp, ivs);
      rewriter.eraseOp(forallOp);
    }
  }
};

} // namespace
} // namespace mlir::kiln
