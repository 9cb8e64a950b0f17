//===- FormDispatchRegions.cpp - group roots with their fused ops ---------===//
//
// Ops are visited last to first, so a consumer is seen before its producers:
// an elementwise op that is the only user of a root claims that root, and
// every group then pulls in the cheap producers it needs. Each group becomes
// one kiln.dispatch.region placed where its last op was.
//
//===----------------------------------------------------------------------===//

#include "Dispatch/Passes.h"

#include "Analysis/InsertChain.h"
#include "Analysis/PackAnalysis.h"
#include "Analysis/WorkgroupBudget.h"

#include "Dialect/Host/IR/HostOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_FORMDISPATCHREGIONSPASS
#include "Dispatch/Passes.h.inc"

namespace {

/// Ops that start a dispatch of their own.
bool isRootOp(Operation *op) {
  return isa<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp,
             tensor::InsertSliceOp, tensor::ExtractSliceOp>(op);
}

/// Ops copied into every dispatch that uses them instead of crossing the
/// dispatch boundary as a buffer: they cost nothing to recompute.
bool isClonableIntoDispatch(Operation *op) {
  if (isa<tensor::EmptyOp>(op))
    return true;
  // A fill of an empty tensor reads no data: each user gets its own.
  if (auto fillOp = dyn_cast<linalg::FillOp>(op))
    return fillOp.hasPureTensorSemantics() &&
           fillOp.getOutputs()[0].getDefiningOp<tensor::EmptyOp>();
  // A pack the contraction reads in place is no work of its own: each
  // contraction reading it takes it along.
  if (canReadPackInPlace(op))
    return true;
  if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
    auto shapedType = dyn_cast<ShapedType>(constantOp.getType());
    if (!shapedType)
      return true;
    auto elements = dyn_cast<DenseElementsAttr>(constantOp.getValue());
    return elements && elements.isSplat();
  }
  return false;
}

/// Elementwise generics may absorb their producing root when they read it
/// element for element (a permutation map): tiling the consumer then tiles
/// the root without recomputation.
bool canAbsorbRootProducer(Operation *consumer, OpOperand &operand) {
  auto genericOp = dyn_cast<linalg::GenericOp>(consumer);
  if (!genericOp || !linalg::isElementwise(genericOp))
    return false;
  // An unpack fuses like a root: its epilogue (bias, activation) reads the
  // unpacked tile while it is in registers.
  Operation *producer = operand.get().getDefiningOp();
  if (!isa_and_present<linalg::LinalgOp, linalg::UnPackOp>(producer) ||
      isa<linalg::FillOp>(producer))
    return false;
  // The root's result must not be needed anywhere else.
  for (Value result : producer->getResults())
    for (OpOperand &use : result.getUses())
      if (use.getOwner() != consumer)
        return false;
  if (genericOp.isDpsInit(&operand))
    return false;
  return genericOp.getMatchingIndexingMap(&operand).isPermutation();
}

/// Largest reduction a reduction chain keeps whole in one tile: its row's
/// intermediates live in registers (or a small stack buffer) there.
constexpr int64_t kMaxChainedReduction = 16384;

/// Generics of a normalization or a softmax: elementwise ops and reductions
/// that read their operands through projected permutations (broadcasts
/// included), over static shapes.
bool isChainableOp(Operation *op) {
  auto genericOp = dyn_cast_if_present<linalg::GenericOp>(op);
  if (!genericOp || !genericOp.hasPureTensorSemantics() ||
      linalg::isaContractionOpInterface(genericOp) ||
      linalg::isaConvolutionOpInterface(genericOp))
    return false;
  // Rows may be as many as the program runs with; each row's reduction
  // must be small enough to keep whole.
  SmallVector<int64_t> ranges = genericOp.getStaticLoopRanges();
  int64_t reduced = 1;
  for (auto [range, iterator] :
       llvm::zip(ranges, genericOp.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(range))
      return false;
    reduced *= range;
  }
  return reduced <= kMaxChainedReduction &&
         llvm::all_of(genericOp.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// A packed contraction may pack its RHS in its own dispatch: each workgroup
/// packs the RHS panels it uses into a buffer once and runs all rows against
/// them, so the packed RHS never goes to memory. Its workgroups then split
/// the columns alone: it does so when the rows would give few workgroups
/// anyway (row tiles, M1) or the panels give enough (column tiles, N1), or
/// half as many when the whole contraction is small: its time is then that
/// of a dispatch more (the pack's) rather than of idle cores. Matmul 256
/// (8 panels of 32 columns, AVX-512 code, Intel Xeon): 0.208 -> 0.189 ms at
/// 1 thread, 0.134 -> 0.107 at 2.
constexpr int64_t kMaxRowTilesPackingRHS = 16;
constexpr int64_t kMinColumnTilesPackingRHS = 16;
/// Multiply-adds of a small contraction, about 0.2 ms on one core.
constexpr int64_t kMaxSmallContractionWork = int64_t(1) << 25;

/// The RHS pack of a packed contraction, used by it alone, with few rows or
/// many columns.
bool canFuseRHSPack(Operation *consumer, OpOperand &operand) {
  auto packOp = operand.get().getDefiningOp<linalg::PackOp>();
  if (!packOp || !packOp->hasOneUse() ||
      !isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(consumer))
    return false;
  auto contraction = cast<linalg::LinalgOp>(consumer);
  if (operand.getOperandNumber() != 1 || contraction.getNumDpsInputs() != 2)
    return false;
  auto lhsType =
      cast<RankedTensorType>(contraction.getDpsInputs()[0].getType());
  // (B,) M1, K1, M0, K0 and (B,) N1, K1, N0, K0.
  int64_t m1 = lhsType.getDimSize(lhsType.getRank() - 4);
  RankedTensorType rhsType = packOp.getDestType();
  if (!rhsType.hasStaticShape())
    return false;
  int64_t n1 = rhsType.getDimSize(rhsType.getRank() - 4);
  // Rows known only at run time (a batch) may be many: the panels alone
  // must give enough workgroups. The contraction's workgroups then split
  // the rows of the unpack that runs with it.
  if (ShapedType::isDynamic(m1))
    return n1 >= kMinColumnTilesPackingRHS && consumer->hasOneUse() &&
           canUnPackInContraction(*consumer->getUsers().begin());
  if (m1 <= kMaxRowTilesPackingRHS || n1 >= kMinColumnTilesPackingRHS)
    return true;
  // (B x) M x K elements of the LHS, each multiplied by N of the RHS.
  int64_t work =
      lhsType.getNumElements() * n1 * rhsType.getDimSize(rhsType.getRank() - 2);
  return n1 * 2 >= kMinColumnTilesPackingRHS &&
         work <= kMaxSmallContractionWork;
}

/// A packed contraction whose result only its unpack reads joins the
/// unpack's dispatch: each workgroup unpacks its accumulator tiles (and runs
/// the epilogue on them) while they are in registers, so the packed result
/// never goes to memory. Its rows may be known only at run time (a batch).
bool canFuseContractionIntoUnPack(Operation *user, OpOperand &operand) {
  auto unpackOp = dyn_cast<linalg::UnPackOp>(user);
  if (!unpackOp || &operand != &unpackOp.getSourceMutable())
    return false;
  Operation *producer = operand.get().getDefiningOp();
  return isa_and_present<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(producer) &&
         producer->hasOneUse() && canUnPackInContraction(unpackOp);
}

/// Bytes of a convolution's padded image a workgroup may build for its own
/// tile: the rows its output rows read stay in L2. MobileNetV2's first
/// stride-2 depthwise convolution reads 11 rows of 114 x 96 floats (470
/// KiB) per workgroup; its pad, a dispatch of its own, took 1.2 ms of 8.7
/// (Intel Xeon, AVX-512 code, 1 thread, one traced call).
constexpr int64_t kMaxPaddedImageTileBytes = 512 * 1024;

/// The image of a named convolution, padded or concatenated (a decomposed
/// pad or concat: a chain of inserts) and read by the convolution alone, joins
/// the convolution's dispatch: each workgroup pads the rows its tile reads into
/// a tensor of its own, so that no dispatch copies the whole image and the
/// padded rows are read from cache. Only when those rows, for as many
/// output rows as a workgroup computes, fit kMaxPaddedImageTileBytes (a
/// convolution too small to distribute pads its whole image). A batch known
/// only at run time counts as one image: each workgroup takes one.
bool canFusePadIntoConvolution(Operation *user, OpOperand &operand) {
  auto convOp = dyn_cast<linalg::LinalgOp>(user);
  if (!convOp || isa<linalg::GenericOp>(user) ||
      !linalg::isaConvolutionOpInterface(convOp) ||
      operand.getOperandNumber() != 0 || !convOp.hasPureTensorSemantics())
    return false;
  auto imageType = cast<RankedTensorType>(operand.get().getType());
  auto insertOp = operand.get().getDefiningOp<tensor::InsertSliceOp>();
  std::optional<InsertChain> chain =
      insertOp ? matchInsertChain(insertOp) : std::nullopt;
  if (!chain || !llvm::all_of(chain->inserts, [](tensor::InsertSliceOp op) {
        return op->hasOneUse();
      }))
    return false;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(convOp);
  if (failed(dims) || dims->outputImage.empty() || dims->filterLoop.empty())
    return false;
  // Workgroups split the outermost image dim (an output loop plus a filter
  // loop): the image rows a workgroup reads are its output rows times the
  // stride, plus the dilated filter's extent.
  AffineMap imageMap = convOp.getMatchingIndexingMap(&operand);
  auto rowDim = llvm::find_if(imageMap.getResults(), [](AffineExpr expr) {
    return !isa<AffineDimExpr>(expr);
  });
  if (rowDim == imageMap.getResults().end())
    return false;
  SmallVector<int64_t> ranges = convOp.getStaticLoopRanges();
  for (auto [loop, range] : llvm::enumerate(ranges)) {
    if (!ShapedType::isDynamic(range))
      continue;
    if (!llvm::is_contained(dims->batch, loop))
      return false;
    range = 1;
  }
  int64_t outputs = 1, reduction = 1;
  for (auto [range, iterator] :
       llvm::zip(ranges, convOp.getIteratorTypesArray()))
    (iterator == utils::IteratorType::parallel ? outputs : reduction) *= range;
  // Images are the batch loops outside the rows (none for an unbatched
  // convolution; N, and C of an NCHW pooling, in NHWC and NCHW forms).
  int64_t batch = 1;
  for (AffineExpr expr :
       llvm::make_range(imageMap.getResults().begin(), rowDim))
    if (auto loop = dyn_cast<AffineDimExpr>(expr);
        loop && llvm::is_contained(dims->batch, loop.getPosition()))
      batch *= ranges[loop.getPosition()];
  int64_t outputRows = ranges[dims->outputImage.front()];
  int64_t rows = imageType.getDimSize(rowDim - imageMap.getResults().begin());
  int64_t rowBytes = getStaticElementCount(imageType) / (batch * rows) *
                     llvm::divideCeil(imageType.getElementTypeBitWidth(), 8);
  int64_t outputsPerRow = outputs / (batch * outputRows);
  int64_t workgroupRows = llvm::divideCeil(getWorkgroupOutputBudget(reduction),
                                           std::max<int64_t>(outputsPerRow, 1));
  int64_t readRows =
      workgroupRows * dims->strides.front() +
      (ranges[dims->filterLoop.front()] - 1) * dims->dilations.front() + 1;
  return std::min(readRows, batch * rows) * rowBytes <=
         kMaxPaddedImageTileBytes;
}

struct Group {
  Operation *head = nullptr;           // the last op in program order
  llvm::SetVector<Operation *> moved;  // ops that move into the region
  llvm::SetVector<Operation *> cloned; // ops copied into the region
};

/// Grows `group` with the producers it should contain; `grouped` holds every
/// op that already moved into some group.
void pullInProducers(Group &group, DenseSet<Operation *> &grouped, bool fuse) {
  bool absorbedRoot = false;
  SmallVector<Operation *> worklist(group.moved.begin(), group.moved.end());
  // Reduction chains (softmax: max, exp, sum, divide; layernorm: mean,
  // variance, normalize) form one dispatch: a chainable producer joins once
  // every user of it is in the group, so that tiling the rows computes each
  // row's reductions once, in the tile. Producers whose other users have not
  // joined yet wait here and are tried again.
  bool isChain = isChainableOp(group.head);
  SmallVector<Operation *> waiting;
  auto allUsersInGroup = [&](Operation *producer) {
    return llvm::all_of(producer->getUsers(), [&](Operation *user) {
      Operation *ancestor =
          group.head->getBlock()->findAncestorOpInBlock(*user);
      return ancestor && group.moved.contains(ancestor);
    });
  };
  auto visitOperand = [&](Operation *user, OpOperand &operand) {
    Operation *producer = operand.get().getDefiningOp();
    if (!producer || grouped.contains(producer) ||
        group.moved.contains(producer) || group.cloned.contains(producer))
      return;
    // Cheap ops are copied in from any enclosing block (a loop body may use
    // a constant of the function); everything else must be a sibling.
    bool sameBlock = producer->getBlock() == group.head->getBlock();
    if (!sameBlock && !producer->getBlock()->findAncestorOpInBlock(*group.head))
      return;
    if (isClonableIntoDispatch(producer)) {
      group.cloned.insert(producer);
      worklist.push_back(producer);
      return;
    }
    // Sizes the host computes stay on the host: the dispatch takes them as
    // constants, so that its loops run to bounds the host launches it
    // with (a strided convolution's output size over dynamic inputs).
    if (host::isIndexArithmetic(producer) && !isa<arith::ConstantOp>(producer))
      return;
    // Other scalars cannot be bound to a dispatch: whatever computes them
    // runs inside, reading its own tensor operands through bindings.
    if (!isa<ShapedType>(operand.get().getType()) && isPure(producer) &&
        producer->getNumRegions() == 0) {
      group.cloned.insert(producer);
      worklist.push_back(producer);
      return;
    }
    if (!sameBlock || !fuse)
      return;
    // Everything below fuses through a direct operand of a group op.
    if (operand.getOwner() != user)
      return;
    bool singleUse = producer->hasOneUse();
    bool fuse = false;
    if (isa<tensor::ExtractSliceOp>(producer) && singleUse) {
      fuse = true;
    } else if (auto insertOp = dyn_cast<tensor::InsertSliceOp>(user)) {
      // Chains of insert_slice (a decomposed concat or pad) write one buffer.
      fuse = singleUse && &operand == &insertOp.getDestMutable() &&
             isa<tensor::InsertSliceOp>(producer);
    } else if (!absorbedRoot && user == group.head &&
               canAbsorbRootProducer(user, operand)) {
      fuse = absorbedRoot = true;
    } else if (canFuseRHSPack(user, operand) ||
               canFuseContractionIntoUnPack(user, operand) ||
               canFusePadIntoConvolution(user, operand)) {
      fuse = true;
    } else if (isChain && isChainableOp(user) && isChainableOp(producer)) {
      if (!allUsersInGroup(producer)) {
        waiting.push_back(producer);
        return;
      }
      fuse = true;
    }
    if (!fuse)
      return;
    group.moved.insert(producer);
    worklist.push_back(producer);
  };
  auto drain = [&] {
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      op->walk([&](Operation *nested) {
        for (OpOperand &operand : nested->getOpOperands())
          visitOperand(op, operand);
      });
    }
  };
  drain();
  // A waiting producer joins once its last user has: retry until none does.
  for (bool progress = true; progress;) {
    progress = false;
    SmallVector<Operation *> retry;
    std::swap(retry, waiting);
    for (Operation *producer : retry) {
      if (group.moved.contains(producer) || grouped.contains(producer) ||
          !allUsersInGroup(producer))
        continue;
      group.moved.insert(producer);
      worklist.push_back(producer);
      progress = true;
    }
    drain();
  }
}

/// Dimension `dim` of `value`, an output of `group` or a value it reads, as
/// a value the host has before the group runs (the host sizes a dispatch's
/// results before it runs); null when only the group's work tells.
Value getDimBeforeGroup(RewriterBase &rewriter, const Group &group, Value value,
                        int64_t dim);

/// `size`, an index the group computes or reads, as a value the host has
/// before the group runs; null when only the group's work tells.
Value getIndexBeforeGroup(RewriterBase &rewriter, const Group &group,
                          Value size) {
  Operation *producer = size.getDefiningOp();
  if (!producer || !group.moved.contains(producer))
    return size;
  if (auto dimOp = dyn_cast<tensor::DimOp>(producer))
    if (std::optional<int64_t> index = dimOp.getConstantIndex())
      return getDimBeforeGroup(rewriter, group, dimOp.getSource(), *index);
  return {};
}

Value getDimBeforeGroup(RewriterBase &rewriter, const Group &group, Value value,
                        int64_t dim) {
  Operation *producer = value.getDefiningOp();
  // Through the ops of the group to what the host has; a cloned op (an
  // empty tensor) stays where it is too, but its size operands are plainer.
  if (!producer ||
      !(group.moved.contains(producer) || group.cloned.contains(producer)))
    return tensor::DimOp::create(rewriter, value.getLoc(), value, dim);
  if (auto emptyOp = dyn_cast<tensor::EmptyOp>(producer))
    return getIndexBeforeGroup(rewriter, group, emptyOp.getDynamicSize(dim));
  if (auto dpsOp = dyn_cast<DestinationStyleOpInterface>(producer)) {
    Value init =
        dpsOp.getDpsInitOperand(cast<OpResult>(value).getResultNumber())->get();
    return getDimBeforeGroup(rewriter, group, init, dim);
  }
  if (auto insertOp = dyn_cast<tensor::InsertSliceOp>(producer))
    return getDimBeforeGroup(rewriter, group, insertOp.getDest(), dim);
  if (auto sliceOp = dyn_cast<tensor::ExtractSliceOp>(producer)) {
    // The slice's sizes, less the dims a rank-reducing slice drops.
    llvm::SmallBitVector dropped = sliceOp.getDroppedDims();
    for (auto [i, size] : llvm::enumerate(sliceOp.getMixedSizes())) {
      if (dropped.test(i))
        continue;
      if (dim-- != 0)
        continue;
      if (auto value = dyn_cast<Value>(size))
        return getIndexBeforeGroup(rewriter, group, value);
      return arith::ConstantIndexOp::create(rewriter, value.getLoc(),
                                            *getConstantIntValue(size));
    }
  }
  return {};
}

/// Replaces the ops of `group` by a kiln.dispatch.region at the head.
LogicalResult createRegion(RewriterBase &rewriter, Group &group) {
  Block *block = group.head->getBlock();
  // Program order; clones from enclosing blocks come first, outermost
  // first (they dominate everything in this block).
  SmallVector<Operation *> ops(group.moved.begin(), group.moved.end());
  llvm::append_range(ops, group.cloned);
  auto depth = [](Operation *op) {
    unsigned d = 0;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      ++d;
    return d;
  };
  llvm::stable_sort(ops, [&](Operation *a, Operation *b) {
    if (a->getBlock() == b->getBlock())
      return a->isBeforeInBlock(b);
    return depth(a) < depth(b);
  });

  // Results that leave the region: used by an op outside the moved set.
  SmallVector<Value> outputs;
  for (Operation *op : ops) {
    if (!group.moved.contains(op))
      continue;
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            Operation *ancestor = block->findAncestorOpInBlock(*user);
            return !ancestor || !group.moved.contains(ancestor);
          }))
        outputs.push_back(result);
  }

  // Dynamic dimensions of the outputs, computed before the group.
  SmallVector<Value> resultDims;
  rewriter.setInsertionPoint(group.head);
  for (Value output : outputs) {
    auto type = cast<RankedTensorType>(output.getType());
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      if (!type.isDynamicDim(dim))
        continue;
      Value size = getDimBeforeGroup(rewriter, group, output, dim);
      if (!size)
        return output.getDefiningOp()->emitError()
               << "dimension " << dim << " of this result (" << type
               << ") is known only once it is computed; its dispatch "
                  "needs it before";
      resultDims.push_back(size);
    }
  }

  rewriter.setInsertionPointAfter(group.head);
  auto regionOp = kiln::DispatchRegionOp::create(rewriter, group.head->getLoc(),
                                                 TypeRange(ValueRange(outputs)),
                                                 resultDims);
  Block *body = rewriter.createBlock(&regionOp.getBody());
  rewriter.setInsertionPointToStart(body);
  SmallVector<std::pair<Operation *, Operation *>> clones;
  for (Operation *op : ops) {
    if (group.moved.contains(op))
      rewriter.moveOpBefore(op, body, body->end());
    else
      clones.push_back({op, rewriter.clone(*op)});
  }
  // Uses are redirected once every op is inside the region.
  for (auto [original, clone] : clones)
    for (auto [from, to] :
         llvm::zip(original->getResults(), clone->getResults()))
      rewriter.replaceUsesWithIf(from, to, [&](OpOperand &use) {
        return regionOp->isProperAncestor(use.getOwner());
      });
  rewriter.setInsertionPointToEnd(body);
  kiln::ReturnOp::create(rewriter, group.head->getLoc(), outputs);
  for (auto [output, result] : llvm::zip(outputs, regionOp.getResults()))
    rewriter.replaceUsesWithIf(output, result, [&](OpOperand &use) {
      return !regionOp->isAncestor(use.getOwner());
    });
  return success();
}

struct FormDispatchRegionsPass
    : impl::FormDispatchRegionsPassBase<FormDispatchRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    IRRewriter rewriter(&getContext());
    DenseSet<Operation *> grouped;
    SmallVector<Group> groups;
    // Host code: the function body and the bodies of its control flow.
    SmallVector<Block *> blocks;
    funcOp.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<func::FuncOp, scf::IfOp, scf::WhileOp>(op))
        return WalkResult::skip();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          blocks.push_back(&block);
      return WalkResult::advance();
    });
    for (Block *hostBlock : blocks) {
      Block &block = *hostBlock;
      for (Operation &op : llvm::reverse(block)) {
        if (!isRootOp(&op) || grouped.contains(&op))
          continue;
        // Cloned into every group that uses it; a root only when the host
        // itself needs the value.
        if (isClonableIntoDispatch(&op) &&
            llvm::all_of(op.getUsers(), [&](Operation *user) {
              return grouped.contains(block.findAncestorOpInBlock(*user));
            }))
          continue;
        Group group;
        group.head = &op;
        group.moved.insert(&op);
        pullInProducers(group, grouped, fuse);
        grouped.insert(group.moved.begin(), group.moved.end());
        groups.push_back(std::move(group));
      }
    }
    for (Group &group : groups)
      if (failed(createRegion(rewriter, group)))
        return signalPassFailure();
    // Originals of cloned ops that nothing on the host uses any more; users
    // come after producers, so a reverse walk sees them dead in turn.
    for (Block *block : llvm::reverse(blocks))
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
        if (isClonableIntoDispatch(&op) && op.use_empty())
          rewriter.eraseOp(&op);
  }
};

} // namespace
} // namespace mlir::kiln
