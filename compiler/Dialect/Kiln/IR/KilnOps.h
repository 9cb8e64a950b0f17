//===- KilnOps.h - kiln operations --------------------------------*- C++ -*-===//

#ifndef KILN_DIALECT_KILN_IR_KILNOPS_H_
#define KILN_DIALECT_KILN_IR_KILNOPS_H_

#include "Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Dialect/Kiln/IR/KilnOps.h.inc"

#endif  // KILN_DIALECT_KILN_IR_KILNOPS_H_
