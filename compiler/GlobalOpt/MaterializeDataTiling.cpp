//===- MaterializeDataTiling.cpp - contractions on packed operands --------===//
//
// A matmul reads its operands along rows of one and columns of the other;
// packed into M0 x K0 and N0 x K0 tiles (K0 = 1), every step of the kernel's
// inner loop reads one contiguous slice of each, so the loads stream and
// prefetch, and no leading dimension (a power of two, say) maps every row to
// the same cache set. The tiles are the kernel's register block, so the
// packed layouts are chosen here, for the target, before dispatches form.
//
//===----------------------------------------------------------------------===//

#include "GlobalOpt/Passes.h"

#include "Target/CPU/CPUTarget.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_MATERIALIZEDATATILINGPASS
#include "GlobalOpt/Passes.h.inc"

namespace {

/// Multiply-adds below which packing costs more than it saves: the three
/// relayouts are dispatches of their own.
constexpr int64_t kMinPackedMultiplyAdds = int64_t(1) << 18;

/// The rows a contraction is taken to have when they are known only at run
/// time: a batch worth packing for.
constexpr int64_t kDynamicRowsPlanned = 64;

/// The rows planned for a contraction whose rows (loop `m`) are known only at
/// run time: kDynamicRowsPlanned, or the rows they are at least where its
/// LHS merges them from dims known at compile time (an image's pixels,
/// [N, H, W, C] -> [N*H*W, C], whose batch alone is dynamic: without them
/// MobileNetV2 with a dynamic batch left its 1x1 convolutions unpacked;
/// called at batch 1, 1 thread, AVX-512 code on a Xeon reporting CPUID
/// model 167: 14.2 -> 7.4 ms).
int64_t getPlannedRows(linalg::LinalgOp op, unsigned m) {
  OpOperand *lhs = op.getDpsInputOperand(0);
  std::optional<unsigned> dim =
      op.getMatchingIndexingMap(lhs).getResultPosition(
          getAffineDimExpr(m, op.getContext()));
  auto collapseOp = lhs->get().getDefiningOp<tensor::CollapseShapeOp>();
  if (!dim || !collapseOp)
    return kDynamicRowsPlanned;
  SmallVector<ReassociationIndices> groups =
      collapseOp.getReassociationIndices();
  int64_t staticRows = 1;
  for (int64_t sourceDim : groups[*dim])
    if (int64_t size = collapseOp.getSrcType().getDimSize(sourceDim);
        !ShapedType::isDynamic(size))
      staticRows *= size;
  return std::max(kDynamicRowsPlanned, staticRows);
}

/// Inner tile sizes of a packed contraction.
struct ContractionTiles {
  int64_t m0, n0, k0;
};

ContractionTiles selectContractionTiles(ArrayRef<CPUTargetInfo> targets,
                                        Type elementType, int64_t m, int64_t n,
                                        int64_t k) {
  CPUTargetInfo::AccumulatorTile tile = getSharedPackedContractionTile(
      targets, elementType.getIntOrFloatBitWidth(), m, n, k);
  int64_t m0 = tile.rows;
  // Few rows (a matrix-vector product): pad to a power of two, not to M0.
  if (!ShapedType::isDynamic(m) && m < m0)
    m0 = static_cast<int64_t>(llvm::PowerOf2Ceil(m));
  // Few columns (a layer of 16 channels): the vectors they fill, not N0's,
  // whose others would multiply padding (MobileNetV2's 32 -> 16 channel
  // layer, AVX-512 code, 1 thread: 0.75x the time).
  int64_t n0 = tile.columns;
  int64_t lanes = targets.front().getLanes(elementType.getIntOrFloatBitWidth());
  while (n0 / 2 >= std::max(n, lanes) && n0 % (2 * lanes) == 0)
    n0 /= 2;
  return {m0, n0, 1};
}

/// `value` without the reshapes around it: a reshape keeps the elements in
/// row-major order, so the bytes of a reshaped constant are the constant's.
Value stripReshapes(Value value) {
  while (Operation *reshape = value.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
      break;
    value = reshape->getOperand(0);
  }
  return value;
}

/// The loops of a matmul-like contraction: one M, N and K loop, at most one
/// batch loop.
struct ContractionLoops {
  std::optional<unsigned> batch;
  unsigned m, n, k;
};

FailureOr<ContractionLoops> matchPackableContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op) || !op.hasPureTensorSemantics() ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op.getOperation()))
    return failure();
  // One element type: mmt4d would extend mixed ones with its own
  // signedness, not the op's.
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  if (!elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() % 8 != 0 ||
      llvm::any_of(op->getOperandTypes(), [&](Type type) {
        return getElementTypeOrSelf(type) != elementType;
      }))
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return failure();
  ContractionLoops loops{std::nullopt, dims->m[0], dims->n[0], dims->k[0]};
  if (!dims->batch.empty())
    loops.batch = dims->batch[0];
  // Each operand holds exactly the loops it is indexed by, in any order.
  unsigned operandLoops = loops.batch ? 3 : 2;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation() || map.getNumResults() != operandLoops)
      return failure();
  // Rows known only at run time (a batch) pay off as many rows do; every
  // other range must be known.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t multiplyAdds = 1;
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (ShapedType::isDynamic(range)) {
      if (loop != loops.m)
        return failure();
      range = getPlannedRows(op, loop);
    }
    multiplyAdds *= range;
  }
  // One row (a classifier on one image) streams its matrix once: packed
  // only when the matrix is a constant, packed at compile time into panels
  // each workgroup reads front to back, where its [K, N] rows would each
  // start a page apart.
  bool oneRowOfConstant =
      ranges[loops.m] == 1 &&
      matchPattern(stripReshapes(op.getDpsInputOperand(1)->get()),
                   m_Constant());
  if (multiplyAdds < kMinPackedMultiplyAdds || ranges[loops.m] == 0 ||
      (ranges[loops.m] == 1 && !oneRowOfConstant) || ranges[loops.n] < 2)
    return failure();
  return loops;
}

/// Where each loop sits among an operand's dimensions.
SmallVector<int64_t> getOperandDims(AffineMap map, ArrayRef<unsigned> loops) {
  SmallVector<int64_t> dims;
  for (unsigned loop : loops)
    dims.push_back(
        *map.getResultPosition(getAffineDimExpr(loop, map.getContext())));
  return dims;
}

/// `outerDimsPerm` as linalg.pack spells it: none for the identity.
SmallVector<int64_t> normalizePermutation(SmallVector<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return {};
  return perm;
}

/// Packs `value` so that its outer dims follow `outerLoops` and the inner
/// tiles cover `innerLoops`, padding with zeros where the tiles overhang.
Value packOperand(RewriterBase &rewriter, Location loc, Value value,
                  AffineMap map, ArrayRef<unsigned> outerLoops,
                  ArrayRef<unsigned> innerLoops, ArrayRef<int64_t> tiles) {
  SmallVector<int64_t> innerDimsPos = getOperandDims(map, innerLoops);
  SmallVector<int64_t> outerDimsPerm =
      normalizePermutation(getOperandDims(map, outerLoops));
  SmallVector<OpFoldResult> tileSizes =
      getAsIndexOpFoldResult(rewriter.getContext(), tiles);
  Value dest = linalg::PackOp::createDestinationTensor(
      rewriter, loc, value, tileSizes, innerDimsPos, outerDimsPerm);
  auto type = cast<RankedTensorType>(value.getType());
  std::optional<Value> padding;
  for (auto [dim, tile] : llvm::zip(innerDimsPos, tiles))
    if (type.isDynamicDim(dim) || type.getDimSize(dim) % tile != 0)
      padding = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  return linalg::PackOp::create(rewriter, loc, value, dest, innerDimsPos,
                                tileSizes, padding, outerDimsPerm);
}

struct PackContraction : OpInterfaceRewritePattern<linalg::LinalgOp> {
  // Before the rank reductions, which would make a one-row matmul of a
  // constant a vecmat, which does not pack.
  PackContraction(MLIRContext *context, ArrayRef<CPUTargetInfo> targets)
      : OpInterfaceRewritePattern(context, /*benefit=*/2),
        targets(llvm::to_vector(targets)) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ContractionLoops> loops = matchPackableContraction(op);
    if (failed(loops))
      return rewriter.notifyMatchFailure(op, "not a packable contraction");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    Value init = op.getDpsInitOperand(0)->get();
    ContractionTiles tiles = selectContractionTiles(
        targets, getElementTypeOrSelf(init.getType()), ranges[loops->m],
        ranges[loops->n], ranges[loops->k]);

    auto withBatch = [&](std::initializer_list<unsigned> dims) {
      SmallVector<unsigned> result;
      if (loops->batch)
        result.push_back(*loops->batch);
      result.append(dims);
      return result;
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    Location loc = op.getLoc();
    Value lhs = packOperand(rewriter, loc, op.getDpsInputOperand(0)->get(),
                            maps[0], withBatch({loops->m, loops->k}),
                            {loops->m, loops->k}, {tiles.m0, tiles.k0});
    Value rhs = packOperand(rewriter, loc, op.getDpsInputOperand(1)->get(),
                            maps[1], withBatch({loops->n, loops->k}),
                            {loops->n, loops->k}, {tiles.n0, tiles.k0});
    SmallVector<unsigned> accOuter = withBatch({loops->m, loops->n});
    SmallVector<unsigned> accInner = {loops->m, loops->n};
    Value acc = packOperand(rewriter, loc, init, maps[2], accOuter, accInner,
                            {tiles.m0, tiles.n0});
    Value packed;
    if (loops->batch)
      packed = linalg::BatchMmt4DOp::create(rewriter, loc, acc.getType(),
                                            ValueRange{lhs, rhs}, acc)
                   .getResult(0);
    else
      packed = linalg::Mmt4DOp::create(rewriter, loc, acc.getType(),
                                       ValueRange{lhs, rhs}, acc)
                   .getResult(0);

    SmallVector<int64_t> innerDimsPos = getOperandDims(maps[2], accInner);
    SmallVector<int64_t> outerDimsPerm =
        normalizePermutation(getOperandDims(maps[2], accOuter));
    Value empty =
        tensor::EmptyOp::create(rewriter, loc,
                                tensor::getMixedSizes(rewriter, loc, init),
                                getElementTypeOrSelf(init.getType()));
    rewriter.replaceOpWithNewOp<linalg::UnPackOp>(
        op, packed, empty, innerDimsPos,
        getAsIndexOpFoldResult(rewriter.getContext(), {tiles.m0, tiles.n0}),
        outerDimsPerm);
    return success();
  }

  SmallVector<CPUTargetInfo> targets;
};

/// The bytes of a constant with raw data: a dense one's, or a resource's (an
/// importer's weights, their bytes shared with the model's).
std::optional<ArrayRef<char>> getConstantBytes(ElementsAttr constant) {
  if (auto dense = dyn_cast<DenseElementsAttr>(constant))
    return dense.getRawData();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return std::nullopt;
}

/// A constant relaid out: `source`'s elements of `elementBytes` bytes, of
/// `sourceShape`, packed as a linalg.pack with these `outerDimsPerm`,
/// `innerDimsPos` and `innerTiles` packs them into `destShape` (a transpose
/// is a pack without tiles), `padding` where the tiles overhang; of the
/// source's kind (a resource's layout a resource of its own), computed
/// element by element on the raw bytes (a 4 MiB weight takes milliseconds).
TypedAttr relayoutConstant(ElementsAttr source, ArrayRef<char> input,
                           RankedTensorType destType, int64_t elementBytes,
                           ArrayRef<int64_t> sourceShape,
                           ArrayRef<int64_t> outerDimsPerm,
                           ArrayRef<int64_t> innerDimsPos,
                           ArrayRef<int64_t> innerTiles,
                           ArrayRef<char> padding) {
  ArrayRef<int64_t> destShape = destType.getShape();
  int64_t rank = sourceShape.size();
  SmallVector<int64_t> sourceStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    sourceStrides[d] = sourceStrides[d + 1] * sourceShape[d + 1];
  // Every source dim is an outer dim times its tile plus an inner index.
  SmallVector<int64_t> tileOf(rank, 1);
  for (auto [dim, tile] : llvm::zip(innerDimsPos, innerTiles))
    tileOf[dim] = tile;
  int64_t count = destType.getNumElements();
  auto packedBlob = HeapAsmResourceBlob::allocate(count * elementBytes,
                                                  /*align=*/64,
                                                  /*dataIsMutable=*/true);
  MutableArrayRef<char> output = packedBlob.getMutableData();
  SmallVector<int64_t> index(destShape.size(), 0);
  SmallVector<int64_t> coords(rank);
  for (int64_t linear = 0; linear < count; ++linear) {
    for (int64_t d = 0; d < rank; ++d)
      coords[outerDimsPerm[d]] = index[d] * tileOf[outerDimsPerm[d]];
    for (auto [i, dim] : llvm::enumerate(innerDimsPos))
      coords[dim] += index[rank + i];
    int64_t offset = 0;
    bool inBounds = true;
    for (int64_t d = 0; d < rank; ++d) {
      inBounds &= coords[d] < sourceShape[d];
      offset += coords[d] * sourceStrides[d];
    }
    const char *from =
        inBounds ? input.data() + offset * elementBytes : padding.data();
    std::memcpy(output.data() + linear * elementBytes, from, elementBytes);
    for (int64_t d = destShape.size() - 1; d >= 0; --d) {
      if (++index[d] < destShape[d])
        break;
      index[d] = 0;
    }
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(source))
    return DenseResourceElementsAttr::get(
        destType, (resource.getRawHandle().getKey() + ".packed").str(),
        std::move(packedBlob));
  return DenseElementsAttr::getFromRawBuffer(destType, output);
}

/// Whether a constant of `type` can be relaid out byte by byte: static,
/// of byte-sized integers or floats.
bool hasByteElements(RankedTensorType type) {
  Type elementType = type.getElementType();
  return elementType.isIntOrFloat() &&
         elementType.getIntOrFloatBitWidth() % 8 == 0 && type.hasStaticShape();
}

/// linalg.pack of a dense constant (or of a reshape of one): the packed
/// constant.
struct FoldConstantPack : OpRewritePattern<linalg::PackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::PackOp op,
                                PatternRewriter &rewriter) const override {
    // A reshaped constant (a 1x1 filter collapsed to a matrix) packs too.
    ElementsAttr source;
    if (!matchPattern(stripReshapes(op.getSource()), m_Constant(&source)))
      return rewriter.notifyMatchFailure(op, "source is not a constant");
    // Splats pack to splats; upstream folds those.
    if (source.isSplat())
      return rewriter.notifyMatchFailure(op, "splat constant");
    std::optional<ArrayRef<char>> input = getConstantBytes(source);
    if (!input)
      return rewriter.notifyMatchFailure(op, "constant without bytes");
    RankedTensorType sourceType = op.getSourceType();
    RankedTensorType destType = op.getDestType();
    if (!hasByteElements(sourceType) || !hasByteElements(destType) ||
        ShapedType::isDynamicShape(op.getStaticInnerTiles()))
      return rewriter.notifyMatchFailure(op, "not a static byte-sized pack");
    // The padding value's bytes, when the tiles overhang.
    Type elementType = sourceType.getElementType();
    int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
    SmallVector<char> padding(elementBytes, 0);
    if (Value paddingValue = op.getPaddingValue()) {
      Attribute attr;
      if (!matchPattern(paddingValue, m_Constant(&attr)))
        return rewriter.notifyMatchFailure(op, "padding is not a constant");
      auto splat =
          DenseElementsAttr::get(RankedTensorType::get({}, elementType), attr);
      ArrayRef<char> raw = splat.getRawData();
      llvm::copy(raw.take_front(elementBytes), padding.begin());
    }
    if (static_cast<int64_t>(input->size()) !=
        sourceType.getNumElements() * elementBytes)
      return rewriter.notifyMatchFailure(op, "constant of another size");
    SmallVector<int64_t> outerDimsPerm(op.getOuterDimsPerm());
    if (outerDimsPerm.empty())
      outerDimsPerm =
          llvm::to_vector(llvm::seq<int64_t>(0, sourceType.getRank()));
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, relayoutConstant(source, *input, destType, elementBytes,
                             sourceType.getShape(), outerDimsPerm,
                             op.getInnerDimsPos(), op.getStaticInnerTiles(),
                             padding));
    return success();
  }
};

/// linalg.transpose of a dense constant (or of a reshape of one): the
/// transposed constant. A depthwise convolution's filter, [C, KH, KW] in
/// ONNX's layout and [KH, KW, C] in the kernel's, would otherwise be
/// transposed on every call (EfficientNet-B0: 16 dispatches, 1.5% of its
/// time).
struct FoldConstantTranspose : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    ElementsAttr source;
    if (!op.hasPureTensorSemantics() ||
        !matchPattern(stripReshapes(op.getInput()), m_Constant(&source)))
      return rewriter.notifyMatchFailure(op, "input is not a constant");
    if (source.isSplat())
      return rewriter.notifyMatchFailure(op, "splat constant");
    std::optional<ArrayRef<char>> input = getConstantBytes(source);
    auto sourceType = cast<RankedTensorType>(op.getInput().getType());
    auto destType = cast<RankedTensorType>(op.getResult()[0].getType());
    if (!input || !hasByteElements(sourceType) || !hasByteElements(destType))
      return rewriter.notifyMatchFailure(op, "not static byte-sized bytes");
    int64_t elementBytes =
        sourceType.getElementType().getIntOrFloatBitWidth() / 8;
    if (static_cast<int64_t>(input->size()) !=
        sourceType.getNumElements() * elementBytes)
      return rewriter.notifyMatchFailure(op, "constant of another size");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, relayoutConstant(source, *input, destType, elementBytes,
                             sourceType.getShape(), op.getPermutation(),
                             /*innerDimsPos=*/{}, /*innerTiles=*/{},
                             /*padding=*/{}));
    return success();
  }
};

} // namespace

void populateFoldConstantPackPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldConstantPack, FoldConstantTranspose>(patterns.getContext());
}

void populateMaterializeDataTilingPatterns(RewritePatternSet &patterns,
                                           ArrayRef<CPUTargetInfo> targets) {
  MLIRContext *context = patterns.getContext();
  // A batch of one is a plain matmul (TOSA's matmul always has a batch).
  linalg::populateContractionOpRankReducingPatterns(patterns);
  patterns.add<PackContraction>(context, targets);
  populateFoldConstantPackPatterns(patterns);
  // Transposes (attention's split into heads and back) and pads fold into
  // the packs and unpacks next to them: a relayout that moves the data
  // anyway moves it into the transposed place.
  linalg::populateFoldIntoPackAndUnpackPatterns(patterns);
  linalg::populateFoldPackUnpackIntoTensorEmptyPatterns(patterns);
  linalg::FillOp::getCanonicalizationPatterns(patterns, context);
  linalg::PackOp::getCanonicalizationPatterns(patterns, context);
  linalg::UnPackOp::getCanonicalizationPatterns(patterns, context);
}

namespace {

struct MaterializeDataTilingPass
    : impl::MaterializeDataTilingPassBase<MaterializeDataTilingPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<CPUTargetInfo> targets;
    for (StringRef targetCPU : targetCPUs.empty()
                                   ? ArrayRef<std::string>{"host"}
                                   : ArrayRef<std::string>(targetCPUs)) {
      auto [cpu, features] = resolveTargetCPU(targetCPU);
      targets.push_back(getCPUTargetInfo(cpu, features));
    }
    RewritePatternSet patterns(&getContext());
    populateMaterializeDataTilingPatterns(patterns, targets);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
