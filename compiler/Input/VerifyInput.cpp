//===- VerifyInput.cpp - reject programs kiln cannot compile -------------===//
//
// Errors are reported at the offending op so that a user sees the line to
// change; all violations are reported, not only the first.
//
//===----------------------------------------------------------------------===//

#include "Input/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include "kiln/tensor.h"

namespace mlir::kiln {
#define GEN_PASS_DEF_VERIFYINPUTPASS
#include "Input/Passes.h.inc"

namespace {

/// Element types the runtime can hold in a tensor.
bool isSupportedElementType(Type type) {
  if (type.isF32() || type.isF64() || type.isF16() || type.isBF16())
    return true;
  // The floats of at most 8 bits, one byte per element; kernels compute
  // with them in f32.
  if (isa<Float8E5M2Type, Float8E4M3FNType, Float8E5M2FNUZType,
          Float8E4M3FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(type))
    return true;
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return false;
}

/// Element types a program may compute with: the runtime's, and i2 and i4,
/// which functions hold one per byte but cannot take or return.
bool isSupportedInternalElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    if (intType.isSignless() &&
        llvm::is_contained({2u, 4u}, intType.getWidth()))
      return true;
  return isSupportedElementType(type);
}

bool isSupportedOp(Operation *op) {
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  if (dialect == "linalg" || dialect == "arith" || dialect == "math" ||
      dialect == "check" || dialect == "util")
    return true;
  // Index arithmetic inside element computations (TOSA's FFTs use it).
  if (dialect == "index" && op->getParentOfType<linalg::LinalgOp>())
    return true;
  if (isa<ModuleOp, func::FuncOp, func::ReturnOp, func::CallOp>(op))
    return true;
  // Host control flow.
  if (isa<scf::IfOp, scf::WhileOp, scf::ForOp, scf::YieldOp, scf::ConditionOp>(
          op))
    return true;
  // A size at a constant index: it folds away once its tensor's shape is
  // static, and a shape that is not is reported where that tensor is made.
  if (auto dimOp = dyn_cast<tensor::DimOp>(op))
    return dimOp.getConstantIndex().has_value();
  return isa<tensor::EmptyOp, tensor::ExtractSliceOp, tensor::InsertSliceOp,
             tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::PadOp,
             tensor::ConcatOp, tensor::YieldOp, tensor::CastOp,
             tensor::ExtractOp, tensor::FromElementsOp, tensor::InsertOp>(op);
}

/// Reports `type` at `loc` if it is a shaped type kiln cannot represent.
LogicalResult verifyType(Location loc, Type type) {
  auto shapedType = dyn_cast<ShapedType>(type);
  if (!shapedType)
    return success();
  if (!shapedType.hasRank())
    return emitError(loc) << "unranked types are not supported: " << type;
  if (static_cast<uint64_t>(shapedType.getRank()) > ::kiln::kMaxTensorRank)
    return emitError(loc) << type << " has rank " << shapedType.getRank()
                          << "; a kiln tensor has at most "
                          << ::kiln::kMaxTensorRank << " dimensions";
  Type elementType = shapedType.getElementType();
  if (!isSupportedInternalElementType(elementType) && !elementType.isIndex())
    return emitError(loc) << "unsupported element type " << elementType
                          << " in " << type;
  // The runtime refuses such a tensor when it loads the module; say so here,
  // at the op. Elements take whole bytes (i1, i2, i4 and f4E2M1FN one),
  // index eight.
  uint64_t bytes = elementType.isIndex()
                       ? 8
                       : std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  for (int64_t dim : shapedType.getShape()) {
    // A dynamic size is checked when it is known, at run time.
    if (ShapedType::isDynamic(dim))
      continue;
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(dim), &bytes) ||
        bytes > ::kiln::kMaxTensorByteSize)
      return emitError(loc) << type << " needs more than "
                            << (::kiln::kMaxTensorByteSize >> 40)
                            << " TiB, the most a kiln tensor holds";
  }
  return success();
}

/// Every operand that indexes a loop with a plain dimension must agree on
/// its size. Upstream accepts, e.g., a matmul-like generic writing 0 rows
/// while reading 6; the generated code would size its loops by one operand
/// and write past the end of another.
LogicalResult verifyLoopRanges(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges(op.getNumLoops(), ShapedType::kDynamic);
  SmallVector<unsigned> sources(op.getNumLoops(), 0);
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || i >= static_cast<size_t>(type.getRank()))
        continue;
      unsigned loop = dim.getPosition();
      int64_t size = type.getDimSize(i);
      if (ShapedType::isDynamic(ranges[loop])) {
        ranges[loop] = size;
        sources[loop] = operand.getOperandNumber();
      } else if (ranges[loop] != size) {
        return op.emitError()
               << "operand " << operand.getOperandNumber() << " has size "
               << size << " in dimension " << i << ", but loop d" << loop
               << " runs " << ranges[loop] << " times (operand "
               << sources[loop] << ")";
      }
    }
  }
  return success();
}

LogicalResult verifyFunctionSignature(func::FuncOp funcOp) {
  if (funcOp.isExternal())
    return funcOp.emitError() << "function '" << funcOp.getName()
                              << "' has no body; kiln compiles whole programs";
  if (!funcOp.isPublic())
    return success();
  // The runtime finds functions by name and refuses a module with an empty
  // one; a NUL would cut the name short in every C tool.
  if (funcOp.getName().empty() || funcOp.getName().contains('\0'))
    return funcOp.emitError()
           << "public function names must be non-empty and hold no NUL "
              "character";
  bool ok = true;
  auto check = [&](Type type, StringRef what, unsigned index) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType || !isSupportedElementType(tensorType.getElementType())) {
      funcOp.emitError() << "public function '" << funcOp.getName() << "' "
                         << what << " " << index << " has type " << type
                         << "; kiln functions take and return ranked tensors "
                            "of f32, f64, f16, bf16, f8E5M2, f8E4M3FN, "
                            "f8E5M2FNUZ, f8E4M3FNUZ, f8E8M0FNU, f4E2M1FN, "
                            "i1, i8, i16, i32 or i64";
      ok = false;
    }
  };
  for (auto [i, type] : llvm::enumerate(funcOp.getArgumentTypes()))
    check(type, "argument", i);
  for (auto [i, type] : llvm::enumerate(funcOp.getResultTypes()))
    check(type, "result", i);
  return success(ok);
}

struct VerifyInputPass : impl::VerifyInputPassBase<VerifyInputPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (op == getOperation())
        return WalkResult::advance();
      if (!isSupportedOp(op)) {
        op->emitError() << "unsupported op '" << op->getName()
                        << "'; kiln compiles func, linalg, arith, math, "
                           "TOSA (what upstream MLIR converts to linalg), "
                           "scf.{if, while, for}, the check and util test "
                           "ops and tensor.{empty, dim, extract, insert, "
                           "from_elements, extract_slice, insert_slice, "
                           "expand_shape, "
                           "collapse_shape, pad, concat, cast}";
        failed = true;
        return WalkResult::skip();
      }
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        failed |= verifyLoopRanges(linalgOp).failed();
      // Upstream verifies softmax for any element type, but its
      // decomposition needs floats (exp, and -inf as the max's identity).
      if (auto softmaxOp = dyn_cast<linalg::SoftmaxOp>(op)) {
        Type elementType = softmaxOp.getInputOperandType().getElementType();
        if (!isa<FloatType>(elementType)) {
          softmaxOp.emitError() << "linalg.softmax needs a floating-point "
                                   "element type, got "
                                << elementType;
          failed = true;
        }
      }
      if (auto funcOp = dyn_cast<func::FuncOp>(op)) {
        failed |= verifyFunctionSignature(funcOp).failed();
        for (Type type : funcOp.getResultTypes())
          failed |= verifyType(funcOp.getLoc(), type).failed();
      }
      for (Type type : op->getResultTypes())
        failed |= verifyType(op->getLoc(), type).failed();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            failed |= verifyType(arg.getLoc(), arg.getType()).failed();
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
} // namespace mlir::kiln
