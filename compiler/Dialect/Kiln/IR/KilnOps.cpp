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
mlir::kiln::verifyEntryPointUse(Operation *op, SymbolRefAttr entryPoint,
                                int64_t bindings,
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
  }
  return success();
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyEntryPointUse(*this, getEntryPoint(),
                             getNumOperands() + getNumResults(), symbolTable);
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
