//===- StreamResultStores.cpp - non-temporal stores of huge results -------===//
//
// A result larger than the last-level cache has left the caches before
// anything reads it: storing it through them reads every line from memory
// first (to own it) and evicts what the kernel reads. Vector stores to such a
// result become non-temporal: whole lines go to memory, nothing is read.
//
// A non-temporal vector store must be aligned to its register width, or LLVM
// splits it into scalar ones. The alignment is proven here, never assumed:
// a written binding starts KILN_WRITTEN_BINDING_ALIGNMENT-aligned (the
// runtime's contract), and the store's element offset in it is a multiple
// of a power of two that its indices' arithmetic shows (loop steps, tile
// sizes, strides).
//
//===----------------------------------------------------------------------===//

#include "Codegen/CPU/Passes.h"

#include "Codegen/CPU/Utils.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "Target/CPU/CPUTarget.h"
#include "kiln/executable_library.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_STREAMRESULTSTORESPASS
#include "Codegen/CPU/Passes.h.inc"

namespace {

/// log2 of the largest power of two known to divide a value, up to this
/// (what zero is divisible by).
constexpr unsigned kMaxTrailingZeros = 32;

/// Orders the stores of every workgroup before the runtime's join: x86's
/// non-temporal stores are weakly ordered.
constexpr StringLiteral kStoreFenceIntrinsic = "llvm.x86.sse.sfence";

unsigned getTrailingZeros(int64_t value) {
  return value == 0 ? kMaxTrailingZeros
                    : std::min<unsigned>(kMaxTrailingZeros,
                                         llvm::countr_zero<uint64_t>(value));
}

/// How many low bits of an index value are known to be zero.
unsigned getKnownTrailingZeros(Value value, unsigned depth = 0);

unsigned getKnownTrailingZeros(AffineExpr expr, ValueRange dims,
                               ValueRange symbols, unsigned depth) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return getTrailingZeros(constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return getKnownTrailingZeros(dims[dim.getPosition()], depth);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return getKnownTrailingZeros(symbols[symbol.getPosition()], depth);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  unsigned lhs = getKnownTrailingZeros(binary.getLHS(), dims, symbols, depth);
  unsigned rhs = getKnownTrailingZeros(binary.getRHS(), dims, symbols, depth);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return std::min(lhs, rhs);
  case AffineExprKind::Mul:
    return std::min(kMaxTrailingZeros, lhs + rhs);
  default:
    return 0;
  }
}

unsigned getKnownTrailingZeros(Value value, unsigned depth) {
  if (depth > 16)
    return 0;
  ++depth;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return getTrailingZeros(constant.getSExtValue());
  if (auto forOp = scf::getForInductionVarOwner(value))
    return std::min(getKnownTrailingZeros(forOp.getLowerBound(), depth),
                    getKnownTrailingZeros(forOp.getStep(), depth));
  Operation *op = value.getDefiningOp();
  if (!op)
    return 0;
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::min(getKnownTrailingZeros(op->getOperand(0), depth),
                    getKnownTrailingZeros(op->getOperand(1), depth));
  if (isa<arith::MulIOp>(op))
    return std::min(kMaxTrailingZeros,
                    getKnownTrailingZeros(op->getOperand(0), depth) +
                        getKnownTrailingZeros(op->getOperand(1), depth));
  if (auto applyOp = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = applyOp.getAffineMap();
    return getKnownTrailingZeros(map.getResult(0), applyOp.getDimOperands(),
                                 applyOp.getSymbolOperands(), depth);
  }
  return 0;
}

/// The written binding a memref views, and how many low bits of the view's
/// element offset in it are known to be zero; null when the memref is not
/// a view of a binding made of subviews and reshapes.
std::pair<BindingOp, unsigned> getViewedBinding(Value memref) {
  unsigned trailingZeros = kMaxTrailingZeros;
  while (true) {
    Operation *op = memref.getDefiningOp();
    if (auto bindingOp = dyn_cast_or_null<BindingOp>(op))
      return {bindingOp, trailingZeros};
    if (auto subviewOp = dyn_cast_or_null<memref::SubViewOp>(op)) {
      auto [strides, offset] = subviewOp.getSourceType().getStridesAndOffset();
      for (auto [stride, position] :
           llvm::zip_equal(strides, subviewOp.getMixedOffsets())) {
        if (ShapedType::isDynamic(stride))
          return {};
        unsigned zeros =
            isa<Attribute>(position)
                ? getTrailingZeros(
                      cast<IntegerAttr>(cast<Attribute>(position)).getInt())
                : getKnownTrailingZeros(cast<Value>(position));
        trailingZeros =
            std::min(trailingZeros, std::min(kMaxTrailingZeros,
                                             zeros + getTrailingZeros(stride)));
      }
      memref = subviewOp.getSource();
      continue;
    }
    // Reshapes keep the offset.
    if (isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(op)) {
      memref = op->getOperand(0);
      continue;
    }
    return {};
  }
}

/// Whether `value`, a view of a binding, or any view of it is read. Stores
/// are not reads, whether they stream or not: every one of them writes
/// before the kernel's fence.
bool isRead(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
            user)) {
      if (isRead(user->getResult(0)))
        return true;
      continue;
    }
    auto isBaseOf = [&](auto storeOp) { return storeOp.getBase() == value; };
    if (auto storeOp = dyn_cast<vector::StoreOp>(user);
        storeOp && isBaseOf(storeOp))
      continue;
    if (auto storeOp = dyn_cast<vector::MaskedStoreOp>(user);
        storeOp && isBaseOf(storeOp))
      continue;
    if (auto storeOp = dyn_cast<memref::StoreOp>(user);
        storeOp && storeOp.getMemRef() == value)
      continue;
    return true;
  }
  return false;
}

/// The alignment in bytes of a store's address, known from its binding's.
int64_t getKnownAlignment(vector::StoreOp storeOp, unsigned baseZeros) {
  MemRefType type = storeOp.getMemRefType();
  auto [strides, offset] = type.getStridesAndOffset();
  unsigned zeros = baseZeros;
  for (auto [stride, index] : llvm::zip_equal(strides, storeOp.getIndices())) {
    if (ShapedType::isDynamic(stride))
      return 1;
    zeros = std::min(zeros,
                     std::min(kMaxTrailingZeros, getKnownTrailingZeros(index) +
                                                     getTrailingZeros(stride)));
  }
  int64_t elementBytes =
      llvm::divideCeil(type.getElementTypeBitWidth(), int64_t{8});
  int64_t bytes = elementBytes << std::min(zeros, 16u);
  return std::min<int64_t>(bytes, KILN_WRITTEN_BINDING_ALIGNMENT);
}

struct StreamResultStoresPass
    : impl::StreamResultStoresPassBase<StreamResultStoresPass> {
  using StreamResultStoresPassBase::StreamResultStoresPassBase;

  void runOnOperation() override {
    func::FuncOp funcOp = getOperation();
    ExecutableExportOp exportOp = getExportOf(funcOp);
    if (!exportOp || !exportOp.getOutputsAttr())
      return;
    int64_t firstOutput = static_cast<int64_t>(
        exportOp.getBindings().getZExtValue() -
        exportOp.getOutputsAttr().getValue().getZExtValue());
    auto variantOp = cast<ExecutableVariantOp>(exportOp->getParentOp());
    CPUTargetInfo target =
        getCPUTargetInfo(variantOp.getCpu(), variantOp.getFeatures());
    int64_t minBytes = minResultBytes ? minResultBytes : target.lastLevelBytes;

    // Whether a binding's stores may stream: a result at least minBytes
    // large that the kernel never reads.
    DenseMap<Operation *, bool> streams;
    auto isStreamed = [&](BindingOp bindingOp) {
      auto [it, inserted] = streams.try_emplace(bindingOp, false);
      if (inserted) {
        MemRefType type = bindingOp.getType();
        it->second =
            bindingOp.getIndex().getSExtValue() >= firstOutput &&
            type.hasStaticShape() &&
            type.getNumElements() * type.getElementTypeBitWidth() / 8 >=
                minBytes &&
            !isRead(bindingOp.getResult());
      }
      return it->second;
    };
    bool streamed = false;
    funcOp.walk([&](vector::StoreOp storeOp) {
      auto [bindingOp, zeros] = getViewedBinding(storeOp.getBase());
      if (!bindingOp || !isStreamed(bindingOp))
        return;
      // Whole registers, each aligned to its width; others stay as they are
      // (LLVM would store them element by element).
      VectorType vectorType = storeOp.getVectorType();
      int64_t bytes =
          vectorType.getNumElements() * vectorType.getElementTypeBitWidth() / 8;
      int64_t part = std::min(bytes, target.vectorBytes);
      int64_t alignment = getKnownAlignment(storeOp, zeros);
      if (vectorType.getRank() != 1 || !llvm::isPowerOf2_64(bytes) ||
          part < 16 || alignment < part)
        return;
      storeOp.setNontemporal(true);
      storeOp.setAlignment(alignment);
      streamed = true;
    });
    if (!streamed)
      return;
    funcOp.walk([&](func::ReturnOp returnOp) {
      OpBuilder builder(returnOp);
      LLVM::CallIntrinsicOp::create(builder, returnOp.getLoc(),
                                    builder.getStringAttr(kStoreFenceIntrinsic),
                                    ValueRange{});
    });
  }
};

} // namespace
} // namespace mlir::kiln
