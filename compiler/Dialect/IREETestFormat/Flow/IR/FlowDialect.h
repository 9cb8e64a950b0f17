//===- FlowDialect.h - IREE test-format flow ops ------------------*- C++ -*-===//

#ifndef KILN_DIALECT_IREETESTFORMAT_FLOW_IR_FLOWDIALECT_H_
#define KILN_DIALECT_IREETESTFORMAT_FLOW_IR_FLOWDIALECT_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Dialect/IREETestFormat/Flow/IR/FlowDialect.h.inc"

#define GET_OP_CLASSES
#include "Dialect/IREETestFormat/Flow/IR/FlowOps.h.inc"

#endif // KILN_DIALECT_IREETESTFORMAT_FLOW_IR_FLOWDIALECT_H_
