//===- Utils.cpp - dispatch naming and kernel interface helpers -----------===//

#include "Dispatch/Utils.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::kiln {

namespace {

bool isComputeOp(Operation *op) {
  return isa<linalg::LinalgOp, linalg::PackOp, linalg::UnPackOp,
             tensor::InsertSliceOp, tensor::ExtractSliceOp>(op);
}

/// True for ops that carry the real work of a dispatch, as opposed to
/// elementwise epilogues and initializations.
bool isHeavyOp(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || isa<linalg::FillOp>(op))
    return false;
  return !isa<linalg::GenericOp>(op) || linalgOp.getNumReductionLoops() > 0 ||
         !linalg::isElementwise(linalgOp);
}

std::string describeOpKind(Operation *op) {
  if (auto genericOp = dyn_cast<linalg::GenericOp>(op)) {
    if (linalg::isaContractionOpInterface(genericOp))
      return "matmul_like";
    if (linalg::isaConvolutionOpInterface(genericOp))
      return "conv";
    if (genericOp.getNumReductionLoops() > 0)
      return "reduction";
    return "elementwise";
  }
  StringRef name = op->getName().getStringRef();
  return name.substr(name.find('.') + 1).str();
}

std::string describeType(Type type) {
  std::string result;
  llvm::raw_string_ostream os(result);
  os << type;
  return result;
}

} // namespace

Operation *findDispatchRootOp(Region &body) {
  Operation *lastCompute = nullptr;
  Operation *heavy = nullptr;
  Operation *relayout = nullptr;
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isComputeOp(op))
      return WalkResult::advance();
    // A pack or unpack beside a contraction (its fused operand packing)
    // is not the dispatch's work; on its own it is.
    if (isa<linalg::PackOp, linalg::UnPackOp>(op)) {
      if (!relayout)
        relayout = op;
    } else if (!heavy && isHeavyOp(op)) {
      heavy = op;
    }
    lastCompute = op;
    return WalkResult::skip();
  });
  if (heavy)
    return heavy;
  return relayout ? relayout : lastCompute;
}

std::string describeDispatchWork(Region &body) {
  Operation *root = findDispatchRootOp(body);
  if (!root)
    return "copy";
  SmallVector<std::string> parts{describeOpKind(root)};
  SmallVector<int64_t> ranges;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(root))
    ranges = linalgOp.getStaticLoopRanges();
  else if (root->getNumResults() == 1)
    if (auto shapedType = dyn_cast<ShapedType>(root->getResult(0).getType()))
      ranges = llvm::to_vector(shapedType.getShape());
  if (!ranges.empty())
    parts.push_back(llvm::join(llvm::map_range(ranges,
                                               [](int64_t r) {
                                                 // "D" for a size known at run
                                                 // time, as IREE names its
                                                 // dispatches.
                                                 return ShapedType::isDynamic(r)
                                                            ? std::string("D")
                                                            : std::to_string(r);
                                               }),
                               "x"));
  if (root->getNumResults() > 0)
    parts.push_back(
        describeType(getElementTypeOrSelf(root->getResult(0).getType())));
  return llvm::join(parts, "_");
}

std::optional<InsertChain> matchInsertChain(tensor::InsertSliceOp root) {
  InsertChain chain;
  Value dest = root.getResult();
  while (auto insertOp = dest.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!insertOp.hasUnitStride() ||
        ShapedType::isDynamicShape(insertOp.getStaticOffsets()) ||
        insertOp.getSourceType().getRank() != insertOp.getType().getRank())
      return std::nullopt;
    chain.inserts.push_back(insertOp);
    dest = insertOp.getDest();
  }
  chain.base = dest;
  auto fillOp = dest.getDefiningOp<linalg::FillOp>();
  if (!dest.getDefiningOp<tensor::EmptyOp>() &&
      !(fillOp && fillOp.hasPureTensorSemantics()))
    return std::nullopt;
  std::reverse(chain.inserts.begin(), chain.inserts.end());
  return chain;
}

int64_t getWorkgroupOutputBudget(int64_t reduction) {
  return std::clamp<int64_t>(
      (int64_t(1) << 22) / std::max<int64_t>(reduction, 1), 1024, 16384);
}

namespace {
/// Whether `type` has a static shape but for dim `rows`.
bool isStaticButRows(ShapedType type, int64_t rows) {
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size) && int64_t(dim) != rows)
      return false;
  return true;
}
} // namespace

bool canUnPackInContraction(Operation *op) {
  auto unpackOp = dyn_cast<linalg::UnPackOp>(op);
  if (!unpackOp)
    return false;
  ShapedType packedType = unpackOp.getSourceType();
  if (packedType.hasStaticShape() && unpackOp.getDestType().hasStaticShape())
    return true;
  // The packed result is (B,) M1, N1, M0, N0; the unpack's rows are the dim
  // its first inner tile splits.
  return unpackOp.getOuterDimsPerm().empty() &&
         isStaticButRows(packedType, packedType.getRank() - 4) &&
         isStaticButRows(unpackOp.getDestType(),
                         unpackOp.getInnerDimsPos().front());
}

bool canReadPackInPlace(Operation *op) {
  auto packOp = dyn_cast<linalg::PackOp>(op);
  if (!packOp)
    return false;
  ArrayRef<int64_t> tiles = packOp.getStaticInnerTiles();
  if (tiles.empty() || tiles.back() != 1)
    return false;
  // Of the source's dims only its rows, which the first inner tile splits,
  // may be known only at run time (a batch): the last tile's rows past
  // their end, however many, read the last row.
  ArrayRef<int64_t> shape = packOp.getSourceType().getShape();
  ArrayRef<int64_t> innerDims = packOp.getInnerDimsPos();
  bool dynamicRows = false;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    if (int64_t(dim) != innerDims.front())
      return false;
    dynamicRows = true;
  }
  bool pads = false;
  for (auto [dim, tile] : llvm::zip(innerDims, tiles)) {
    if (ShapedType::isDynamic(tile))
      return false;
    pads = pads || ShapedType::isDynamic(shape[dim]) || shape[dim] % tile != 0;
  }
  // A padded row of the LHS makes only a padded row of the result, which an
  // unpack drops: what the row holds does not matter, so the contraction may
  // read a real row there instead of the padding value.
  return llvm::all_of(packOp->getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    return isa<linalg::Mmt4DOp, linalg::BatchMmt4DOp>(user) &&
           use.getOperandNumber() == 0 &&
           (!pads ||
            llvm::all_of(user->getUsers(), [&](Operation *resultUser) {
              return dynamicRows ? canUnPackInContraction(resultUser)
                                 : isa<linalg::UnPackOp>(resultUser);
            }));
  });
}

int64_t getStaticElementCount(ShapedType type) {
  int64_t elements = 1;
  for (int64_t size : type.getShape())
    if (!ShapedType::isDynamic(size))
      elements *= size;
  return elements;
}

MemRefType getBindingStorageType(RankedTensorType type) {
  Type elementType = type.getElementType();
  if (elementType.isIntOrFloat() && elementType.getIntOrFloatBitWidth() < 8)
    return MemRefType::get(type.getShape(),
                           IntegerType::get(type.getContext(), 8));
  return MemRefType::get(type.getShape(), type.getElementType());
}

std::optional<int64_t> findDispatchConstant(Value value, int64_t dim) {
  Value size;
  if (auto toTensorOp = value.getDefiningOp<bufferization::ToTensorOp>())
    return findDispatchConstant(toTensorOp.getBuffer(), dim);
  if (auto bindingOp = value.getDefiningOp<BindingOp>()) {
    if (!bindingOp.getType().isDynamicDim(dim))
      return std::nullopt;
    size = bindingOp
               .getDynamicSizes()[bindingOp.getType().getDynamicDimIndex(dim)];
  } else if (auto emptyOp = value.getDefiningOp<tensor::EmptyOp>()) {
    if (!emptyOp.getType().isDynamicDim(dim))
      return std::nullopt;
    size = emptyOp.getDynamicSize(dim);
  } else if (auto sliceOp = value.getDefiningOp<tensor::ExtractSliceOp>()) {
    // The slice's own size: result dims count the sizes it keeps.
    llvm::SmallBitVector dropped = sliceOp.getDroppedDims();
    for (auto [i, sizeOfDim] : llvm::enumerate(sliceOp.getMixedSizes())) {
      if (dropped.test(i))
        continue;
      if (dim-- == 0) {
        size = dyn_cast<Value>(sizeOfDim);
        break;
      }
    }
  } else if (auto dpsOp = value.getDefiningOp<DestinationStyleOpInterface>()) {
    return findDispatchConstant(
        dpsOp.getDpsInitOperand(cast<OpResult>(value).getResultNumber())->get(),
        dim);
  }
  if (!size)
    return std::nullopt;
  if (auto constantOp = size.getDefiningOp<DispatchConstantOp>())
    return constantOp.getIndex().getSExtValue();
  return std::nullopt;
}

std::optional<int64_t> findStoredDispatchConstant(Value value, int64_t dim) {
  for (Operation *user : value.getUsers())
    if (auto storeOp =
            dyn_cast<bufferization::MaterializeInDestinationOp>(user))
      if (std::optional<int64_t> constant =
              findDispatchConstant(storeOp.getDest(), dim))
        return constant;
  return std::nullopt;
}

SmallVector<SmallVector<int64_t>> findLoopRangeConstants(Operation *op) {
  // A pack's loops are its destination's outer dims, an unpack's its
  // destination's dims.
  if (isa<linalg::PackOp, linalg::UnPackOp>(op)) {
    Value dest = cast<DestinationStyleOpInterface>(op).getDpsInits().front();
    int64_t loopCount = isa<linalg::PackOp>(op)
                            ? cast<linalg::PackOp>(op).getSourceRank()
                            : cast<linalg::UnPackOp>(op).getDestRank();
    SmallVector<SmallVector<int64_t>> loops(loopCount);
    for (int64_t dim = 0; dim < loopCount; ++dim) {
      if (std::optional<int64_t> constant = findDispatchConstant(dest, dim))
        loops[dim].push_back(*constant);
      if (std::optional<int64_t> constant =
              findStoredDispatchConstant(op->getResult(0), dim))
        loops[dim].push_back(*constant);
    }
    return loops;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return {};
  SmallVector<SmallVector<int64_t>> loops(linalgOp.getNumLoops());
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type)
      continue;
    for (auto [dim, expr] : llvm::enumerate(
             linalgOp.getMatchingIndexingMap(&operand).getResults()))
      if (auto dimExpr = dyn_cast<AffineDimExpr>(expr);
          dimExpr && type.isDynamicDim(dim)) {
        if (std::optional<int64_t> constant =
                findDispatchConstant(operand.get(), dim))
          loops[dimExpr.getPosition()].push_back(*constant);
        if (!linalgOp.isDpsInit(&operand))
          continue;
        if (std::optional<int64_t> constant = findStoredDispatchConstant(
                linalgOp.getTiedOpResult(&operand), dim))
          loops[dimExpr.getPosition()].push_back(*constant);
      }
  }
  return loops;
}

} // namespace mlir::kiln
