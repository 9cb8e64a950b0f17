//===- FlowDialect.cpp - IREE test-format flow ops ------------------------===//

#include "Dialect/IREETestFormat/Flow/IR/FlowDialect.h"

#include "Dialect/AlwaysLegalToInline.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::kiln::flow;

#include "Dialect/IREETestFormat/Flow/IR/FlowDialect.cpp.inc"

void FlowDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/IREETestFormat/Flow/IR/FlowOps.cpp.inc"
      >();
  addInterfaces<kiln::AlwaysLegalToInline>();
}

LogicalResult TensorDynamicConstantOp::verify() {
  auto valueType = dyn_cast<RankedTensorType>(getValue().getType());
  if (!valueType || failed(verifyCompatibleShape(valueType, getType())) ||
      valueType.getElementType() != getType().getElementType())
    return emitOpError("result type ")
           << getType() << " does not match the value's type "
           << getValue().getType();
  return success();
}

LogicalResult TensorTieShapeOp::verify() {
  if (getDynamicDims().size() != getType().getNumDynamicDims())
    return emitOpError("expects ")
           << getType().getNumDynamicDims() << " dynamic dimensions for "
           << getType() << ", got " << getDynamicDims().size();
  return success();
}

LogicalResult TensorBitCastOp::verify() {
  RankedTensorType sourceType = getSource().getType();
  RankedTensorType resultType = getType();
  if (getSourceDims().size() != sourceType.getNumDynamicDims() ||
      getResultDims().size() != resultType.getNumDynamicDims())
    return emitOpError("expects one index operand per dynamic dimension of ")
           << sourceType << " and " << resultType;
  for (Type type : {sourceType.getElementType(), resultType.getElementType()})
    if (!type.isIntOrFloat())
      return emitOpError("cannot reinterpret the bits of ") << type;
  if (sourceType.hasStaticShape() && resultType.hasStaticShape() &&
      sourceType.getNumElements() * sourceType.getElementTypeBitWidth() !=
          resultType.getNumElements() * resultType.getElementTypeBitWidth())
    return emitOpError("source ") << sourceType << " and result " << resultType
                                  << " do not hold the same number of bits";
  return success();
}

#define GET_OP_CLASSES
#include "Dialect/IREETestFormat/Flow/IR/FlowOps.cpp.inc"
