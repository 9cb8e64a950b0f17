//===- FlowDialect.cpp - IREE test-format flow ops ------------------------===//

#include "Dialect/Flow/IR/FlowDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::kiln::flow;

#include "Dialect/Flow/IR/FlowDialect.cpp.inc"

namespace {
/// The ops are values of their operands: helpers holding them inline.
struct FlowInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
}  // namespace

void FlowDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/Flow/IR/FlowOps.cpp.inc"
      >();
  addInterfaces<FlowInlinerInterface>();
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
  if (static_cast<int64_t>(getDynamicDims().size()) !=
      getType().getNumDynamicDims())
    return emitOpError("expects ")
           << getType().getNumDynamicDims() << " dynamic dimensions for "
           << getType() << ", got " << getDynamicDims().size();
  return success();
}

#define GET_OP_CLASSES
#include "Dialect/Flow/IR/FlowOps.cpp.inc"
