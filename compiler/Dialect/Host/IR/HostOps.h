//===- HostOps.h - host programs as the runtime runs them ---------*- C++ -*-===//

#ifndef KILN_DIALECT_HOST_IR_HOSTOPS_H_
#define KILN_DIALECT_HOST_IR_HOSTOPS_H_

#include "Dialect/Host/IR/HostDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Dialect/Host/IR/HostEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Dialect/Host/IR/HostTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Dialect/Host/IR/HostAttrs.h.inc"

#define GET_OP_CLASSES
#include "Dialect/Host/IR/HostOps.h.inc"

namespace mlir::kiln::host {

/// Bytes an element of `type` takes at run time: one for i1 (and for i2 and
/// i4, as bindings store them).
int64_t getStorageElementBytes(Type type);

/// Bytes a value of `type` takes at run time, row-major and dense.
int64_t getStorageByteSize(ShapedType type);

/// Whether `op` is index arithmetic a host function runs as it is (on
/// dimensions: the module's IndexOp kinds): an index constant, or addi,
/// subi, muli, floordivsi, ceildivsi, remsi, minsi, maxsi of indices.
bool isIndexArithmetic(Operation *op);

/// Whether `op` is a read of a size from a tensor's contents that a host
/// function runs as it is (host.extract): a tensor.extract at constant
/// positions of a statically shaped integer tensor whose every user makes
/// it an index (arith.index_cast or index_castui), or such a cast of one.
bool isSizeRead(Operation *op);

} // namespace mlir::kiln::host

#endif // KILN_DIALECT_HOST_IR_HOSTOPS_H_
