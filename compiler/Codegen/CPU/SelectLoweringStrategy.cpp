//===- SelectLoweringStrategy.cpp - tile sizes and workgroup counts -------===//
//
// Sizes are chosen on the op that does the heavy work (a matmul rather than
// its bias-add epilogue) and translated to the op the kernel stores, which is
// the one tiled and distributed: its tiles then cover the heavy op exactly.
// Every chosen size divides its loop range, so tiles are static and full.
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "Dispatch/Utils.h"
#include "llvm/TargetParser/X86TargetParser.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_SELECTLOWERINGSTRATEGYPASS
#include "Codegen/CPU/Passes.h.inc"

LoweringConfigAttr getLoweringConfig(Operation *op) {
  return op->getAttrOfType<LoweringConfigAttr>("lowering_config");
}

namespace {

/// Vector register width in bytes of the variant's CPU.
int64_t getVectorBytes(ExecutableVariantOp variantOp) {
  SmallVector<StringRef> features;
  llvm::X86::getFeaturesForCPU(variantOp.getCpu(), features);
  StringRef extra = variantOp.getFeatures();
  auto has = [&](StringRef feature) {
    return llvm::is_contained(features, feature) ||
           extra.contains(("+" + feature + ",").str()) ||
           extra.ends_with(("+" + feature).str());
  };
  // Every AVX-512 subset implies avx512f (x86-64-v4 lists only subsets).
  if (has("avx512f") || has("avx512vl") || has("avx512bw"))
    return 64;
  if (has("avx2") || has("avx"))
    return 32;
  return 16;
}

int64_t largestDivisorAtMost(int64_t n, int64_t cap) {
  for (int64_t d = std::min(n, cap); d > 1; --d)
    if (n % d == 0)
      return d;
  return 1;
}

/// Largest multiple of `step` that divides `n` and is at most `cap` (at least
/// `step`, which divides `n`).
int64_t largestMultipleDividing(int64_t n, int64_t step, int64_t cap) {
  int64_t best = step;
  for (int64_t t = step; t <= std::min(n, cap); t += step)
    if (n % t == 0)
      best = t;
  return best;
}

/// Elements of the op's result type in one vector register.
int64_t getLanes(linalg::LinalgOp op, int64_t vectorBytes) {
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  int64_t bits = std::max<int64_t>(8, elementType.getIntOrFloatBitWidth());
  return std::max<int64_t>(1, vectorBytes * 8 / bits);
}

/// Vector tile per loop of `op`.
SmallVector<int64_t> selectVectorTiles(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> tiles(ranges.size(), 1);
  if (ranges.empty())
    return tiles;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (linalg::isaContractionOpInterface(op) && succeeded(dims) &&
      !dims->m.empty() && !dims->n.empty()) {
    // An 8 x 2-register accumulator block, updated by rank-1 products.
    unsigned m = dims->m.back(), n = dims->n.back();
    tiles[m] = largestDivisorAtMost(ranges[m], 8);
    tiles[n] = largestDivisorAtMost(ranges[n], 2 * lanes);
    return tiles;
  }
  if (FailureOr<linalg::ConvolutionDimensions> convDims =
          linalg::inferConvolutionDims(op);
      succeeded(convDims) && !isa<linalg::GenericOp>(op.getOperation())) {
    const linalg::ConvolutionDimensions *dims = &*convDims;
    // Named convolutions and poolings are decomposed into 1-D ones, which
    // needs unit tiles on all but the last image and filter loop.
    if (!dims->outputImage.empty()) {
      unsigned ow = dims->outputImage.back();
      tiles[ow] = largestDivisorAtMost(ranges[ow], 8);
    }
    if (!dims->filterLoop.empty())
      tiles[dims->filterLoop.back()] = 0;
    for (ArrayRef<unsigned> channels : {ArrayRef<unsigned>(dims->outputChannel),
                                        ArrayRef<unsigned>(dims->depth)})
      if (!channels.empty())
        tiles[channels.back()] =
            largestDivisorAtMost(ranges[channels.back()], lanes);
    if (!dims->inputChannel.empty())
      tiles[dims->inputChannel.back()] =
          largestDivisorAtMost(ranges[dims->inputChannel.back()], 8);
    return tiles;
  }
  tiles.back() = largestDivisorAtMost(ranges.back(), lanes);
  return tiles;
}

/// Workgroup tiles for the parallel loops of `op` (0: not distributed) that
/// give each workgroup enough work to amortize its scheduling.
SmallVector<int64_t> selectWorkgroupTiles(linalg::LinalgOp op,
                                          ArrayRef<int64_t> vectorTiles) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
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
  if (parallel * reduction < (1 << 15) || distributed.empty())
    return tiles;
  // Output elements per workgroup: fewer when each costs a long reduction.
  int64_t budget =
      std::clamp<int64_t>((int64_t(1) << 22) / reduction, 1024, 16384);
  for (auto [i, range] : llvm::enumerate(ranges))
    if (iterators[i] == utils::IteratorType::parallel &&
        !llvm::is_contained(distributed, i))
      budget = std::max<int64_t>(1, budget / range);
  bool isContraction = linalg::isaContractionOpInterface(op);
  for (unsigned d : llvm::reverse(distributed)) {
    int64_t step = std::max<int64_t>(1, vectorTiles[d]);
    int64_t cap = isContraction ? std::min<int64_t>(budget, 64) : budget;
    tiles[d] = largestMultipleDividing(ranges[d], step, std::max(cap, step));
    budget = std::max<int64_t>(1, budget / tiles[d]);
  }
  for (auto [i, range] : llvm::enumerate(ranges))
    if (tiles[i] == range)
      tiles[i] = 0;
  return tiles;
}

/// Maps each loop of `consumer` to the loop of `producer` it iterates
/// together with, when `consumer` is an elementwise chain reading
/// `producer`'s result through permutations; empty otherwise.
SmallVector<int64_t> mapLoopsToProducer(linalg::LinalgOp consumer,
                                        linalg::LinalgOp producer) {
  SmallVector<int64_t> loops =
      llvm::to_vector(llvm::seq<int64_t>(0, consumer.getNumLoops()));
  linalg::LinalgOp current = consumer;
  while (current != producer) {
    OpOperand *next = nullptr;
    for (OpOperand *input : current.getDpsInputOperands()) {
      auto defining = input->get().getDefiningOp<linalg::LinalgOp>();
      if (defining && !isa<linalg::FillOp>(defining.getOperation()) &&
          (!next || defining == producer))
        next = input;
    }
    if (!next || current.getNumReductionLoops() > 0)
      return {};
    AffineMap readMap = current.getMatchingIndexingMap(next);
    auto defining = next->get().getDefiningOp<linalg::LinalgOp>();
    AffineMap writeMap = defining.getIndexingMapMatchingResult(
        cast<OpResult>(next->get()));
    if (!readMap.isPermutation() || !writeMap.isProjectedPermutation())
      return {};
    for (int64_t &loop : loops) {
      unsigned position = *readMap.getResultPosition(
          getAffineDimExpr(loop, readMap.getContext()));
      loop = writeMap.getDimPosition(position);
    }
    current = defining;
  }
  return loops;
}

/// The op whose results the kernel stores to its output bindings, when a
/// single linalg op produces all of them.
linalg::LinalgOp findStoredOp(func::FuncOp funcOp) {
  Operation *stored = nullptr;
  bool single = true;
  funcOp.walk([&](bufferization::MaterializeInDestinationOp storeOp) {
    Operation *producer = storeOp.getSource().getDefiningOp();
    if (stored && producer != stored)
      single = false;
    stored = producer;
  });
  return single ? dyn_cast_if_present<linalg::LinalgOp>(stored)
                : linalg::LinalgOp();
}

void configureExport(ExecutableExportOp exportOp, func::FuncOp funcOp,
                     int64_t vectorBytes) {
  MLIRContext *context = funcOp.getContext();
  SmallVector<int64_t> workgroupCount = {1, 1, 1};
  auto setConfig = [&](linalg::LinalgOp op, ArrayRef<int64_t> workgroup,
                       ArrayRef<int64_t> vector) {
    op->setAttr("lowering_config",
                LoweringConfigAttr::get(context, workgroup, vector));
  };

  // Empty loops need no tiles: such ops become loops that never run.
  auto hasEmptyLoop = [](linalg::LinalgOp op) {
    return llvm::is_contained(op.getStaticLoopRanges(), 0);
  };
  linalg::LinalgOp storedOp = findStoredOp(funcOp);
  if (storedOp && hasEmptyLoop(storedOp))
    storedOp = {};
  auto heavyOp = dyn_cast_if_present<linalg::LinalgOp>(
      findDispatchRootOp(funcOp.getBody()));
  if (storedOp && storedOp.hasPureTensorSemantics()) {
    SmallVector<int64_t> loopMap;
    if (heavyOp && heavyOp != storedOp && !hasEmptyLoop(heavyOp))
      loopMap = mapLoopsToProducer(storedOp, heavyOp);
    linalg::LinalgOp planOp = loopMap.empty() ? storedOp : heavyOp;
    SmallVector<int64_t> planVector =
        selectVectorTiles(planOp, getLanes(planOp, vectorBytes));
    SmallVector<int64_t> planWorkgroup =
        selectWorkgroupTiles(planOp, planVector);
    SmallVector<int64_t> vector = planVector, workgroup = planWorkgroup;
    if (!loopMap.empty()) {
      vector.assign(storedOp.getNumLoops(), 1);
      workgroup.assign(storedOp.getNumLoops(), 0);
      for (auto [loop, heavyLoop] : llvm::enumerate(loopMap)) {
        vector[loop] = planVector[heavyLoop];
        workgroup[loop] = planWorkgroup[heavyLoop];
      }
      setConfig(heavyOp, {}, planVector);
    }
    setConfig(storedOp, workgroup, vector);
    // Workgroup grid: x is the innermost distributed loop.
    SmallVector<int64_t> ranges = storedOp.getStaticLoopRanges();
    int64_t dim = 0;
    for (int64_t i = workgroup.size() - 1; i >= 0 && dim < 3; --i)
      if (workgroup[i] != 0)
        workgroupCount[dim++] = ranges[i] / workgroup[i];
  }
  // Other ops with reductions tile them on their own.
  funcOp.walk([&](linalg::LinalgOp op) {
    if (getLoweringConfig(op) || op.getNumReductionLoops() == 0 ||
        !op.hasPureTensorSemantics() || hasEmptyLoop(op))
      return;
    setConfig(op, {}, selectVectorTiles(op, getLanes(op, vectorBytes)));
  });
  exportOp.setWorkgroupCountAttr(
      DenseI64ArrayAttr::get(context, workgroupCount));
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
    int64_t vectorBytes = getVectorBytes(variantOp);
    for (ExecutableExportOp exportOp : variantOp.getExportOps()) {
      auto funcOp = innerModule.lookupSymbol<func::FuncOp>(exportOp.getSymName());
      if (!funcOp) {
        exportOp.emitError("export has no function in the variant module");
        return signalPassFailure();
      }
      configureExport(exportOp, funcOp, vectorBytes);
    }
  }
};

}  // namespace
}  // namespace mlir::kiln
