//===- NestingDepth.cpp - bound the input's nesting before parsing --------===//

#include "Input/NestingDepth.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::kiln {

LogicalResult verifyNestingDepth(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    switch (text[i]) {
    case '"':
      // To the closing quote, past escaped characters.
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        i = std::min(text.find('\n', i), text.size());
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > kMaxInputNestingDepth) {
        auto [line, column] = sourceMgr.getLineAndColumn(
            llvm::SMLoc::getFromPointer(text.data() + i));
        return emitError(FileLineColLoc::get(
                   context, buffer->getBufferIdentifier(), line, column))
               << "the input nests deeper than " << kMaxInputNestingDepth
               << " levels of brackets, more than kiln compiles";
      }
      break;
    case ')':
    case ']':
    case '}':
    case '>':
      // `->` and comparisons hold a '>' that closes nothing.
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return success();
}

} // namespace mlir::kiln
