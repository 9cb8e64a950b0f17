//===- Utils.h - facts of ops that CPU code generation tiles -------*- C++ -*-===//

#ifndef KILN_CODEGEN_CPU_UTILS_H_
#define KILN_CODEGEN_CPU_UTILS_H_

#include "Dialect/Kiln/IR/KilnOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::kiln {

/// Largest iteration space vectorized as a whole; anything bigger is tiled
/// first so that vectors stay register-sized.
inline constexpr int64_t kMaxVectorizedElements = 4096;

/// Marks a pack whose tiles the contractions of its dispatch read straight
/// from its source (canReadPackInPlace): strategy selection sets it, the
/// pack is neither tiled nor vectorized on its own, and vectorization folds
/// the reads of its tiles into reads of its source.
inline constexpr StringLiteral kReadInPlaceAttrName = "kiln.read_in_place";

/// Static loop ranges (the iteration domain) of a linalg op, pack or unpack,
/// with ShapedType::kDynamic for dynamic ones; empty for other ops. A
/// pack's loops are its destination's outer dims, an unpack's its
/// destination's dims.
SmallVector<int64_t> getStaticLoopRanges(Operation *op);

/// The product of the static loop ranges, ShapedType::kDynamic if any is
/// dynamic.
int64_t getIterationSpaceSize(Operation *op);

/// The range tiles are planned for where a loop's range is known only at
/// run time: large enough that every tile is full-sized and the work is
/// spread over every core.
inline constexpr int64_t kPlanningRange = 65536;

/// getStaticLoopRanges with each dynamic range as kPlanningRange: what
/// strategy selection sizes its tiles by.
SmallVector<int64_t> getPlanningLoopRanges(Operation *op);

/// The export of `funcOp`'s variant that names it; null for a function
/// outside an executable (a test's, or a helper).
ExecutableExportOp getExportOf(func::FuncOp funcOp);

} // namespace mlir::kiln

#endif // KILN_CODEGEN_CPU_UTILS_H_
