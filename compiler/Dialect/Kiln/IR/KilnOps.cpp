//===- KilnOps.cpp - kiln operations ------------------------------*- C++ -*-===//

#include "Dialect/Kiln/IR/KilnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::kiln;

//===----------------------------------------------------------------------===//
// DispatchRegionOp
//===----------------------------------------------------------------------===//

int64_t mlir::kiln::countDynamicDims(TypeRange types) {
  int64_t count = 0;
  for (Type type : types)
    if (auto shaped = dyn_cast<ShapedType>(type))
      count += shaped.getNumDynamicDims();
  return count;
}

/// `dims` names each dynamic dimension of `types`, as `op` says.
static LogicalResult verifyDynamicDims(Operation *op, TypeRange types,
                                       ValueRange dims, StringRef what) {
  int64_t expected = countDynamicDims(types);
  if (static_cast<int64_t>(dims.size()) != expected)
    return op->emitOpError("has ") << dims.size() << " " << what << " for "
                                   << expected << " dynamic dimensions";
  return success();
}

LogicalResult DispatchRegionOp::verify() {
  auto returnOp = cast<ReturnOp>(getBody().front().getTerminator());
  if (returnOp.getOperandTypes() != getResultTypes())
    return emitOpError("terminator operand types do not match result types");
  return verifyDynamicDims(*this, getResultTypes(), getResultDims(),
                           "result dims");
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

LogicalResult
mlir::kiln::verifyEntryPointUse(Operation *op, SymbolRefAttr entryPoint,
                                int64_t bindings, int64_t constants,
                                SymbolTableCollection &symbolTable) {
  StringAttr executableName = entryPoint.getRootReference();
  StringAttr exportName = entryPoint.getLeafReference();
  auto executableOp =
      symbolTable.lookupNearestSymbolFrom<ExecutableOp>(op, executableName);
  if (!executableOp)
    return op->emitOpError("refers to unknown executable ") << executableName;
  for (auto variantOp : executableOp.getBlock().getOps<ExecutableVariantOp>()) {
    auto exportOp = symbolTable.lookupSymbolIn(variantOp, exportName);
    if (!isa_and_nonnull<ExecutableExportOp>(exportOp))
      return op->emitOpError("refers to export ")
             << exportName << " missing from variant "
             << variantOp.getSymName();
    auto exportBindings =
        cast<ExecutableExportOp>(exportOp).getBindings().getSExtValue();
    if (exportBindings != bindings)
      return op->emitOpError("has ")
             << bindings << " bindings but export " << exportName << " takes "
             << exportBindings;
    IntegerAttr exportConstants =
        cast<ExecutableExportOp>(exportOp).getIndexConstantsAttr();
    int64_t expected = exportConstants ? exportConstants.getInt() : 0;
    if (expected != constants)
      return op->emitOpError("passes ")
             << constants << " index constants but export " << exportName
             << " takes " << expected;
  }
  return success();
}

LogicalResult DispatchOp::verify() {
  return verifyDynamicDims(*this, getResultTypes(), getResultDims(),
                           "result dims");
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyEntryPointUse(*this, getEntryPoint(),
                             getArguments().size() + getNumResults(),
                             getConstants().size(), symbolTable);
}

//===----------------------------------------------------------------------===//
// BindingOp
//===----------------------------------------------------------------------===//

LogicalResult BindingOp::verify() {
  return verifyDynamicDims(*this, getType(), getDynamicSizes(),
                           "dynamic sizes");
}

MemRefType mlir::kiln::getBindingStorageType(RankedTensorType type) {
  Type elementType = type.getElementType();
  if (elementType.isIntOrFloat() && elementType.getIntOrFloatBitWidth() < 8)
    return MemRefType::get(type.getShape(),
                           IntegerType::get(type.getContext(), 8));
  return MemRefType::get(type.getShape(), type.getElementType());
}

//===----------------------------------------------------------------------===//
// ExecutableOp
//===----------------------------------------------------------------------===//

void ExecutableOp::build(OpBuilder &builder, OperationState &state,
                         StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

//===----------------------------------------------------------------------===//
// ExecutableVariantOp
//===----------------------------------------------------------------------===//

ModuleOp ExecutableVariantOp::getInnerModule() {
  auto modules = getBlock().getOps<ModuleOp>();
  return modules.empty() ? ModuleOp() : *modules.begin();
}

#define GET_OP_CLASSES
#include "Dialect/Kiln/IR/KilnOps.cpp.inc"
