//===- ResolveWorkgroupIds.cpp - forall iterations to workgroup ids -------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_RESOLVEWORKGROUPIDSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

struct ResolveWorkgroupIdsPass
    : impl::ResolveWorkgroupIdsPassBase<ResolveWorkgroupIdsPass> {
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    IRRewriter rewriter(&getContext());
    for (auto forallOp :
         llvm::to_vector(funcOp.getBody().front().getOps<scf::ForallOp>())) {
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

}  // namespace
}  // namespace mlir::kiln
