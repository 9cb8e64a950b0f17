//===- CheckDialect.h - test assertions ---------------------------*- C++ -*-===//

#ifndef KILN_DIALECT_IREETESTFORMAT_CHECK_IR_CHECKDIALECT_H_
#define KILN_DIALECT_IREETESTFORMAT_CHECK_IR_CHECKDIALECT_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "Dialect/IREETestFormat/Check/IR/CheckDialect.h.inc"

#define GET_OP_CLASSES
#include "Dialect/IREETestFormat/Check/IR/CheckOps.h.inc"

#endif // KILN_DIALECT_IREETESTFORMAT_CHECK_IR_CHECKDIALECT_H_
