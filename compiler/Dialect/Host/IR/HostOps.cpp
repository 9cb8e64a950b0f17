//===- HostOps.cpp - host programs as the runtime runs them ---------------===//

#include "Dialect/Host/IR/HostOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;

using namespace mlir::kiln::host;

#include "Dialect/Host/IR/HostEnums.cpp.inc"

int64_t mlir::kiln::host::getStorageElementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::kiln::host::getStorageByteSize(ShapedType type) {
  return type.getNumElements() * getStorageElementBytes(type.getElementType());
}

bool mlir::kiln::host::isIndexArithmetic(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isIndex())
    return false;
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::FloorDivSIOp, arith::CeilDivSIOp, arith::RemSIOp,
             arith::MinSIOp, arith::MaxSIOp, arith::DivSIOp, arith::DivUIOp,
             arith::CeilDivUIOp, arith::RemUIOp>(op);
}

bool mlir::kiln::host::isSizeRead(Operation *op) {
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
    auto extractOp = op->getOperand(0).getDefiningOp<tensor::ExtractOp>();
    return extractOp && op->getResult(0).getType().isIndex() &&
           isSizeRead(extractOp);
  }
  auto extractOp = dyn_cast<tensor::ExtractOp>(op);
  if (!extractOp)
    return false;
  auto type = cast<RankedTensorType>(extractOp.getTensor().getType());
  return type.hasStaticShape() && isa<IntegerType>(type.getElementType()) &&
         llvm::all_of(extractOp.getIndices(),
                      [](Value index) {
                        return getConstantIntValue(index).has_value();
                      }) &&
         !extractOp->use_empty() &&
         llvm::all_of(extractOp->getUsers(), [](Operation *user) {
           return isa<arith::IndexCastOp, arith::IndexCastUIOp>(user) &&
                  user->getResult(0).getType().isIndex();
         });
}

//===----------------------------------------------------------------------===//
// BufferOp
//===----------------------------------------------------------------------===//

LogicalResult BufferOp::verify() {
  if (!isa<func::FuncOp>((*this)->getParentOp()) ||
      !(*this)->getBlock()->isEntryBlock())
    return emitOpError("must be in the entry block of a function");
  return success();
}

//===----------------------------------------------------------------------===//
// AllocateOp
//===----------------------------------------------------------------------===//

LogicalResult AllocateOp::verify() {
  if (!getResult().hasOneUse() ||
      !isa<DispatchOp>(*getResult().getUsers().begin()))
    return emitOpError("must be written into by exactly one host.dispatch");
  return success();
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto sourceType = cast<ShapedType>(getSource().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (sourceType.getElementType() != resultType.getElementType() ||
      (sourceType.hasStaticShape() && resultType.hasStaticShape() &&
       sourceType.getNumElements() != resultType.getNumElements()))
    return emitOpError("views ")
           << sourceType << " as " << resultType
           << ": the element type and count must not change";
  if (static_cast<int64_t>(getResultDims().size()) !=
      resultType.getNumDynamicDims())
    return emitOpError("has ")
           << getResultDims().size() << " result dims for "
           << resultType.getNumDynamicDims() << " dynamic dimensions";
  return success();
}

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  int64_t rank = cast<ShapedType>(getSource().getType()).getRank();
  if (getDimension().getSExtValue() >= rank)
    return emitOpError("reads dimension ")
           << getDimension().getSExtValue() << " of a value of rank " << rank;
  return success();
}

//===----------------------------------------------------------------------===//
// ExtractOp
//===----------------------------------------------------------------------===//

LogicalResult ExtractOp::verify() {
  auto type = cast<RankedTensorType>(getSource().getType());
  if (!type.hasStaticShape())
    return emitOpError("reads an element of a value of dynamic shape ") << type;
  int64_t element = getElement().getSExtValue();
  if (element < 0 || element >= type.getNumElements())
    return emitOpError("reads element ")
           << element << " of a value of " << type.getNumElements()
           << " elements";
  unsigned width = type.getElementTypeBitWidth();
  if (width != 1 && width != 8 && width != 16 && width != 32 && width != 64)
    return emitOpError("reads elements of ") << width << " bits";
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

LogicalResult DispatchOp::verify() {
  if (static_cast<int64_t>(getResultDims().size()) !=
      kiln::countDynamicDims(getResultTypes()))
    return emitOpError("has ")
           << getResultDims().size() << " result dims for "
           << kiln::countDynamicDims(getResultTypes()) << " dynamic dimensions";
  if (getBuffers().size() != getResults().size())
    return emitOpError("has ")
           << getResults().size() << " results but " << getBuffers().size()
           << " buffers to write them into";
  for (auto [index, buffer] : llvm::enumerate(getBuffers())) {
    if (llvm::is_contained(getBuffers().take_front(index), buffer))
      return emitOpError("writes results ")
             << llvm::find(getBuffers(), buffer) - getBuffers().begin()
             << " and " << index << " into one buffer";
    auto bufferOp = buffer.getDefiningOp<BufferOp>();
    if (!bufferOp)
      continue;
    auto resultType = cast<ShapedType>(getResult(index).getType());
    if (!resultType.hasStaticShape())
      return emitOpError("writes result ")
             << index << " (" << resultType
             << ") into a planned buffer: a dynamic result goes into "
                "host.allocate storage";
    int64_t bytes = getStorageByteSize(resultType);
    if (static_cast<uint64_t>(bytes) > bufferOp.getSize())
      return emitOpError("writes result ")
             << index << " (" << resultType << ", " << bytes
             << " bytes) into a buffer of " << bufferOp.getSize() << " bytes";
  }
  return success();
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return kiln::verifyEntryPointUse(*this, getEntryPoint(),
                                   getArguments().size() + getResults().size(),
                                   getConstants().size(), symbolTable);
}

//===----------------------------------------------------------------------===//
// CheckOp
//===----------------------------------------------------------------------===//

LogicalResult CheckOp::verify() {
  CheckKind kind = getKind();
  bool hasRhs =
      kind == CheckKind::ExpectEq || kind == CheckKind::ExpectAlmostEq;
  if (hasRhs != static_cast<bool>(getRhs()))
    return emitOpError() << stringifyCheckKind(kind)
                         << (hasRhs ? " compares two values"
                                    : " takes one value");
  if (getRhs() && getRhs().getType() != getLhs().getType())
    return emitOpError("compares values of types ")
           << getLhs().getType() << " and " << getRhs().getType();
  if (kind != CheckKind::ExpectAlmostEq && (getAtol() || getRtol()))
    return emitOpError("only expect_almost_eq has tolerances");
  auto type = cast<ShapedType>(getLhs().getType());
  Type elementType = type.getElementType();
  switch (kind) {
  case CheckKind::ExpectTrue:
  case CheckKind::ExpectFalse:
    if (type.getRank() != 0 || !elementType.isSignlessInteger())
      return emitOpError("expects a 0-d integer tensor");
    break;
  case CheckKind::ExpectAllTrue:
    if (!elementType.isSignlessInteger())
      return emitOpError("expects an integer tensor");
    break;
  case CheckKind::ExpectEq:
    break;
  case CheckKind::ExpectAlmostEq:
    if (!isa<FloatType>(elementType))
      return emitOpError("expects float tensors");
    for (std::optional<APFloat> tolerance : {getAtol(), getRtol()})
      if (tolerance && (!tolerance->isFinite() || tolerance->isNegative()))
        return emitOpError("tolerances must be finite and not negative");
    break;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

SuccessorOperands BranchOp::getSuccessorOperands(unsigned index) {
  assert(index == 0 && "invalid successor index");
  return SuccessorOperands(getDestOperandsMutable());
}

LogicalResult BranchOp::verify() {
  for (Value operand : getDestOperands()) {
    auto arg = dyn_cast<BlockArgument>(operand);
    if (arg && arg.getOwner() == getDest())
      return emitOpError("passes argument ")
             << arg.getArgNumber()
             << " of its destination to it: view it with host.reshape first";
  }
  return success();
}

SuccessorOperands CondBranchOp::getSuccessorOperands(unsigned index) {
  assert(index < 2 && "invalid successor index");
  return SuccessorOperands(MutableOperandRange(getOperation(), 0, 0));
}

LogicalResult ReturnOp::verify() {
  auto funcOp = cast<func::FuncOp>((*this)->getParentOp());
  if (getOperandTypes() != funcOp.getResultTypes())
    return emitOpError("returns ")
           << getOperandTypes().size() << " values of types "
           << getOperandTypes() << " from a function of results "
           << funcOp.getResultTypes();
  return success();
}

#define GET_OP_CLASSES
#include "Dialect/Host/IR/HostOps.cpp.inc"
