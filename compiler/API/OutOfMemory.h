//===- OutOfMemory.h - running out of memory in a compile --------*- C++ -*-===//
//
// A compile that runs out of memory on the thread that called it is an
// error its caller reports ("TOOL: error: out of memory"), so that a
// process that compiles (the Python interpreter) outlives it. MLIR and LLVM
// are built without exceptions: a std::bad_alloc thrown through their code
// runs none of its destructors, so the compile's context is then left
// allocated, never reused. Where unwinding is not safe (on the compiler's
// worker threads, or while they run tasks that may read the calling
// thread's stack) out of memory still ends the process, with that error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_API_OUTOFMEMORY_H_
#define KILN_API_OUTOFMEMORY_H_

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mlir::kiln {

/// Gives `context` (multithreaded unless the caller disabled it) worker
/// threads that count the tasks it has in flight, and installs the
/// process's out-of-memory handlers (once).
void prepareForOutOfMemory(MLIRContext &context);

/// Runs `compile`, work on `context` (prepared as above), on this thread.
/// Running out of memory there prints "TOOL: error: out of memory" to
/// `errors` and fails, releasing `context` without destroying it.
LogicalResult
runReportingOutOfMemory(std::unique_ptr<MLIRContext> &context,
                        llvm::function_ref<LogicalResult()> compile,
                        raw_ostream &errors, StringRef toolName);

} // namespace mlir::kiln

#endif // KILN_API_OUTOFMEMORY_H_
