//===- LinkerTool.h - ld.lld, the object to a shared object -------*- C++ -*-===//

#ifndef KILN_TARGET_CPU_LINKERTOOL_H_
#define KILN_TARGET_CPU_LINKERTOOL_H_

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

namespace mlir::kiln {

/// Links `objectPaths` into the shared object `libraryPath` with ld.lld
/// (from the LLVM 22 installation, else from PATH) as the runtime demands of
/// a library before it loads it: nothing but the objects linked in (no start
/// files or libraries: no initializers, no DT_NEEDED), no text relocations,
/// no executable stack.
LogicalResult linkSharedLibrary(Location loc, ArrayRef<StringRef> objectPaths,
                                StringRef libraryPath);

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_LINKERTOOL_H_
