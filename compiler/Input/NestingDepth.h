//===- NestingDepth.h - bound the input's nesting before parsing --*- C++ -*-===//

#ifndef KILN_INPUT_NESTINGDEPTH_H_
#define KILN_INPUT_NESTINGDEPTH_H_

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::kiln {

/// Deepest bracket nesting, of (), [], {} and <> together, an input may
/// have. The parser and the passes recurse once per level; past a few
/// thousand levels they overflow the stack.
inline constexpr unsigned kMaxInputNestingDepth = 1000;

/// Fails, with an error at the bracket that opens one level too many, when
/// the main buffer of `sourceMgr` nests deeper than kMaxInputNestingDepth.
/// Brackets inside string literals and `//` comments do not count.
LogicalResult verifyNestingDepth(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context);

} // namespace mlir::kiln

#endif // KILN_INPUT_NESTINGDEPTH_H_
