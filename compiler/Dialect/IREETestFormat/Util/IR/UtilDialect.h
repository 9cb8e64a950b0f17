//===- UtilDialect.h - IREE test-format utility ops ---------------*- C++ -*-===//

#ifndef KILN_DIALECT_IREETESTFORMAT_UTIL_IR_UTILDIALECT_H_
#define KILN_DIALECT_IREETESTFORMAT_UTIL_IR_UTILDIALECT_H_

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include "Dialect/IREETestFormat/Util/IR/UtilDialect.h.inc"

#define GET_OP_CLASSES
#include "Dialect/IREETestFormat/Util/IR/UtilOps.h.inc"

#endif // KILN_DIALECT_IREETESTFORMAT_UTIL_IR_UTILDIALECT_H_
