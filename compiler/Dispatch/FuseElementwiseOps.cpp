//===- FuseElementwiseOps.cpp - merge elementwise chains ------------------===//

#include "Dispatch/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_FUSEELEMENTWISEOPSPASS
#include "Dispatch/Passes.h.inc"

namespace {

/// Named elementwise ops (add, exp, transpose, broadcast, ...) become
/// generics so that upstream elementwise fusion sees them. linalg.fill stays
/// named: dispatch formation recognizes it as a cheap init producer.
struct GeneralizeElementwiseNamedOp
    : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::GenericOp, linalg::FillOp>(op) ||
        !linalg::isElementwise(op))
      return rewriter.notifyMatchFailure(op, "not a named elementwise op");
    if (failed(linalg::generalizeNamedOp(rewriter, op)))
      return rewriter.notifyMatchFailure(op, "cannot generalize");
    return success();
  }
};

/// Whether a consumer reading `fusedOperand` through a broadcast would
/// compute its producer's costly ops (math functions, divisions) once per
/// element it broadcasts to: a squeeze-and-excitation block's sigmoid of one
/// value per channel, fused into the scaling of every pixel, once per pixel.
bool recomputesCostlyProducer(OpOperand *fusedOperand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  auto producer = fusedOperand->get().getDefiningOp<linalg::LinalgOp>();
  if (!consumer || !producer ||
      consumer.getMatchingIndexingMap(fusedOperand).isPermutation())
    return false;
  WalkResult costly = producer->walk([](Operation *op) {
    // Math ops that are one instruction cost what the load they save does.
    bool oneInstruction =
        isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp,
            math::CeilOp, math::FloorOp, math::RoundEvenOp, math::TruncOp>(op);
    return isa<arith::DivFOp, arith::RemFOp>(op) ||
                   (!oneInstruction &&
                    isa_and_present<math::MathDialect>(op->getDialect()))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return costly.wasInterrupted();
}

/// Fuses a producer only into its single user (fusing a producer with more
/// users would compute it once per user), and not where the user would
/// compute its costly ops again for every element it broadcasts to.
bool isFusableProducer(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  return producer && producer->hasOneUse() &&
         !recomputesCostlyProducer(fusedOperand);
}

/// Gives `consumer` fresh `tensor.empty` inits where it only takes the shape
/// of an init it never reads (as upstream fusion's own clean-up does), so
/// that a producer whose result was also that init has a single use.
void dropUnreadInits(RewriterBase &rewriter, linalg::GenericOp consumer) {
  for (OpOperand &init : consumer.getDpsInitsMutable()) {
    if (consumer.payloadUsesValueFromOperand(&init) ||
        !init.get().getDefiningOp<linalg::GenericOp>())
      continue;
    rewriter.setInsertionPoint(consumer);
    Value empty = tensor::EmptyOp::create(
        rewriter, consumer.getLoc(),
        tensor::getMixedSizes(rewriter, consumer.getLoc(), init.get()),
        getElementTypeOrSelf(init.get().getType()));
    rewriter.modifyOpInPlace(consumer, [&] { init.set(empty); });
  }
}

/// Fuses single-use elementwise producers into their consumers in rounds of
/// disjoint pairs, so that a chain of n ops halves each round: O(n log n)
/// work in all. Fusing one producer at a time, as the greedy driver does,
/// copies the growing fused body once per op of the chain: O(n^2).
void fuseInBalancedRounds(Operation *root) {
  IRRewriter rewriter(root->getContext());
  root->walk([&](linalg::GenericOp op) { dropUnreadInits(rewriter, op); });
  while (true) {
    SmallVector<OpOperand *> pairs;
    DenseSet<Operation *> claimed;
    root->walk([&](linalg::GenericOp consumer) {
      if (claimed.contains(consumer))
        return;
      for (OpOperand &operand : consumer->getOpOperands()) {
        Operation *producer = operand.get().getDefiningOp();
        if (!producer || claimed.contains(producer) ||
            !isFusableProducer(&operand) ||
            !linalg::areElementwiseOpsFusable(&operand))
          continue;
        claimed.insert(consumer);
        claimed.insert(producer);
        pairs.push_back(&operand);
        return;
      }
    });
    bool fusedAny = false;
    for (OpOperand *operand : pairs) {
      Operation *producer = operand->get().getDefiningOp();
      auto consumer = cast<linalg::GenericOp>(operand->getOwner());
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, operand);
      if (failed(fused))
        continue;
      // The fused op stands for both, so that provenance names the
      // producer too.
      fused->fusedOp->setLoc(rewriter.getFusedLoc(
          {consumer.getLoc(), producer->getLoc()}));
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != producer;
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      fusedAny = true;
    }
    if (!fusedAny)
      return;
  }
}

} // namespace

/// The expand_shape that gives a packed contraction's rows back their
/// shape (a 1x1 convolution's pixels) moves past the elementwise ops after
/// it, which then take the unpacked result as it is and join its dispatch.
bool isExpandedContractionResult(OpOperand *fusedOperand) {
  auto expand = fusedOperand->get().getDefiningOp<tensor::ExpandShapeOp>();
  return expand && expand.getSrc().getDefiningOp<linalg::UnPackOp>();
}

void populateFuseElementwiseOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<GeneralizeElementwiseNamedOp>(patterns.getContext());
  linalg::populateElementwiseOpsFusionPatterns(patterns, isFusableProducer);
  linalg::populateFoldReshapeOpsByCollapsingPatterns(
      patterns, isExpandedContractionResult);
  // The collapsed op's init, a reshaped tensor.empty, is an empty of its own
  // (whose sizes a dispatch can take).
  tensor::populateFoldTensorEmptyPatterns(patterns);
  // A size read off a reshape (or another op that knows its result's sizes)
  // is the size it was made with: the expand_shape a collapsed op leaves
  // before it, whose batch the expand back after it read (a dynamic batch),
  // then goes, and the unpack it expanded joins the op's dispatch.
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  linalg::GenericOp::getCanonicalizationPatterns(patterns,
                                                 patterns.getContext());
}

namespace {
struct FuseElementwiseOpsPass
    : impl::FuseElementwiseOpsPassBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    // Generalized first, then fused pairwise; the greedy run after it does
    // what is left (reshape propagation, canonicalization), visiting each
    // fused body once.
    {
      RewritePatternSet patterns(&getContext());
      patterns.add<GeneralizeElementwiseNamedOp>(&getContext());
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    fuseInBalancedRounds(getOperation());
    RewritePatternSet patterns(&getContext());
    populateFuseElementwiseOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

} // namespace mlir::kiln
