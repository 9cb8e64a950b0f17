//===- SelectLoweringStrategy.cpp - tile sizes and workgroup counts -------===//
//
// Sizes are chosen on the op that does the heavy work (a matmul rather than
// its bias-add epilogue) and translated to the op the kernel stores, which is
// the one tiled and distributed: its tiles then cover the heavy op exactly.
// Register tiles come from the target's vector width and register count,
// workgroup tiles from its cache sizes. Tiles need not divide their loops:
// the last tile of a loop is peeled off and runs at its own (static or
// scalar) size.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "Analysis/DispatchRootOp.h"
#include "Analysis/PackAnalysis.h"
#include "Analysis/WorkgroupBudget.h"
#include "Codegen/CPU/DispatchConstants.h"
#include "Codegen/CPU/Utils.h"
#include "Target/CPU/CPUTarget.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_SELECTLOWERINGSTRATEGYPASS
#include "Codegen/CPU/Passes.h.inc"

LoweringConfigAttr getLoweringConfig(Operation *op) {
  return op->getAttrOfType<LoweringConfigAttr>("lowering_config");
}

namespace {

/// Work (in multiply-adds or element moves) below which a dispatch runs as
/// one workgroup: waking another thread costs more.
constexpr int64_t kMinDistributedWork = int64_t(1) << 15;
/// Workgroups a dispatch aims for, so that up to this many cores share the
/// work evenly (the thread count is only known at run time).
constexpr int64_t kTargetWorkgroups = 32;

/// The rows a packed contraction whose rows are known only at run time is
/// planned for.
constexpr int64_t kPlannedDynamicRows = 1024;

/// Row tiles a workgroup of a packed contraction with a constant RHS takes
/// at least where its rows split: the first of them waits on the
/// workgroup's RHS panels from beyond L2.
constexpr int64_t kMinRowTilesPerBlock = 64;

/// Columns a workgroup of a packed contraction that reads its LHS from
/// beyond L2, or packs its RHS panels itself, takes at least, so that each
/// LHS tile it loads serves them all, as long as that leaves
/// kMinWorkgroupsReusingLHS workgroups.
constexpr int64_t kMinLHSReuseColumns = 128;
constexpr int64_t kMinWorkgroupsReusingLHS = 8;

/// A tile of `preferred` for a loop of `range`: a divisor of the range when
/// one is at least `smallest` (no remainder), else `preferred` with a
/// remainder that is peeled (a smaller register block would run slower on
/// every tile, the remainder only on the last).
int64_t selectTile(int64_t range, int64_t preferred, int64_t smallest) {
  if (range <= preferred)
    return range;
  for (int64_t d = preferred; d >= std::max<int64_t>(1, smallest); --d)
    if (range % d == 0)
      return d;
  return preferred;
}

/// As above, a divisor at least three quarters of `preferred`.
int64_t selectTile(int64_t range, int64_t preferred) {
  return selectTile(range, preferred, llvm::divideCeil(preferred * 3, 4));
}

int64_t getElementBits(Operation *op) {
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  return type.isIntOrIndexOrFloat()
             ? std::max<unsigned>(8, type.getIntOrFloatBitWidth())
             : 32;
}

/// Workgroup and vector tiles per loop of one op.
struct TilePlan {
  SmallVector<int64_t> workgroup, vector;
};

//===----------------------------------------------------------------------===//
// Packed contractions: mmt4d and batch_mmt4d
//===----------------------------------------------------------------------===//

/// The kernel computes one M0 x N0 accumulator tile over all of K (or,
/// where the registers do not hold it, a tile laid out for another CPU,
/// each register block of it in turn); a workgroup takes Tm1 x Tn1 of them,
/// iterating N1 innermost, so its Tn1 RHS panels stay in L2 and each LHS
/// panel in L1 while it is reused.
TilePlan selectPackedContractionTiles(linalg::LinalgOp op,
                                      const CPUTargetInfo &target) {
  SmallVector<int64_t> ranges = getPlanningLoopRanges(op);
  // (b,) m1, n1, k1, m0, n0, k0.
  unsigned first = isa<linalg::BatchMmt4DOp>(op.getOperation()) ? 1 : 0;
  unsigned m1 = first, n1 = first + 1, k1 = first + 2;
  int64_t m0 = ranges[first + 3], n0 = ranges[first + 4],
          k0 = ranges[first + 5];
  // Rows known only at run time (a batch) are planned as a typical batch,
  // so that workgroups split them as they would those rows, and larger
  // batches get more of them.
  if (ShapedType::isDynamic(op.getStaticLoopRanges()[m1]))
    ranges[m1] = llvm::divideCeil(kPlannedDynamicRows, m0);
  TilePlan plan;
  plan.vector.assign(ranges.size(), 1);
  CPUTargetInfo::AccumulatorTile block =
      target.getRegisterBlock(getElementBits(op), m0, n0);
  plan.vector[first + 3] = block.rows;
  plan.vector[first + 4] = block.columns;
  plan.vector[first + 5] = k0;
  plan.workgroup.assign(ranges.size(), 0);
  if (first)
    plan.workgroup[0] = 1;

  int64_t elementBytes = getElementBits(op) / 8;
  int64_t rhsPanelBytes = ranges[k1] * n0 * k0 * elementBytes;
  int64_t maxTn1 =
      std::clamp<int64_t>(target.l2Bytes / 2 / rhsPanelBytes, 1, ranges[n1]);
  bool lhsFitsL2 =
      ranges[m1] * m0 * ranges[k1] * k0 * elementBytes <= target.l2Bytes;
  // A workgroup that packs its RHS panels itself runs every row against
  // them: splitting the rows would pack the same panels twice, so the
  // columns alone make the workgroups. Each reads all of the LHS, so a
  // workgroup takes at least kMinLHSReuseColumns columns. Intel Xeon, 1
  // thread (2 threads): matmul 1024, weights as inputs, AVX-512 code (an LHS
  // L2 does not hold, from memory every time), 12.2-13.0 ms (6.2-6.4) with
  // 32 columns per workgroup, 11.2-11.7 (5.9) with 128; matmul 256,
  // x86-64-v3 code, 0.304 ms (0.176) with 16 columns, 0.280 (0.161) with
  // 32, all its 8 workgroups allow. With an LHS that L2 holds: the MLP's
  // 64-row layers, AVX-512 code, 1.96 ms (0.99) with 32 columns, 1.82
  // (0.92) with 128; x86-64-v3 code the same with 16, 64 or 128.
  // A packed RHS (constant weights) is planned the same way when L2 holds
  // kMinLHSReuseColumns columns of it and not the LHS: split among row
  // blocks, each block's first row tile would wait on its panels from
  // memory, and with whole rows only the first of all does. Matmul 1000
  // and 1024 with constant weights, AVX-512 code, 2 MiB L2, 1 thread: 14.4
  // -> 13.5 ms and 15.6 -> 13.7. With a 512 KiB L2 (x86-64-v3: 64 columns)
  // the LHS would be read from memory twice as often, for no gain. Whole
  // rows make few workgroups, though (8 for matmul 1000: more cores would
  // idle), and each thread's share is whole column blocks, one of which
  // holds the padded columns: the rows split into blocks of at least
  // kMinRowTilesPerBlock row tiles, toward kTargetWorkgroups. AMD Zen 4,
  // AVX-512 code, two blocks: matmul 1000 with constant weights 1.00x at 1
  // thread, 1.005-1.02x at 2; matmul 1024 1.00x and 1.004-1.014x.
  bool packsRHS = op.getDpsInputs()[1].getDefiningOp<linalg::PackOp>();
  if (packsRHS || (!lhsFitsL2 && maxTn1 * n0 >= kMinLHSReuseColumns)) {
    int64_t columns = std::max<int64_t>(
        {1, ranges[n1] / kTargetWorkgroups,
         std::min<int64_t>(llvm::divideCeil(kMinLHSReuseColumns, n0),
                           ranges[n1] / kMinWorkgroupsReusingLHS)});
    plan.workgroup[n1] = std::min(maxTn1, columns);
    int64_t rowBlocks = 1;
    if (!packsRHS)
      rowBlocks = std::max<int64_t>(
          1, std::min<int64_t>(
                 kTargetWorkgroups /
                     llvm::divideCeil(ranges[n1], plan.workgroup[n1]),
                 ranges[m1] / kMinRowTilesPerBlock));
    plan.workgroup[m1] = llvm::divideCeil(ranges[m1], rowBlocks);
    return plan;
  }
  // Every column block reads all of the LHS and every row block all of the
  // RHS, from beyond L2 when the RHS does not fit there (an LHS that fits
  // is read again from L2: free). Of the splits into
  // kTargetWorkgroups, take the one that reads the fewest operand elements
  // from beyond L2; a narrower one must save an eighth to be taken, since
  // wider workgroups reuse each LHS tile from L1 longer. With few rows (a
  // batch of 64) this keeps the rows together and splits the columns: rows
  // split as finely as the columns would read the whole RHS once per row
  // tile. MLP 64x784-1024-1024-10, constant weights, AVX-512 code on an
  // Intel Xeon (2 MiB L2), 1 thread: 8 single-tile row blocks 2.3 ms, 2 row
  // blocks 1.5, whole rows 1.4. Its x86-64-v3 code (a 512 KiB L2) takes
  // whole rows too, 2 panels per workgroup.
  // Each row block reads an RHS that L2 does not hold from memory again,
  // which costs most where few rows (fewer than a block of
  // kMinRowTilesPerBlock row tiles) share each read: there the splits aim
  // for half as many workgroups. ResNet50's 7x7 stage, 49 rows by 9 MiB of
  // packed 3x3 filter, Intel Xeon, AVX-512 code, 1 thread: 16 column blocks
  // of 2 row blocks each 2.5 ms, of whole rows 1.7 ms.
  bool rereadsRHS =
      ranges[m1] < kMinRowTilesPerBlock &&
      ranges[n1] * n0 * ranges[k1] * k0 * elementBytes > target.l2Bytes;
  int64_t targetWorkgroups =
      rereadsRHS ? kTargetWorkgroups / 2 : kTargetWorkgroups;
  int64_t batches = first ? ranges[0] : 1;
  int64_t tm1 = ranges[m1], tn1 = maxTn1, bestReads = 0;
  int64_t narrowest = maxTn1 < ranges[n1] ? 1 : maxTn1;
  for (int64_t columns = maxTn1; columns >= narrowest; --columns) {
    int64_t columnBlocks = llvm::divideCeil(ranges[n1], columns);
    int64_t rowBlocks = std::max<int64_t>(
        1, llvm::divideCeil(targetWorkgroups, columnBlocks * batches));
    int64_t rows = llvm::divideCeil(ranges[m1], rowBlocks);
    // Each workgroup keeps enough work to repay its scheduling.
    int64_t perRow = columns * m0 * n0 * ranges[k1] * k0;
    rows = std::clamp<int64_t>(
        std::max<int64_t>(rows, llvm::divideCeil(kMinDistributedWork, perRow)),
        1, ranges[m1]);
    rowBlocks = llvm::divideCeil(ranges[m1], rows);
    int64_t reads = (lhsFitsL2 ? 0 : ranges[m1] * m0 * columnBlocks) +
                    ranges[n1] * n0 * rowBlocks;
    if (columns == maxTn1 || reads * 8 < bestReads * 7) {
      tm1 = rows;
      tn1 = columns;
      bestReads = reads;
    }
  }
  plan.workgroup[m1] = tm1;
  plan.workgroup[n1] = tn1;
  return plan;
}

/// The unpack of a packed contraction's result in the same dispatch, if it
/// is the contraction's only user.
linalg::UnPackOp findUnPackOfContraction(Operation *op) {
  if (!isa_and_present<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op) ||
      !op->hasOneUse())
    return nullptr;
  return dyn_cast<linalg::UnPackOp>(*op->getUsers().begin());
}

/// Carries the tiles of `plan`, over the loops of packed contraction `op`,
/// to the dims of `unpackOp`, which unpacks its result: a dim the inner
/// tiles split takes its outer loop's workgroup tile times the inner tile
/// and the inner tile as its vector tile (whole accumulator tiles, unpacked
/// as they are computed: a register block smaller than the tile is split
/// off later, by TileToVectorSizes, as an unpack of part of an inner tile
/// would compute the whole tile for each part); a batch dim keeps its
/// loop's tiles.
TilePlan mapContractionTilesToUnPack(linalg::LinalgOp op,
                                     linalg::UnPackOp unpackOp,
                                     const TilePlan &plan) {
  // The result's dims, (b,) m1, n1, m0, n0, as loops of the contraction.
  unsigned first = isa<linalg::BatchMmt4DOp>(op.getOperation()) ? 1 : 0;
  SmallVector<unsigned> outerLoops = {first, first + 1};
  if (first)
    outerLoops.insert(outerLoops.begin(), 0);
  unsigned innerLoops[] = {first + 3, first + 4};
  ArrayRef<int64_t> shape = unpackOp.getDestType().getShape();
  ArrayRef<int64_t> perm = unpackOp.getOuterDimsPerm();
  ArrayRef<int64_t> innerDims = unpackOp.getInnerDimsPos();
  ArrayRef<int64_t> innerTiles = unpackOp.getStaticInnerTiles();
  TilePlan result;
  result.workgroup.assign(shape.size(), 0);
  result.vector.assign(shape.size(), 1);
  for (int64_t dim = 0, rank = shape.size(); dim < rank; ++dim) {
    int64_t outer = perm.empty() ? dim : llvm::find(perm, dim) - perm.begin();
    unsigned loop = outerLoops[outer];
    const int64_t *inner = llvm::find(innerDims, dim);
    if (inner == innerDims.end()) {
      result.workgroup[dim] = plan.workgroup[loop];
      result.vector[dim] = plan.vector[loop];
      continue;
    }
    int64_t position = inner - innerDims.begin();
    result.workgroup[dim] = plan.workgroup[loop] * innerTiles[position];
    int64_t tile = ShapedType::isDynamic(innerTiles[position])
                       ? plan.vector[innerLoops[position]]
                       : innerTiles[position];
    result.vector[dim] =
        ShapedType::isDynamic(shape[dim]) ? tile : std::min(tile, shape[dim]);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Relayouts: pack and unpack
//===----------------------------------------------------------------------===//

/// Elements a relayout workgroup moves: enough to amortize its scheduling.
constexpr int64_t kRelayoutWorkgroupElements = int64_t(1) << 14;

/// Distributes one loop of a relayout, `splitLoop`, over workgroups that
/// move about kRelayoutWorkgroupElements each; `elementsPerPoint` is the
/// number of elements one point of the loops moves.
SmallVector<int64_t> selectRelayoutWorkgroupTiles(ArrayRef<int64_t> ranges,
                                                  ArrayRef<int64_t> vector,
                                                  int64_t elementsPerPoint,
                                                  unsigned splitLoop) {
  int64_t total = elementsPerPoint;
  for (int64_t range : ranges)
    total *= range;
  SmallVector<int64_t> tiles(ranges.size(), 0);
  if (total < kMinDistributedWork || ranges.empty() || ranges[splitLoop] <= 1)
    return tiles;
  int64_t workgroups = std::clamp<int64_t>(total / kRelayoutWorkgroupElements,
                                           1, kTargetWorkgroups * 4);
  int64_t step = std::max<int64_t>(1, vector[splitLoop]);
  tiles[splitLoop] =
      llvm::alignTo(llvm::divideCeil(ranges[splitLoop], workgroups), step);
  return tiles;
}

/// A pack's loops are its destination's outer dims; one vector iteration
/// moves a row of lanes-many inner tiles (one tile, when the tiles' sizes
/// are known only at run time).
TilePlan selectPackTiles(linalg::PackOp op, const CPUTargetInfo &target) {
  ArrayRef<int64_t> destShape = op.getDestType().getShape();
  int64_t outerRank = op.getSourceRank();
  SmallVector<int64_t> ranges = getPlanningLoopRanges(op);
  int64_t innerElements = 1;
  bool dynamicTiles = false;
  for (int64_t size : destShape.drop_front(outerRank)) {
    dynamicTiles = dynamicTiles || ShapedType::isDynamic(size);
    innerElements *= ShapedType::isDynamic(size) ? 1 : size;
  }
  TilePlan plan;
  plan.vector.assign(outerRank, 1);
  if (outerRank > 0 && !dynamicTiles)
    plan.vector.back() =
        selectTile(ranges.back(), target.getLanes(getElementBits(op)));
  // Workgroups split the loop over the source's outermost dim, so each
  // reads whole rows of the source: splitting another (the columns of a
  // transposed RHS) would read one cache line per row, a page apart.
  ArrayRef<int64_t> perm = op.getOuterDimsPerm();
  unsigned splitLoop = perm.empty() ? 0 : llvm::find(perm, 0) - perm.begin();
  plan.workgroup = selectRelayoutWorkgroupTiles(ranges, plan.vector,
                                                innerElements, splitLoop);
  return plan;
}

/// An unpack's loops are its destination's dims; one vector iteration
/// writes one inner tile.
TilePlan selectUnPackTiles(linalg::UnPackOp op) {
  SmallVector<int64_t> ranges = getPlanningLoopRanges(op);
  TilePlan plan;
  plan.vector.assign(ranges.size(), 1);
  for (auto [dim, tile] :
       llvm::zip(op.getInnerDimsPos(), op.getStaticInnerTiles()))
    plan.vector[dim] = std::min(tile, ranges[dim]);
  // Whole rows of the result (and of its source's tiles) per workgroup.
  plan.workgroup = selectRelayoutWorkgroupTiles(ranges, plan.vector, 1,
                                                /*splitLoop=*/0);
  return plan;
}

//===----------------------------------------------------------------------===//
// Other linalg ops
//===----------------------------------------------------------------------===//

/// Elements along a transposed input's innermost dim per block, each
/// becoming a vector of the result's innermost dim.
constexpr int64_t kTransposeBlockRows = 8;

/// Vector tile per loop of `op`.
SmallVector<int64_t> selectVectorTiles(linalg::LinalgOp op,
                                       const CPUTargetInfo &target) {
  int64_t lanes = target.getLanes(getElementBits(op));
  SmallVector<int64_t> ranges = getPlanningLoopRanges(op);
  SmallVector<int64_t> tiles(ranges.size(), 1);
  if (ranges.empty())
    return tiles;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (linalg::isaContractionOpInterface(op) && succeeded(dims) &&
      !dims->m.empty() && !dims->n.empty()) {
    // Contractions too small to pack: the target's accumulator block,
    // updated by rank-1 products.
    unsigned m = dims->m.back(), n = dims->n.back();
    CPUTargetInfo::AccumulatorTile block =
        target.getContractionTile(getElementBits(op));
    tiles[m] = selectTile(ranges[m], block.rows);
    tiles[n] = selectTile(ranges[n], block.columns);
    return tiles;
  }
  if (linalg::isaContractionOpInterface(op) && succeeded(dims) &&
      dims->m.empty() && dims->n.size() == 1 && dims->k.size() == 1 &&
      op.getNumDpsInputs() == 2) {
    // A vector times a matrix whose rows are contiguous ([K, N], as a
    // squeeze-and-excitation block's 1x1 convolutions on one pixel): each
    // step of K adds a row times one broadcast element to a block of N
    // accumulators. Lanes along K would gather a column, an element a row.
    unsigned n = dims->n.front(), k = dims->k.front();
    AffineMap matrix = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
    if (matrix.getNumResults() == 2 &&
        matrix.getResult(1) == getAffineDimExpr(n, op.getContext())) {
      CPUTargetInfo::AccumulatorTile block =
          target.getContractionTile(getElementBits(op));
      tiles[n] = selectTile(ranges[n], block.columns);
      tiles[k] = 1;
      return tiles;
    }
  }
  FailureOr<linalg::ConvolutionDimensions> convDims =
      linalg::inferConvolutionDims(op);
  if (succeeded(convDims) && isa<linalg::GenericOp>(op.getOperation()) &&
      convDims->depth.size() == 1 && convDims->inputChannel.size() == 1 &&
      convDims->outputChannel.size() == 1 && !convDims->outputImage.empty()) {
    // A direct convolution over groups of channels ([G, M/G] outputs, a
    // group's inputs broadcast): each step of a tap and an input channel
    // adds an input element times vectors of one group's outputs, for a
    // row of pixels that fills the target's convolution block of
    // registers. A row that divides the image's, down to half the block,
    // takes no remainder: ResNeXt's 28x28 stage (8 outputs per group), 1
    // thread, a Xeon reporting CPUID model 167: AVX-512 code 14 pixels 0.34
    // ms, 10 and a remainder 0.39; AVX2 code (12 registers) 7 pixels 0.33
    // ms, 4 0.42. Several groups per vector where a group has fewer outputs
    // than lanes ran no faster (AVX-512 code, 4 outputs: 0.54 ms either
    // way; 8: 0.40 ms for 7 pixels of 2 groups against 0.34 for 14 of one;
    // AVX2 code, 8 outputs: 0.32 ms for 4 pixels of 2 groups).
    unsigned outputs = convDims->outputChannel.front();
    CPUTargetInfo::ConvolutionTile block =
        target.getConvolutionTile(getElementBits(op));
    tiles[outputs] = selectTile(ranges[outputs], block.columns);
    int64_t registersPerPixel = llvm::divideCeil(tiles[outputs], lanes);
    int64_t registers = block.rows * llvm::divideCeil(block.columns, lanes);
    int64_t pixels = std::max<int64_t>(1, registers / registersPerPixel);
    unsigned ow = convDims->outputImage.back();
    tiles[ow] = selectTile(ranges[ow], pixels, pixels / 2);
    return tiles;
  }
  if (succeeded(convDims) && !isa<linalg::GenericOp>(op.getOperation())) {
    const linalg::ConvolutionDimensions *dims = &*convDims;
    // Named convolutions and poolings are decomposed into 1-D ones, which
    // needs unit tiles on all but the last image and filter loop.
    if (!dims->filterLoop.empty())
      tiles[dims->filterLoop.back()] = 0;
    if (!dims->inputChannel.empty() && !dims->outputChannel.empty()) {
      // A convolution over channels is a contraction per filter tap: the
      // accumulator block spans output columns (rows of the block) and
      // output channels, and each step reads one input channel, so the
      // input elements are broadcast from memory rather than shuffled out
      // of a vector.
      CPUTargetInfo::ConvolutionTile block =
          target.getConvolutionTile(getElementBits(op));
      bool wholeFilterRow = block.wholeFilterRow && !dims->filterLoop.empty();
      if (!dims->filterLoop.empty() && !wholeFilterRow)
        tiles[dims->filterLoop.back()] = 1;
      if (!dims->outputImage.empty()) {
        // A filter row's taps also read the input elements just past the
        // block (its halo), which stay live in registers: fewer rows.
        int64_t halo =
            wholeFilterRow ? ranges[dims->filterLoop.back()] - 1 : 0;
        unsigned ow = dims->outputImage.back();
        tiles[ow] =
            selectTile(ranges[ow], std::max<int64_t>(1, block.rows - halo));
      }
      unsigned oc = dims->outputChannel.back();
      tiles[oc] = selectTile(ranges[oc], block.columns);
      tiles[dims->inputChannel.back()] = 1;
      return tiles;
    }
    // Depthwise convolutions and poolings: lanes of channels per output
    // column.
    if (!dims->outputImage.empty()) {
      unsigned ow = dims->outputImage.back();
      tiles[ow] = selectTile(ranges[ow], 8);
    }
    for (ArrayRef<unsigned> channels : {ArrayRef<unsigned>(dims->outputChannel),
                                        ArrayRef<unsigned>(dims->depth)})
      if (!channels.empty())
        tiles[channels.back()] = selectTile(ranges[channels.back()], lanes);
    // A pool's channels are, to the interface, a batch of the input and
    // output (no filter reads them): channels-last, the result's innermost
    // dim, in lanes too, where one channel per vector gathered strided
    // columns (ResNet50's max pool, 1 thread: 1.4 -> 0.24 ms in AVX-512
    // code, 1.1 -> 0.33 ms in AVX2 code).
    AffineMap outputMap = op.getIndexingMapsArray().back();
    if (dims->outputChannel.empty() && dims->depth.empty() &&
        !dims->batch.empty() &&
        outputMap.getResults().back() ==
            getAffineDimExpr(dims->batch.back(), op.getContext()))
      tiles[dims->batch.back()] = selectTile(ranges[dims->batch.back()], lanes);
    if (!dims->inputChannel.empty())
      tiles[dims->inputChannel.back()] =
          selectTile(ranges[dims->inputChannel.back()], 8);
    return tiles;
  }
  tiles.back() = selectTile(ranges.back(), lanes);
  // A transpose (an input whose innermost dim is another loop than the
  // result's) moves blocks, kTransposeBlockRows elements along the input's
  // innermost dim by a vector along the result's, transposed in registers,
  // instead of one strided element per lane (a 1x56x56x256 image NCHW to NHWC,
  // 1 thread: AVX-512 code 0.70 -> 0.34 ms, rows of 16 lanes 0.36 ms; AVX2
  // code 0.82 -> 0.32 ms).
  if (op.getNumLoops() == op.getNumParallelLoops())
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.getNumResults() == 0 || !map.isProjectedPermutation())
        continue;
      auto inner = dyn_cast<AffineDimExpr>(map.getResults().back());
      unsigned position = inner ? inner.getPosition() : ranges.size() - 1;
      if (position == ranges.size() - 1 || ranges[position] == 1)
        continue;
      tiles[position] = selectTile(ranges[position], kTransposeBlockRows);
      break;
    }
  return tiles;
}

/// Workgroup tiles for the parallel loops of `op` (0: not distributed) that
/// give each workgroup enough work to amortize its scheduling.
SmallVector<int64_t> selectWorkgroupTiles(linalg::LinalgOp op,
                                          ArrayRef<int64_t> vectorTiles) {
  SmallVector<int64_t> ranges = getPlanningLoopRanges(op);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> tiles(ranges.size(), 0);
  int64_t reduction = 1, parallel = 1;
  SmallVector<unsigned> distributed;
  for (auto [i, range] : llvm::enumerate(ranges)) {
    if (iterators[i] == utils::IteratorType::reduction) {
      reduction *= range;
      continue;
    }
    parallel *= range;
    // The outermost three parallel loops with more than one iteration map
    // to the z, y, x workgroup grid.
    if (range > 1 && distributed.size() < 3)
      distributed.push_back(i);
  }
  if (parallel * reduction < kMinDistributedWork || distributed.empty())
    return tiles;
  int64_t budget = getWorkgroupOutputBudget(reduction);
  for (auto [i, range] : llvm::enumerate(ranges))
    if (iterators[i] == utils::IteratorType::parallel &&
        !llvm::is_contained(distributed, i))
      budget = std::max<int64_t>(1, budget / range);
  bool isContraction = linalg::isaContractionOpInterface(op);
  for (unsigned d : llvm::reverse(distributed)) {
    int64_t step = std::max<int64_t>(1, vectorTiles[d]);
    int64_t cap = isContraction ? std::min<int64_t>(budget, 64) : budget;
    // A multiple of the vector tile, so that only the last workgroup of a
    // loop has a remainder.
    int64_t tile = std::min(ranges[d], std::max(step, cap / step * step));
    // Where the vector tile does not divide the range, workgroups of one
    // extent if as many divide it: a static remainder in each is vectorized
    // where the last one's extent, known only at run time, leaves its
    // remainder scalar (ResNet50's 28-column 3x3 convolutions in AVX2 code,
    // 6-column tiles: in workgroups of 24 and 4 columns 6.6x AVX-512's time,
    // in two of 14 2.2x; the model 1.25x faster).
    int64_t count = llvm::divideCeil(ranges[d], tile);
    if (ranges[d] % step != 0 && ranges[d] % count == 0)
      tile = ranges[d] / count;
    tiles[d] = tile;
    budget = std::max<int64_t>(1, budget / tile);
  }
  return tiles;
}

//===----------------------------------------------------------------------===//
// Export configuration
//===----------------------------------------------------------------------===//

TilePlan selectTiles(Operation *op, const CPUTargetInfo &target) {
  if (isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(op))
    return selectPackedContractionTiles(cast<linalg::LinalgOp>(op), target);
  if (auto packOp = dyn_cast<linalg::PackOp>(op))
    return selectPackTiles(packOp, target);
  if (auto unpackOp = dyn_cast<linalg::UnPackOp>(op))
    return selectUnPackTiles(unpackOp);
  auto linalgOp = cast<linalg::LinalgOp>(op);
  TilePlan plan;
  plan.vector = selectVectorTiles(linalgOp, target);
  plan.workgroup = selectWorkgroupTiles(linalgOp, plan.vector);
  return plan;
}

/// Maps each loop of `consumer` to the loop of `producer` it iterates
/// together with, when `consumer` is an elementwise chain reading
/// `producer`'s result through permutations; empty otherwise.
SmallVector<int64_t> mapLoopsToProducer(linalg::LinalgOp consumer,
                                        Operation *producer) {
  SmallVector<int64_t> loops =
      llvm::to_vector(llvm::seq<int64_t>(0, consumer.getNumLoops()));
  linalg::LinalgOp current = consumer;
  while (current != producer) {
    OpOperand *next = nullptr;
    for (OpOperand *input : current.getDpsInputOperands()) {
      Operation *defining = input->get().getDefiningOp();
      if (isa_and_present<linalg::LinalgOp, linalg::UnPackOp>(defining) &&
          !isa<linalg::FillOp>(defining) && (!next || defining == producer))
        next = input;
    }
    if (!next || current.getNumReductionLoops() > 0)
      return {};
    AffineMap readMap = current.getMatchingIndexingMap(next);
    if (!readMap.isPermutation())
      return {};
    Operation *defining = next->get().getDefiningOp();
    // An unpack's loops are its result's dims.
    AffineMap writeMap = AffineMap::getMultiDimIdentityMap(
        readMap.getNumResults(), readMap.getContext());
    if (auto definingLinalg = dyn_cast<linalg::LinalgOp>(defining))
      writeMap = definingLinalg.getIndexingMapMatchingResult(
          cast<OpResult>(next->get()));
    if (!writeMap.isProjectedPermutation())
      return {};
    for (int64_t &loop : loops) {
      unsigned position = *readMap.getResultPosition(
          getAffineDimExpr(loop, readMap.getContext()));
      loop = writeMap.getDimPosition(position);
    }
    if (defining == producer)
      break;
    current = dyn_cast<linalg::LinalgOp>(defining);
    if (!current)
      return {};
  }
  return loops;
}

/// Marks the loops of the stored op that its tiles must keep whole: those a
/// reduction it reads (directly or through other ops) is broadcast along.
/// Tiling them would compute that reduction once per tile instead of once
/// per row. `toOp` maps each stored-op loop to a loop of `op`, if any.
void markLoopsOverReductions(linalg::LinalgOp op,
                             ArrayRef<std::optional<unsigned>> toOp,
                             SmallVectorImpl<bool> &whole, unsigned depth) {
  // Chains are short; the bound only guards against pathological programs.
  if (depth > 16)
    return;
  if (depth > 0 && op.getNumReductionLoops() > 0)
    for (auto [i, loop] : llvm::enumerate(toOp))
      if (!loop)
        whole[i] = true;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto producer = input->get().getDefiningOp<linalg::LinalgOp>();
    if (!producer || isa<linalg::FillOp>(producer.getOperation()))
      continue;
    AffineMap readMap = op.getMatchingIndexingMap(input);
    AffineMap writeMap =
        producer.getIndexingMapMatchingResult(cast<OpResult>(input->get()));
    if (!readMap.isProjectedPermutation() || !writeMap.isProjectedPermutation())
      continue;
    SmallVector<std::optional<unsigned>> next(toOp.size());
    for (auto [i, loop] : llvm::enumerate(toOp)) {
      if (!loop)
        continue;
      if (std::optional<unsigned> position = readMap.getResultPosition(
              getAffineDimExpr(*loop, readMap.getContext())))
        next[i] = writeMap.getDimPosition(*position);
    }
    markLoopsOverReductions(producer, next, whole, depth + 1);
  }
}

/// The op whose results the kernel stores to its output bindings, when a
/// single tileable op produces all of them.
Operation *findStoredOp(func::FuncOp funcOp) {
  Operation *stored = nullptr;
  bool single = true;
  funcOp.walk([&](bufferization::MaterializeInDestinationOp storeOp) {
    Operation *producer = storeOp.getSource().getDefiningOp();
    if (stored && producer != stored)
      single = false;
    stored = producer;
  });
  if (!single ||
      !isa_and_present<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp>(
          stored))
    return nullptr;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(stored))
    if (!linalgOp.hasPureTensorSemantics())
      return nullptr;
  return stored;
}

/// A pad or concat stored whole (an insert_slice, whose chain the workgroup
/// tiling splits by rows of its destination): workgroups of rows along the
/// outermost dim known at compile time with more than one row (a batch
/// known only at run time is taken whole, and counted as one).
bool configureInsertSlice(ExecutableExportOp exportOp, func::FuncOp funcOp) {
  tensor::InsertSliceOp stored;
  funcOp.walk([&](bufferization::MaterializeInDestinationOp storeOp) {
    stored = storeOp.getSource().getDefiningOp<tensor::InsertSliceOp>();
  });
  if (!stored)
    return false;
  ArrayRef<int64_t> shape = stored.getType().getShape();
  int64_t elements = getStaticElementCount(stored.getType());
  auto dim = llvm::find_if(shape, [](int64_t size) { return size > 1; });
  if (dim == shape.end() || elements < kMinDistributedWork)
    return false;
  int64_t workgroups = std::clamp<int64_t>(
      elements / kRelayoutWorkgroupElements, 1, kTargetWorkgroups * 4);
  int64_t tile = llvm::divideCeil(*dim, workgroups);
  if (tile >= *dim)
    return false;
  SmallVector<int64_t> workgroup(shape.size(), 0);
  workgroup[dim - shape.begin()] = tile;
  MLIRContext *context = funcOp.getContext();
  stored->setAttr(
      "lowering_config",
      LoweringConfigAttr::get(context, workgroup,
                              SmallVector<int64_t>(shape.size(), 0)));
  const int64_t count = llvm::divideCeil(*dim, tile);
  exportOp.setWorkgroupCountAttr(
      DenseI64ArrayAttr::get(context, {count, int64_t(1), int64_t(1)}));
  return true;
}

LogicalResult configureExport(ExecutableExportOp exportOp, func::FuncOp funcOp,
                              const CPUTargetInfo &target) {
  if (configureInsertSlice(exportOp, funcOp))
    return success();
  MLIRContext *context = funcOp.getContext();
  SmallVector<int64_t> workgroupCount = {1, 1, 1};
  // (grid dimension, dispatch constant, tile) of each dynamic loop.
  SmallVector<int64_t> workgroupTiles;
  bool unresolved = false;
  auto setConfig = [&](Operation *op, ArrayRef<int64_t> workgroup,
                       ArrayRef<int64_t> vector) {
    op->setAttr("lowering_config",
                LoweringConfigAttr::get(context, workgroup, vector));
  };

  // Empty loops need no tiles: such ops become loops that never run.
  auto hasEmptyLoop = [](Operation *op) {
    return llvm::is_contained(getStaticLoopRanges(op), 0);
  };
  Operation *storedOp = findStoredOp(funcOp);
  if (storedOp && hasEmptyLoop(storedOp))
    storedOp = nullptr;
  Operation *heavyOp = findDispatchRootOp(funcOp.getBody());
  if (heavyOp &&
      !isa<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp>(heavyOp))
    heavyOp = nullptr;
  auto distributeStoredOp = [&](SmallVector<int64_t> workgroup,
                                ArrayRef<int64_t> vector) {
    // A tile covering its whole loop distributes nothing: tiling folds that
    // loop away, so it must not take a dimension of the grid either.
    SmallVector<int64_t> ranges = getStaticLoopRanges(storedOp);
    for (auto [tile, range] : llvm::zip(workgroup, ranges))
      if (!ShapedType::isDynamic(range) && tile >= range)
        tile = 0;
    setConfig(storedOp, workgroup, vector);
    // Workgroup grid: x is the innermost distributed loop. A loop whose
    // range is a dispatch constant scales its dimension at run time.
    SmallVector<SmallVector<int64_t>> loopConstants =
        findLoopRangeConstants(storedOp);
    int64_t dim = 0;
    for (int64_t i = workgroup.size() - 1; i >= 0 && dim < 3; --i) {
      if (workgroup[i] == 0)
        continue;
      if (!ShapedType::isDynamic(ranges[i])) {
        workgroupCount[dim++] = llvm::divideCeil(ranges[i], workgroup[i]);
        continue;
      }
      if (loopConstants.size() <= static_cast<size_t>(i) ||
          loopConstants[i].empty()) {
        storedOp->emitError() << "loop " << i
                              << " has a range known only at run time that "
                                 "is no extent of the dispatch's bindings";
        unresolved = true;
        return;
      }
      llvm::append_values(workgroupTiles, dim++, loopConstants[i].front(),
                          workgroup[i]);
    }
  };
  // A packed contraction unpacked in its dispatch: its tiles, planned on it,
  // carried to the unpack's dims and from there along the epilogue.
  linalg::UnPackOp unpackOfHeavy = storedOp && heavyOp && !hasEmptyLoop(heavyOp)
                                       ? findUnPackOfContraction(heavyOp)
                                       : nullptr;
  SmallVector<int64_t> loopsToUnPack;
  if (unpackOfHeavy && storedOp == unpackOfHeavy.getOperation())
    loopsToUnPack =
        llvm::to_vector(llvm::seq<int64_t>(0, unpackOfHeavy.getDestRank()));
  else if (auto storedLinalg = dyn_cast_if_present<linalg::LinalgOp>(storedOp);
           unpackOfHeavy && storedLinalg)
    loopsToUnPack = mapLoopsToProducer(storedLinalg, unpackOfHeavy);
  if (!loopsToUnPack.empty()) {
    TilePlan contractionPlan = selectTiles(heavyOp, target);
    TilePlan unpackPlan = mapContractionTilesToUnPack(
        cast<linalg::LinalgOp>(heavyOp), unpackOfHeavy, contractionPlan);
    SmallVector<int64_t> vector, workgroup;
    for (int64_t dim : loopsToUnPack) {
      vector.push_back(unpackPlan.vector[dim]);
      workgroup.push_back(unpackPlan.workgroup[dim]);
    }
    setConfig(heavyOp, {}, contractionPlan.vector);
    distributeStoredOp(workgroup, vector);
  } else if (storedOp) {
    SmallVector<int64_t> loopMap;
    auto storedLinalg = dyn_cast<linalg::LinalgOp>(storedOp);
    if (heavyOp && heavyOp != storedOp && storedLinalg &&
        !hasEmptyLoop(heavyOp))
      loopMap = mapLoopsToProducer(storedLinalg, heavyOp);
    // A reduction chain (softmax, layernorm) is tiled by its rows, each
    // row's reductions computed whole in the tile.
    SmallVector<bool> wholeLoops;
    if (storedLinalg) {
      wholeLoops.assign(storedLinalg.getNumLoops(), false);
      SmallVector<std::optional<unsigned>> identity;
      for (unsigned i = 0; i < storedLinalg.getNumLoops(); ++i)
        identity.push_back(i);
      markLoopsOverReductions(storedLinalg, identity, wholeLoops, 0);
      if (llvm::is_contained(wholeLoops, true))
        loopMap.clear();
    }
    Operation *planOp = loopMap.empty() ? storedOp : heavyOp;
    TilePlan plan = selectTiles(planOp, target);
    if (llvm::is_contained(wholeLoops, true)) {
      for (auto [i, whole] : llvm::enumerate(wholeLoops)) {
        plan.vector[i] = whole ? 0 : 1;
        if (whole)
          plan.workgroup[i] = 0;
      }
    }
    SmallVector<int64_t> vector = plan.vector, workgroup = plan.workgroup;
    if (!loopMap.empty()) {
      vector.assign(storedLinalg.getNumLoops(), 1);
      workgroup.assign(storedLinalg.getNumLoops(), 0);
      for (auto [loop, heavyLoop] : llvm::enumerate(loopMap)) {
        vector[loop] = plan.vector[heavyLoop];
        workgroup[loop] = plan.workgroup[heavyLoop];
      }
      setConfig(heavyOp, {}, plan.vector);
    }
    distributeStoredOp(workgroup, vector);
  }
  // A pack inside a contraction's dispatch is read in place (its LHS, see
  // canReadPackInPlace) or tiled on its own like a pack dispatch (its RHS,
  // packed per workgroup).
  funcOp.walk([&](linalg::PackOp op) {
    if (getLoweringConfig(op) || op == storedOp)
      return;
    if (canReadPackInPlace(op))
      op->setAttr(kReadInPlaceAttrName, UnitAttr::get(context));
    else
      setConfig(op, {}, selectPackTiles(op, target).vector);
  });
  // Other ops with reductions tile them on their own; a reduction small
  // enough to vectorize whole (a row of a softmax) is not tiled.
  funcOp.walk([&](linalg::LinalgOp op) {
    if (getLoweringConfig(op) || op.getNumReductionLoops() == 0 ||
        !op.hasPureTensorSemantics() || hasEmptyLoop(op))
      return;
    SmallVector<int64_t> vector = selectVectorTiles(op, target);
    int64_t reduced = 1;
    for (auto [range, iterator] :
         llvm::zip(getPlanningLoopRanges(op), op.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::reduction)
        reduced *= range;
    if (reduced <= kMaxVectorizedElements)
      for (auto [tile, iterator] :
           llvm::zip(vector, op.getIteratorTypesArray()))
        if (iterator == utils::IteratorType::reduction)
          tile = 0;
    setConfig(op, {}, vector);
  });
  exportOp.setWorkgroupCountAttr(
      DenseI64ArrayAttr::get(context, workgroupCount));
  if (!workgroupTiles.empty())
    exportOp.setWorkgroupTilesAttr(
        DenseI64ArrayAttr::get(context, workgroupTiles));
  return success(!unresolved);
}

struct SelectLoweringStrategyPass
    : impl::SelectLoweringStrategyPassBase<SelectLoweringStrategyPass> {
  void runOnOperation() override {
    ExecutableVariantOp variantOp = getOperation();
    ModuleOp innerModule = variantOp.getInnerModule();
    if (!innerModule) {
      variantOp.emitError("variant has no module to compile");
      return signalPassFailure();
    }
    CPUTargetInfo target =
        getCPUTargetInfo(variantOp.getCpu(), variantOp.getFeatures());
    for (ExecutableExportOp exportOp : variantOp.getExportOps()) {
      auto funcOp =
          innerModule.lookupSymbol<func::FuncOp>(exportOp.getSymName());
      if (!funcOp) {
        exportOp.emitError("export has no function in the variant module");
        return signalPassFailure();
      }
      if (failed(configureExport(exportOp, funcOp, target)))
        return signalPassFailure();
    }
  }
};

} // namespace
} // namespace mlir::kiln
