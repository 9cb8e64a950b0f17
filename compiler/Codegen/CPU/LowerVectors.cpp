//===- LowerVectors.cpp - vector ops to register-level form ---------------===//

#include "Codegen/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_LOWERVECTORSPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// A 1-D vector of i1, i2, i4 or f4E2M1FN.
bool isSubByteVector(VectorType type) {
  Type elementType = type.getElementType();
  return type.getRank() == 1 && elementType.isIntOrFloat() &&
         elementType.getIntOrFloatBitWidth() < 8;
}

/// Memory holds one byte per i1, i2, i4 or f4E2M1FN element, but a vector
/// load or store of them would pack the elements into bits: access them one
/// at a time instead.
struct ScalarizeSubByteLoad : OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::LoadOp op,
                                PatternRewriter &rewriter) const override {
    if (!isSubByteVector(op.getVectorType()))
      return rewriter.notifyMatchFailure(op, "not a 1-D sub-byte load");
    Location loc = op.getLoc();
    SmallVector<Value> indices(op.getIndices());
    Value first = indices.back();
    SmallVector<Value> elements;
    for (int64_t i = 0, e = op.getVectorType().getNumElements(); i < e; ++i) {
      Value offset = arith::ConstantIndexOp::create(rewriter, loc, i);
      indices.back() = arith::AddIOp::create(rewriter, loc, first, offset);
      elements.push_back(
          memref::LoadOp::create(rewriter, loc, op.getBase(), indices));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, op.getVectorType(),
                                                        elements);
    return success();
  }
};

struct ScalarizeSubByteStore : OpRewritePattern<vector::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::StoreOp op,
                                PatternRewriter &rewriter) const override {
    if (!isSubByteVector(op.getVectorType()))
      return rewriter.notifyMatchFailure(op, "not a 1-D sub-byte store");
    Location loc = op.getLoc();
    SmallVector<Value> indices(op.getIndices());
    Value first = indices.back();
    for (int64_t i = 0, e = op.getVectorType().getNumElements(); i < e; ++i) {
      Value offset = arith::ConstantIndexOp::create(rewriter, loc, i);
      indices.back() = arith::AddIOp::create(rewriter, loc, first, offset);
      Value element =
          vector::ExtractOp::create(rewriter, loc, op.getValueToStore(), i);
      memref::StoreOp::create(rewriter, loc, element, op.getBase(), indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A 1-D load whose every use extracts one element at a constant position
/// (the LHS column of an outer product, each element broadcast) becomes
/// scalar loads: LLVM then broadcasts straight from memory (vbroadcastss
/// m32) instead of loading the vector and shuffling its elements out, which
/// for odd widths (6 rows) costs shuffles and register pressure.
struct ScalarizeExtractedLoad : OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::LoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() != 1 || type.isScalable() || op->use_empty() ||
        isSubByteVector(type))
      return rewriter.notifyMatchFailure(op, "not a 1-D load");
    SmallVector<vector::ExtractOp> extracts;
    for (Operation *user : op->getUsers()) {
      auto extract = dyn_cast<vector::ExtractOp>(user);
      if (!extract || extract.hasDynamicPosition() ||
          extract.getStaticPosition().size() != 1)
        return rewriter.notifyMatchFailure(op, "a use is not an extract");
      extracts.push_back(extract);
    }
    for (vector::ExtractOp extract : extracts) {
      rewriter.setInsertionPoint(extract);
      Location loc = extract.getLoc();
      SmallVector<Value> indices(op.getIndices());
      Value offset = arith::ConstantIndexOp::create(
          rewriter, loc, extract.getStaticPosition()[0]);
      indices.back() =
          arith::AddIOp::create(rewriter, loc, indices.back(), offset);
      rewriter.replaceOpWithNewOp<memref::LoadOp>(extract, op.getBase(),
                                                  indices);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether `op` is a contraction whose reduction dims all have one step and
/// whose operands share a parallel dim of several elements (a convolution
/// over groups of channels tiled to one tap and one input channel per step,
/// its input broadcast over a group's outputs): an elementwise multiply-add
/// of its operands broadcast to the accumulator's shape. Operands that
/// share none are an outer product (a packed tile's step of K), which the
/// outer-product lowering takes.
bool isElementwiseContract(vector::ContractionOp op) {
  if (op.isMasked())
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps, [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return false;
  // The size of each iteration dim, from the operands that read it.
  SmallVector<int64_t> sizes(maps.front().getNumDims(), 0);
  auto record = [&](AffineMap map, Type type) {
    auto vectorType = dyn_cast<VectorType>(type);
    if (!vectorType)
      return;
    for (auto [result, size] :
         llvm::zip(map.getResults(), vectorType.getShape()))
      sizes[cast<AffineDimExpr>(result).getPosition()] = size;
  };
  record(maps[0], op.getLhsType());
  record(maps[1], op.getRhsType());
  record(maps[2], op.getAccType());
  SmallVector<vector::IteratorType> iterators = op.getIteratorTypesArray();
  bool sharesParallelDim = false;
  for (auto [dim, iterator] : llvm::enumerate(iterators)) {
    if (iterator == vector::IteratorType::reduction && sizes[dim] != 1)
      return false;
    sharesParallelDim |= iterator == vector::IteratorType::parallel &&
                         sizes[dim] > 1 && maps[0].isFunctionOfDim(dim) &&
                         maps[1].isFunctionOfDim(dim);
  }
  return sharesParallelDim;
}

/// Lowers the elementwise contractions of `funcOp` (isElementwiseContract)
/// with upstream's parallel-arithmetic lowering (broadcasts, transposes and
/// an FMA). The progressive lowering the others take unrolls them into
/// one-element dot products, which LLVM does not fuse into FMAs (ResNeXt50's
/// 56x56 stage, 32 groups of 4, 1 thread, a Xeon reporting CPUID model 167:
/// 0.64 -> 0.53 ms in AVX-512 code, 0.68 -> 0.59 ms in AVX2 code).
void lowerElementwiseContracts(func::FuncOp funcOp) {
  SmallVector<Operation *> contracts;
  funcOp.walk([&](vector::ContractionOp op) {
    if (isElementwiseContract(op))
      contracts.push_back(op);
  });
  if (contracts.empty())
    return;
  RewritePatternSet patterns(funcOp.getContext());
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::ParallelArith,
      /*benefit=*/1, /*disableOuterProductLowering=*/true);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  // A contraction left unlowered falls to the general lowering below.
  (void)applyOpPatternsGreedily(contracts, std::move(patterns), config);
}

/// An n-D create_mask (n > 1) as one (n-1)-D create_mask per index of its
/// leading dim, whose leading bound is the full mask's where the index lies
/// below its leading bound, else 0. Upstream's lowering selects between the
/// (n-1)-D mask and zeros instead; where LLVM then finds part of that mask
/// false in both arms (its loop peeling makes the bounds constants), its X86
/// backend (LLVM 22, AVX2) loads that part of a masked load wider than a
/// register with an unmasked load: past the end of the tensor, and memory
/// instead of the passthru in the result. A bound selected as an integer
/// leaves no such select.
struct LowerCreateMaskByRows : OpRewritePattern<vector::CreateMaskOp> {
  LowerCreateMaskByRows(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(vector::CreateMaskOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    if (type.getRank() < 2 || type.getScalableDims().front())
      return rewriter.notifyMatchFailure(op, "not an n-D mask of fixed rows");
    Location loc = op.getLoc();
    VectorType rowType = VectorType::Builder(type).dropDim(0);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value result = arith::ConstantOp::create(
        rewriter, loc, type, DenseElementsAttr::get(type, false));
    for (int64_t row = 0, rows = type.getDimSize(0); row < rows; ++row) {
      Value inside = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt,
          arith::ConstantIndexOp::create(rewriter, loc, row), op.getOperand(0));
      SmallVector<Value> rowBounds(op.getOperands().drop_front());
      rowBounds.front() = arith::SelectOp::create(rewriter, loc, inside,
                                                  rowBounds.front(), zero);
      Value rowMask =
          vector::CreateMaskOp::create(rewriter, loc, rowType, rowBounds);
      result = vector::InsertOp::create(rewriter, loc, rowMask, result, row);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Whether a reduction may combine its elements in another order: always
/// for min and max (exact) and integers, for a float sum or product only
/// where `reassociateFloats` or its fast-math flags allow it.
bool isReorderable(vector::ReductionOp op, bool reassociateFloats) {
  switch (op.getKind()) {
  case vector::CombiningKind::ADD:
  case vector::CombiningKind::MUL:
    return !isa<FloatType>(op.getType()) || reassociateFloats ||
           arith::bitEnumContainsAll(op.getFastmath(),
                                     arith::FastMathFlags::reassoc);
  default:
    return true;
  }
}

/// The scalar a vector of one element is made of, through broadcasts,
/// inserts and shape casts; null if it is made otherwise.
Value getSingleElementSource(Value value) {
  while (true) {
    if (!isa<VectorType>(value.getType()))
      return value;
    Operation *op = value.getDefiningOp();
    if (auto broadcast = dyn_cast_if_present<vector::BroadcastOp>(op))
      value = broadcast.getSource();
    else if (auto insert = dyn_cast_if_present<vector::InsertOp>(op))
      value = insert.getValueToStore();
    else if (auto cast = dyn_cast_if_present<vector::ShapeCastOp>(op))
      value = cast.getSource();
    else
      return Value();
  }
}

/// A loop reducing one vector per step into a scalar it carries (a row of a
/// softmax or a layer norm, in chunks: `acc = reduce(v, acc)`) carries a
/// vector of partial results instead, combined with each step's vector
/// lane by lane, and reduces it once after the loop: each step then waits
/// on one vector op, not on a horizontal reduction's chain of shuffles
/// (ViT-B/16's softmax over rows of 197, 12 heads, 1 thread, a Xeon
/// reporting CPUID model 167: 6.4 -> 3.7 ms per call in AVX-512 code, 6.2 ->
/// 3.7 ms in AVX2 code). The partial results start at the combining
/// kind's identity (0 for a sum or xor, 1 for a product, the carried value
/// itself for the idempotent min, max, and and or), so the carried value
/// is combined once at the end.
void accumulateReductionsInVectors(func::FuncOp funcOp,
                                   bool reassociateFloats) {
  SmallVector<scf::ForOp> loops;
  funcOp.walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
  IRRewriter rewriter(funcOp.getContext());
  for (scf::ForOp forOp : loops) {
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (unsigned i = 0; i < forOp.getNumRegionIterArgs(); ++i) {
      // acc (vector<1x..x1>) -> extract -> reduction(v, scalar) -> a
      // vector of that one element -> yield.
      BlockArgument acc = forOp.getRegionIterArg(i);
      auto accType = dyn_cast<VectorType>(acc.getType());
      if (!accType || accType.getNumElements() != 1 || !acc.hasOneUse())
        continue;
      auto extract = dyn_cast<vector::ExtractOp>(*acc.getUsers().begin());
      Value carried = getSingleElementSource(yield.getOperand(i));
      auto reduction = carried ? carried.getDefiningOp<vector::ReductionOp>()
                               : vector::ReductionOp();
      if (!extract || !extract.getResult().hasOneUse() || !reduction ||
          reduction.getAcc() != extract.getResult() ||
          !reduction.getResult().hasOneUse() ||
          reduction->getParentOp() != forOp.getOperation() ||
          !isReorderable(reduction, reassociateFloats))
        continue;
      Value vector = reduction.getVector();
      auto vectorType = cast<VectorType>(vector.getType());
      if (vectorType.isScalable() || vectorType.getNumElements() < 2)
        continue;
      vector::CombiningKind kind = reduction.getKind();
      Location loc = reduction.getLoc();
      arith::FastMathFlagsAttr fastmath = reduction.getFastmathAttr();
      rewriter.setInsertionPoint(forOp);
      Value init =
          vector::ExtractOp::create(rewriter, loc, forOp.getInitArgs()[i],
                                    SmallVector<int64_t>(accType.getRank(), 0));
      Value start;
      if (kind == vector::CombiningKind::ADD ||
          kind == vector::CombiningKind::XOR ||
          kind == vector::CombiningKind::MUL) {
        Type element = vectorType.getElementType();
        TypedAttr identity =
            kind != vector::CombiningKind::MUL
                ? rewriter.getZeroAttr(element)
                : (isa<FloatType>(element)
                       ? TypedAttr(rewriter.getFloatAttr(element, 1.0))
                       : TypedAttr(rewriter.getIntegerAttr(element, 1)));
        start = arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(vectorType, identity));
      } else {
        start = vector::BroadcastOp::create(rewriter, loc, vectorType, init);
      }
      FailureOr<LoopLikeOpInterface> widened =
          cast<LoopLikeOpInterface>(forOp.getOperation())
              .replaceWithAdditionalYields(
                  rewriter, start, /*replaceInitOperandUsesInLoop=*/false,
                  [&](OpBuilder &b, Location, ArrayRef<BlockArgument> args) {
                    b.setInsertionPoint(reduction);
                    return SmallVector<Value>{vector::makeArithReduction(
                        b, loc, kind, vector, args.front(), fastmath)};
                  });
      if (failed(widened))
        continue;
      auto newLoop = cast<scf::ForOp>(widened->getOperation());
      // The old carried value passes through unchanged (canonicalization
      // drops it); its uses after the loop take the reduction of the
      // partial results.
      auto newYield = cast<scf::YieldOp>(newLoop.getBody()->getTerminator());
      rewriter.modifyOpInPlace(newYield, [&] {
        newYield->setOperand(i, newLoop.getRegionIterArg(i));
      });
      // The per-step reduction and the vector made of it, now unused.
      (void)runRegionDCE(rewriter, newLoop.getRegion());
      rewriter.setInsertionPointAfter(newLoop);
      Value total = vector::ReductionOp::create(
          rewriter, loc, kind, newLoop.getResults().back(), init,
          fastmath ? fastmath.getValue() : arith::FastMathFlags::none);
      Value result = vector::BroadcastOp::create(rewriter, loc, accType, total);
      rewriter.replaceAllUsesWith(newLoop.getResult(i), result);
      break;
    }
  }
}

/// Steps an accumulator loop takes per iteration once unrolled, at most.
constexpr uint64_t kAccumulatorLoopUnroll = 4;

/// Unrolls each loop that carries accumulators updated by FMAs (the loop
/// over K of a contraction's or convolution's register tile) by the largest
/// of kAccumulatorLoopUnroll and its halves that divides its step count:
/// its counting and branching then cost a quarter of what they did beside
/// a dozen FMAs a step, and LLVM schedules the next steps' loads among the
/// FMAs. Intel Xeon, 1 thread, medians of 3 interleaved rounds: matmul 1024
/// x86-64-v3 22.9 -> 21.7 ms, AVX-512 14.8 -> 13.6; the ResNet block 5.14
/// -> 4.72 and 3.12 -> 3.01; the MLP 2.63 -> 2.44 and 1.70 -> 1.60
/// (constant weights). A loop of another step count stays whole: its
/// remainder would repeat the body once more for LLVM to compile (bench/
/// capture's model of 200 small layers took 83% more instructions to
/// compile with remainders, for steps that run once).
void unrollAccumulatorLoops(func::FuncOp funcOp) {
  SmallVector<scf::ForOp> loops;
  funcOp.walk([&](scf::ForOp forOp) {
    if (forOp.getNumRegionIterArgs() > 0 &&
        llvm::any_of(forOp.getBody()->getOperations(),
                     llvm::IsaPred<vector::FMAOp>))
      loops.push_back(forOp);
  });
  for (scf::ForOp forOp : loops) {
    std::optional<APInt> steps = forOp.getStaticTripCount();
    if (!steps || steps->getActiveBits() > 63)
      continue;
    uint64_t count = steps->getZExtValue();
    for (uint64_t factor = kAccumulatorLoopUnroll; factor > 1; factor /= 2) {
      if (count >= factor && count % factor == 0) {
        (void)loopUnrollByFactor(forOp, factor);
        break;
      }
    }
  }
}

} // namespace

void populateLowerVectorsPatterns(RewritePatternSet &patterns) {
  patterns.add<ScalarizeSubByteLoad, ScalarizeSubByteStore,
               ScalarizeExtractedLoad, LowerCreateMaskByRows>(
      patterns.getContext());
  vector::populateVectorToVectorCanonicalizationPatterns(patterns);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerReduction);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorMaskOpLoweringPatterns(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::Shuffle1D);
  vector::populateVectorInterleaveLoweringPatterns(patterns);
  vector::populateVectorBitCastLoweringPatterns(patterns);
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  vector::populateVectorStepLoweringPatterns(patterns);
  vector::populateVectorRankReducingFMAPattern(patterns);
  vector::populateVectorGatherLoweringPatterns(patterns);
  vector::populateVectorFromElementsUnrollPatterns(patterns);
  vector::populateVectorTransferLoweringPatterns(patterns,
                                                 /*maxTransferRank=*/1);
}

namespace {

struct LowerVectorsPass : impl::LowerVectorsPassBase<LowerVectorsPass> {
  using LowerVectorsPassBase::LowerVectorsPassBase;
  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    MLIRContext *context = &getContext();
    // Accumulators of reduction loops stay in registers.
    linalg::hoistRedundantVectorTransfers(funcOp, /*verifyNonZeroTrip=*/true);
    {
      // Tiled packed contractions carry unit outer dims (mmt4d's
      // 1x1x1xM0xN0xK0 tiles): without them each is one outer product.
      // Masked transfers (of tiles that overhang their source) carry their
      // mask as an operand, which the rewrites below preserve.
      RewritePatternSet patterns(context);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      // K0 = 1 tiles end in a unit dim: transfers of vector<8x16x1> would
      // otherwise go element by element.
      vector::populateDropInnerMostUnitDimsXferOpPatterns(patterns);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::ExtractOp::getCanonicalizationPatterns(patterns, context);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }
    lowerElementwiseContracts(funcOp);
    {
      RewritePatternSet patterns(context);
      populateLowerVectorsPatterns(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }
    {
      // n-D transfers become one 1-D transfer per row.
      RewritePatternSet patterns(context);
      populateVectorToSCFConversionPatterns(
          patterns, VectorTransferToSCFOptions().enableFullUnroll());
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      populateLowerVectorsPatterns(patterns);
      if (failed(applyPatternsGreedily(funcOp, std::move(patterns))))
        return signalPassFailure();
    }
    accumulateReductionsInVectors(funcOp, reassociateFpReductions);
    unrollAccumulatorLoops(funcOp);
  }
};

} // namespace
} // namespace mlir::kiln
