//===- SinkTransposes.cpp - one layout from convolution to convolution ----===//
//
// An importer that runs each convolution channels-last and hands its result
// back in the model's layout leaves a transpose after every convolution and
// one before the next; the elementwise ops between them (bias, batch norm,
// activations, residual adds) keep the model's layout. Moving each transpose
// past the elementwise ops it feeds brings it next to the one that undoes
// it, and the pair folds away: the whole chain runs channels-last. Pools
// and their padding between two convolutions are moved the same way.
//
//===----------------------------------------------------------------------===//

#include "GlobalOpt/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
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

/// Rewrites the padding of a transposed tensor (an `insert_slice` into a
/// fill, of zeros or of a max pool's lowest value) into the padding of the
/// transpose's source, transposed:
/// the pad of a channels-last image the model pads channels-first is made
/// channels-last, where the window reduction reading it can meet the
/// transpose's inverse.
struct SinkTransposeThroughPadding : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getSource().getDefiningOp<linalg::TransposeOp>();
    auto fill = op.getDest().getDefiningOp<linalg::FillOp>();
    if (!transpose || !fill ||
        !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
      return rewriter.notifyMatchFailure(op, "not the padding of a transpose");
    RankedTensorType padded = op.getDestType();
    if (!padded.hasStaticShape() || !op.getSourceType().hasStaticShape() ||
        op.getStaticSizes() != op.getSourceType().getShape() ||
        !op.hasUnitStride() ||
        ShapedType::isDynamicShape(op.getStaticOffsets()))
      return rewriter.notifyMatchFailure(op,
                                         "not a static whole-tensor insert");
    // Dim k of the transposed tensor is dim perm[k] of the source.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    SmallVector<int64_t> shape(padded.getRank()), offsets(padded.getRank());
    for (auto [k, dim] : llvm::enumerate(permutation)) {
      shape[dim] = padded.getDimSize(k);
      offsets[dim] = op.getStaticOffsets()[k];
    }
    Location loc = op.getLoc();
    Value value = fill.getInputs()[0];
    Value sourceInit =
        tensor::EmptyOp::create(rewriter, loc, shape, padded.getElementType());
    Value sourceFill =
        linalg::FillOp::create(rewriter, loc, value, sourceInit).getResult(0);
    Value source = transpose.getInput();
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<OpFoldResult> ones(padded.getRank(), rewriter.getIndexAttr(1));
    Value sourcePadded = tensor::InsertSliceOp::create(
        rewriter, loc, source, sourceFill,
        getAsIndexOpFoldResult(rewriter.getContext(), offsets),
        getAsIndexOpFoldResult(rewriter.getContext(), sourceType.getShape()),
        ones);
    Value init = tensor::EmptyOp::create(rewriter, loc, padded.getShape(),
                                         padded.getElementType());
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(op, sourcePadded, init,
                                                     permutation);
    return success();
  }
};

/// Rewrites a reduction over windows (a max or average pool) between a
/// transpose and its inverse (a channels-last image pooled channels-first)
/// into the same reduction in the transposes' source layout, its loops in
/// the order of its result's dims: both transposes go, and the channels
/// are the innermost parallel loop, in vector lanes, where the pool walked
/// the image's columns with a stride.
struct PoolInSourceLayout : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp outTranspose,
                                PatternRewriter &rewriter) const override {
    auto op = outTranspose.getInput().getDefiningOp<linalg::GenericOp>();
    if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() == 0 || !op->getResult(0).hasOneUse() ||
        !op.getBody()->getOps<linalg::IndexOp>().empty())
      return rewriter.notifyMatchFailure(outTranspose,
                                         "not the only use of a reduction");
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!outMap.isProjectedPermutation())
      return rewriter.notifyMatchFailure(op, "result is not indexed by loops");
    // The transposed input: read through the inverse permutation.
    ArrayRef<int64_t> outPermutation = outTranspose.getPermutation();
    SmallVector<int64_t> inPermutation =
        invertPermutationVector(outPermutation);
    OpOperand *transposedInput = nullptr;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
      if (transpose && transpose.getPermutation() == ArrayRef(inPermutation))
        transposedInput = input;
    }
    if (!transposedInput)
      return rewriter.notifyMatchFailure(op, "reads no inverse transpose");

    // New loop j < rank is the loop indexing dim j of the transposed
    // result; the loops no result dim names follow, in their order.
    MLIRContext *context = rewriter.getContext();
    int64_t numLoops = op.getNumLoops();
    SmallVector<int64_t> newToOld;
    for (int64_t dim : outPermutation)
      newToOld.push_back(
          cast<AffineDimExpr>(outMap.getResult(dim)).getPosition());
    for (int64_t loop = 0; loop < numLoops; ++loop)
      if (!llvm::is_contained(newToOld, loop))
        newToOld.push_back(loop);
    // Old loop k is new loop oldToNew[k].
    SmallVector<int64_t> oldToNew = invertPermutationVector(newToOld);
    AffineMap toNewLoops = AffineMap::getPermutationMap(
        llvm::to_vector_of<unsigned>(oldToNew), context);

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input).compose(toNewLoops);
      if (input != transposedInput) {
        inputs.push_back(input->get());
        maps.push_back(map);
        continue;
      }
      // Dim k of the transposed tensor is dim inPermutation[k] of its
      // source.
      SmallVector<AffineExpr> results(map.getNumResults());
      for (auto [k, dim] : llvm::enumerate(inPermutation))
        results[dim] = map.getResult(k);
      inputs.push_back(
          input->get().getDefiningOp<linalg::TransposeOp>().getInput());
      maps.push_back(AffineMap::get(numLoops, 0, results, context));
    }
    SmallVector<AffineExpr> outResults;
    for (int64_t j = 0; j < static_cast<int64_t>(outPermutation.size()); ++j)
      outResults.push_back(getAffineDimExpr(j, context));
    maps.push_back(AffineMap::get(numLoops, 0, outResults, context));
    SmallVector<utils::IteratorType> oldIterators = op.getIteratorTypesArray();
    SmallVector<utils::IteratorType> iterators;
    for (int64_t loop : newToOld)
      iterators.push_back(oldIterators[loop]);

    // The accumulator's initial value, in the new layout.
    Location loc = op.getLoc();
    Value oldInit = op.getDpsInitOperand(0)->get();
    Value init = outTranspose.getInit();
    if (auto fill = oldInit.getDefiningOp<linalg::FillOp>())
      init = linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], init)
                 .getResult(0);
    else
      init = linalg::TransposeOp::create(rewriter, loc, oldInit, init,
                                         outPermutation)
                 .getResult()[0];
    auto pooled = linalg::GenericOp::create(rewriter, loc, init.getType(),
                                            inputs, init, maps, iterators);
    rewriter.inlineRegionBefore(op.getRegion(), pooled.getRegion(),
                                pooled.getRegion().end());
    rewriter.replaceOp(outTranspose, pooled.getResults());
    return success();
  }
};

/// Rewrites a channels-last window reduction in generic form (as a pool
/// reaches here, or as PoolInSourceLayout leaves it) into the named pooling
/// op, which codegen computes with the channels in vector lanes; in generic
/// form it ran scalar (ResNet50's max pool: 1.3 ms, 11x ONNX Runtime's).
template <typename PoolingOp>
struct NameChannelsLastPool : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern<linalg::GenericOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not a pool");
    // The named op's body combines the accumulator with the element; a
    // commutative combine of the element with the accumulator (as the
    // importer writes it) is the same pool.
    Block *body = op.getBody();
    Operation *combine = body->getTerminator()->getOperand(0).getDefiningOp();
    BlockArgument element = body->getArgument(0);
    BlockArgument accumulator = body->getArgument(2);
    bool elementFirst = combine && combine->getNumOperands() == 2 &&
                        combine->hasTrait<OpTrait::IsCommutative>() &&
                        combine->getOperand(0) == element &&
                        combine->getOperand(1) == accumulator;
    if (elementFirst)
      combine->setOperands({accumulator, element});
    SmallVector<int64_t> dilations, strides;
    bool isPool =
        linalg::isaConvolutionOpOfType<PoolingOp>(op, &dilations, &strides);
    if (elementFirst)
      combine->setOperands({element, accumulator});
    if (!isPool)
      return rewriter.notifyMatchFailure(op, "not a channels-last pool");
    rewriter.replaceOpWithNewOp<PoolingOp>(
        op, op.getResultTypes(), op.getDpsInputs(), op.getDpsInits(),
        rewriter.getI64TensorAttr(strides),
        rewriter.getI64TensorAttr(dilations));
    return success();
  }
};

} // namespace

void populateSinkTransposesPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<SinkTransposeThroughElementwise, ReadTransposesInOrder,
               SinkTransposeThroughPadding, PoolInSourceLayout,
               NameChannelsLastPool<linalg::PoolingNhwcMaxOp>,
               NameChannelsLastPool<linalg::PoolingNhwcSumOp>>(context);
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
