//===- DispatchConstants.h - kernel extents as dispatch constants -*- C++ -*-===//
//
// Which `kiln.dispatch.constant` an extent of a kernel value is: strategy
// selection scales the workgroup grid by the constants that bound the
// distributed loops, workgroup id resolution reads the grid's extents back
// from them, and export verification checks that a loop's operands agree
// on them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_CPU_DISPATCHCONSTANTS_H_
#define KILN_CODEGEN_CPU_DISPATCHCONSTANTS_H_

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::kiln {

/// The dispatch constant that dimension `dim` of `value` is, inside a
/// kernel, when the kernel reads it from one: a binding's dynamic size (of
/// the binding or the tensor read from it), through empty tensors, slices'
/// sizes and destinations.
std::optional<int64_t> findDispatchConstant(Value value, int64_t dim);

/// The dispatch constant of dimension `dim` of the binding `value` is
/// stored into, if any: a destination sized by arithmetic on constants (a
/// pack's ceil(rows / tile)) has the extent of the binding it fills.
std::optional<int64_t> findStoredDispatchConstant(Value value, int64_t dim);

/// For each loop of `op` (a linalg op, pack or unpack in a kernel), the
/// dispatch constants of the operand extents it runs over, in operand
/// order: none for a loop no dynamic extent bounds, several when operands
/// share it (they must agree).
SmallVector<SmallVector<int64_t>> findLoopRangeConstants(Operation *op);

} // namespace mlir::kiln

#endif // KILN_CODEGEN_CPU_DISPATCHCONSTANTS_H_
