//===- Utils.h - dispatch naming helpers --------------------------*- C++ -*-===//

#ifndef KILN_DISPATCH_UTILS_H_
#define KILN_DISPATCH_UTILS_H_

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Region.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace mlir::kiln {

/// The op that names and characterizes the work of a dispatch body: its most
/// expensive linalg op (contraction, convolution, reduction, named op) or,
/// failing that, its last compute op.
Operation *findDispatchRootOp(Region &body);

/// Describes the work of a dispatch body as `<rootop>_<loop ranges>_<type>`,
/// e.g. `matmul_4x16x8_f32` or `elementwise_128x64_f32`.
std::string describeDispatchWork(Region &body);

/// A pack of packed contractions' LHS (every use is the LHS of an mmt4d or
/// batch_mmt4d) that tiles K by one, and pads only where the contractions'
/// results are unpacked alone: the contractions can read each of its tiles
/// straight from its source (one element of each of M0 rows per step of K,
/// broadcast; a padded row read as the source's last), so no packed copy is
/// needed. Its source's rows may be known only at run time (a batch) where
/// each contraction's result is unpacked alone by a
/// canUnPackInContraction unpack.
bool canReadPackInPlace(Operation *op);

/// Whether `op`, the unpack of a packed contraction's result, can run in the
/// contraction's dispatch: shapes known at compile time, or known but for
/// the rows (a batch), the result's dims not permuted.
bool canUnPackInContraction(Operation *op);

/// The inserts of a pad or concat: a chain of unit-stride insert_slices at
/// static offsets (their sizes may be known only at run time: a batch) that
/// keep the rank (first first) into a fill or an empty tensor, `base`.
struct InsertChain {
  SmallVector<tensor::InsertSliceOp> inserts;
  Value base;
};

/// The chain of inserts that ends in `root`, if it is one.
std::optional<InsertChain> matchInsertChain(tensor::InsertSliceOp root);

/// Output elements one workgroup computes, when each costs `reduction`
/// multiply-adds (or other steps): enough work to amortize its scheduling,
/// fewer elements for longer reductions.
int64_t getWorkgroupOutputBudget(int64_t reduction);

/// Elements of `type` counting each dimension known only at run time (a
/// batch) as one.
int64_t getStaticElementCount(ShapedType type);

/// The memref a kernel sees at a binding of tensor type `type`. Bindings
/// hold i1, i2, i4 and f4E2M1FN as one byte per element; inside the kernel
/// the tensors have their own type again. Vector code would otherwise store
/// such vectors as packed bits.
MemRefType getBindingStorageType(RankedTensorType type);

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

#endif // KILN_DISPATCH_UTILS_H_
