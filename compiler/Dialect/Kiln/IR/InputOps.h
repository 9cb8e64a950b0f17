//===- InputOps.h - the input program's ops, by location ---------*- C++ -*-===//
//
// Rewrites rename ops (linalg.add becomes a linalg.generic) and fuse their
// bodies together, but keep their locations. Recorded before any rewriting,
// the ops of the input program by location say what the op at FILE:LINE:COL
// was called and the last line its text (its regions) spans, so that
// provenance names each fused op as it was written and a profile places a
// line of an op's body in that op:
//
//   kiln.input_ops = [loc("linalg.add"("m.mlir":12:8)),
//                     loc("linalg.generic"("m.mlir":31:8 to 39:0))]
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_INPUTOPS_H_
#define KILN_DIALECT_KILN_IR_INPUTOPS_H_

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <tuple>

namespace mlir::kiln {

/// The first file location inside `loc`, if any.
std::optional<FileLineColLoc> findFileLoc(Location loc);

/// On the module, from the start of the pipeline to the module file.
inline constexpr StringLiteral kInputOpsAttrName = "kiln.input_ops";

/// An op of the input program.
struct InputOp {
  StringAttr name;
  /// The last line of its text in its file (its own line when it has no
  /// regions).
  unsigned lastLine = 0;
};

/// Records every op of `moduleOp` that has a file location in
/// kInputOpsAttrName.
void recordInputOps(ModuleOp moduleOp);

/// The ops a module recorded, looked up by location.
class InputOpTable {
public:
  explicit InputOpTable(ModuleOp moduleOp);

  /// The input op at `loc`'s file, line and column, if recorded.
  std::optional<InputOp> lookup(FileLineColLoc loc) const;

private:
  llvm::DenseMap<std::tuple<StringAttr, unsigned, unsigned>, InputOp> ops;
};

} // namespace mlir::kiln

#endif // KILN_DIALECT_KILN_IR_INPUTOPS_H_
