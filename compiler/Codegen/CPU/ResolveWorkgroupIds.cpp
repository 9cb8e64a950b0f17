//===- ResolveWorkgroupIds.cpp - forall iterations to workgroup ids -------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_RESOLVEWORKGROUPIDSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// The workgroup grid `forallOp` distributes over (x innermost), if static.
std::optional<SmallVector<int64_t>> getWorkgroupGrid(scf::ForallOp forallOp) {
  int64_t rank = forallOp.getRank();
  if (rank > 3)
    return std::nullopt;
  SmallVector<int64_t> grid(3, 1);
  for (int64_t i = 0; i < rank; ++i) {
    std::optional<int64_t> lb =
        getConstantIntValue(forallOp.getMixedLowerBound()[i]);
    std::optional<int64_t> ub =
        getConstantIntValue(forallOp.getMixedUpperBound()[i]);
    std::optional<int64_t> step =
        getConstantIntValue(forallOp.getMixedStep()[i]);
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    grid[rank - 1 - i] =
        llvm::divideCeil(std::max<int64_t>(*ub - *lb, 0), *step);
  }
  return grid;
}

/// The code handles workgroup ids below its loops' trip counts and nothing
/// else, so the export's workgroup count (what the runtime launches) must be
/// exactly that grid. A stage text recompiled with --compile-mode=executable
/// may say otherwise.
LogicalResult verifyWorkgroupCount(func::FuncOp funcOp,
                                   ArrayRef<scf::ForallOp> forallOps) {
  auto variantOp = funcOp->getParentOfType<ExecutableVariantOp>();
  if (!variantOp)
    return success();
  auto exportOps = llvm::make_filter_range(
      variantOp.getExportOps(), [&](ExecutableExportOp exportOp) {
        return exportOp.getSymName() == funcOp.getSymName();
      });
  if (exportOps.empty())
    return success();
  ExecutableExportOp exportOp = *exportOps.begin();
  SmallVector<int64_t> declared(3, 1);
  if (auto count = exportOp.getWorkgroupCountAttr())
    for (auto [i, value] : llvm::enumerate(count.asArrayRef()))
      if (i < 3)
        declared[i] = value;
  SmallVector<int64_t> built(3, 1);
  Operation *where = funcOp;
  for (scf::ForallOp forallOp : forallOps) {
    std::optional<SmallVector<int64_t>> grid = getWorkgroupGrid(forallOp);
    if (!grid)
      return forallOp.emitError(
          "workgroup loop must be at most 3-D with static bounds");
    built = *grid;
    where = forallOp;
    if (built != declared)
      break;
  }
  if (built == declared)
    return success();
  InFlightDiagnostic diag = exportOp.emitError()
                            << "declares workgroup count ["
                            << ArrayRef<int64_t>(declared)
                            << "] but its kernel is built for ["
                            << ArrayRef<int64_t>(built) << "]";
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
