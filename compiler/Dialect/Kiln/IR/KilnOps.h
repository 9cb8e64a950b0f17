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

namespace mlir::kiln {

/// The number of dynamic dimensions of the shaped types among `types`: how
/// many values a `dims(...)` list of ops with such results holds.
int64_t countDynamicDims(TypeRange types);

/// Checks what a dispatch op `op` of `bindings` bindings and `constants`
/// index constants says of its entry point `@executable::@export`: the
/// executable exists and each of its variants has that export, taking that
/// many bindings and index constants.
LogicalResult verifyEntryPointUse(Operation *op, SymbolRefAttr entryPoint,
                                  int64_t bindings, int64_t constants,
                                  SymbolTableCollection &symbolTable);

/// The memref a kernel sees at a binding of tensor type `type`. Bindings
/// hold i1, i2, i4 and f4E2M1FN as one byte per element; inside the kernel
/// the tensors have their own type again. Vector code would otherwise store
/// such vectors as packed bits.
MemRefType getBindingStorageType(RankedTensorType type);

} // namespace mlir::kiln

#endif // KILN_DIALECT_KILN_IR_KILNOPS_H_
