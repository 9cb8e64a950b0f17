//===- UtilDialect.cpp - IREE test-format utility ops ---------------------===//

#include "Dialect/IREETestFormat/Util/IR/UtilDialect.h"

#include "Dialect/AlwaysLegalToInline.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::kiln::util;

#include "Dialect/IREETestFormat/Util/IR/UtilDialect.cpp.inc"

void UtilDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Dialect/IREETestFormat/Util/IR/UtilOps.cpp.inc"
      >();
  addInterfaces<kiln::AlwaysLegalToInline>();
}

//===----------------------------------------------------------------------===//
// UnfoldableConstantOp: `util.unfoldable_constant attr-dict <typed attr>`
//===----------------------------------------------------------------------===//

ParseResult UnfoldableConstantOp::parse(OpAsmParser &parser,
                                        OperationState &result) {
  TypedAttr value;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseAttribute(value))
    return failure();
  result.addAttribute(getValueAttrName(result.name), value);
  result.addTypes(value.getType());
  return success();
}

void UnfoldableConstantOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
  printer << " ";
  printer.printAttribute(getValue());
}

LogicalResult UnfoldableConstantOp::verify() {
  if (getValue().getType() != getResult().getType())
    return emitOpError("result type ")
           << getResult().getType() << " differs from the value's type "
           << getValue().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// OptimizationBarrierOp
//===----------------------------------------------------------------------===//

LogicalResult OptimizationBarrierOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

#define GET_OP_CLASSES
#include "Dialect/IREETestFormat/Util/IR/UtilOps.cpp.inc"
