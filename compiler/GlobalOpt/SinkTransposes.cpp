//===- SinkTransposes.cpp - one layout through elementwise chains ---------===//
//
// An importer that runs each convolution channels-last and hands its result
// back in the model's layout leaves a transpose after every convolution and
// one before the next; the elementwise ops between them (bias, batch norm,
// activations, residual adds) keep the model's layout. Moving each transpose
// past the elementwise ops it feeds brings it next to the one that undoes
// it, and the pair folds away: the whole chain runs channels-last.
//
//===----------------------------------------------------------------------===//

#include "GlobalOpt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_SINKTRANSPOSESPASS
#include "GlobalOpt/Passes.h.inc"

namespace {

/// The permutation and source of the transposes `op` reads through
/// identity maps, when it reads at least one, all with one permutation, and
/// reads no other tensor through an identity map (its other inputs are
/// broadcasts such as a per-channel bias, or scalars).
FailureOr<std::pair<SmallVector<int64_t>, Value>>
matchTransposedInputs(linalg::GenericOp op, PatternRewriter &rewriter) {
  // Indices would name the permuted loops.
  if (!op.getBody()->getOps<linalg::IndexOp>().empty())
    return rewriter.notifyMatchFailure(op, "reads its loop indices");
  std::optional<SmallVector<int64_t>> permutation;
  Value source;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isIdentity())
      continue;
    auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
    if (!transpose)
      return rewriter.notifyMatchFailure(op, "reads an untransposed tensor");
    SmallVector<int64_t> perm(transpose.getPermutation());
    if (permutation && *permutation != perm)
      return rewriter.notifyMatchFailure(op, "transposes differ");
    permutation = perm;
    source = transpose.getInput();
  }
  if (!permutation)
    return rewriter.notifyMatchFailure(op, "reads no transposed tensor");
  return std::make_pair(*permutation, source);
}

/// The inputs and maps of `op` over loops in its transposes' source order
/// (loop j of the new op is the source's dim j; old loop k is the source's
/// dim perm[k]): the transposes' sources through identity maps, the other
/// inputs through their maps composed with the permutation.
void getInputsInSourceOrder(linalg::GenericOp op, AffineMap toOldLoops,
                            SmallVectorImpl<Value> &inputs,
                            SmallVectorImpl<AffineMap> &maps) {
  int64_t rank = toOldLoops.getNumDims();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isIdentity()) {
      inputs.push_back(
          input->get().getDefiningOp<linalg::TransposeOp>().getInput());
      maps.push_back(AffineMap::getMultiDimIdentityMap(rank, op.getContext()));
      continue;
    }
    inputs.push_back(input->get());
    maps.push_back(map.compose(toOldLoops));
  }
}

/// Rewrites an elementwise generic that reads at least one transposed
/// tensor, and no other tensor of its full size, into the same generic on
/// the transposes' sources followed by one transpose of its result:
///   %t = linalg.transpose %a (perm)        %g = generic(%a, %bias')
///   %g = generic(%t, %bias)           ->   %r = linalg.transpose %g (perm)
struct SinkTransposeThroughElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != 0 ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return rewriter.notifyMatchFailure(op, "not an elementwise generic");
    auto transposed = matchTransposedInputs(op, rewriter);
    if (failed(transposed))
      return failure();
    auto &[permutation, source] = *transposed;

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    AffineMap toOldLoops = AffineMap::getPermutationMap(
        llvm::to_vector_of<unsigned>(permutation), context);
    int64_t rank = permutation.size();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    getInputsInSourceOrder(op, toOldLoops, inputs, maps);
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
    Type elementType = getElementTypeOrSelf(op.getResult(0).getType());
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, source),
        elementType);
    auto sunk =
        linalg::GenericOp::create(rewriter, loc, init.getType(), inputs, init,
                                  maps, op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), sunk.getRegion(),
                                sunk.getRegion().end());
    Value resultInit = tensor::EmptyOp::create(
        rewriter, loc,
        tensor::getMixedSizes(rewriter, loc, op.getDpsInitOperand(0)->get()),
        elementType);
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(op, sunk.getResult(0),
                                                     resultInit, permutation);
    return success();
  }
};

/// Rewrites a reduction that reads transposed tensors (a global average
/// pool of a channels-last image the model sees channels-first) into the
/// same reduction on the transposes' sources, its loops in their order:
/// the innermost loop then walks the source's contiguous dim (the
/// channels, in vector lanes) where it walked a strided one. Its results
/// keep their layout: their maps are composed with the permutation.
struct ReadTransposesInOrder : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0)
      return rewriter.notifyMatchFailure(op, "not a reduction");
    auto transposed = matchTransposedInputs(op, rewriter);
    if (failed(transposed))
      return failure();
    SmallVector<int64_t> permutation = transposed->first;
    MLIRContext *context = rewriter.getContext();
    AffineMap toOldLoops = AffineMap::getPermutationMap(
        llvm::to_vector_of<unsigned>(permutation), context);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    getInputsInSourceOrder(op, toOldLoops, inputs, maps);
    for (OpOperand &init : op.getDpsInitsMutable())
      maps.push_back(op.getMatchingIndexingMap(&init).compose(toOldLoops));
    // New loop j is old loop k where perm[k] = j.
    SmallVector<utils::IteratorType> oldIterators = op.getIteratorTypesArray();
    SmallVector<utils::IteratorType> iterators(oldIterators.size());
    for (auto [k, j] : llvm::enumerate(permutation))
      iterators[j] = oldIterators[k];
    auto ordered =
        linalg::GenericOp::create(rewriter, op.getLoc(), op.getResultTypes(),
                                  inputs, op.getDpsInits(), maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), ordered.getRegion(),
                                ordered.getRegion().end());
    rewriter.replaceOp(op, ordered.getResults());
    return success();
  }
};

} // namespace

void populateSinkTransposesPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<SinkTransposeThroughElementwise, ReadTransposesInOrder>(context);
  // A transpose of a transpose is one transpose, or none.
  linalg::TransposeOp::getCanonicalizationPatterns(patterns, context);
}

namespace {

struct SinkTransposesPass : impl::SinkTransposesPassBase<SinkTransposesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSinkTransposesPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
