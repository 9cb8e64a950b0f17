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

LogicalResult DispatchRegionOp::verify() {
  auto returnOp = cast<ReturnOp>(getBody().front().getTerminator());
  if (returnOp.getOperandTypes() != getResultTypes())
    return emitOpError("terminator operand types do not match result types");
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

LogicalResult
DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto executableOp = symbolTable.lookupNearestSymbolFrom<ExecutableOp>(
      *this, getExecutableName());
  if (!executableOp)
    return emitOpError("refers to unknown executable ") << getExecutableName();
  for (auto variantOp : executableOp.getBlock().getOps<ExecutableVariantOp>()) {
    auto exportOp = symbolTable.lookupSymbolIn(variantOp, getExportName());
    if (!isa_and_nonnull<ExecutableExportOp>(exportOp))
      return emitOpError("refers to export ")
             << getExportName() << " missing from variant "
             << variantOp.getSymName();
    auto bindings = cast<ExecutableExportOp>(exportOp).getBindings().getZExtValue();
    if (bindings != getNumOperands() + getNumResults())
      return emitOpError("has ")
             << getNumOperands() + getNumResults() << " bindings but export "
             << getExportName() << " takes " << bindings;
  }
  return success();
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
