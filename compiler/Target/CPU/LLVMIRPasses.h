//===- LLVMIRPasses.h - LLVM optimization and object emission -----*- C++ -*-===//
//
// The LLVM half of building a CPU library: a target machine for the
// variants' CPU, the O3 pipeline, and the object file.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_LLVMIRPASSES_H_
#define KILN_TARGET_CPU_LLVMIRPASSES_H_

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mlir::kiln {

/// A position-independent, aggressively optimizing target machine for
/// `cpu` with `features` ("+f,-g"); an error at `loc` if LLVM has none.
FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(Location loc, StringRef triple, StringRef cpu,
                    StringRef features);

/// LLVM's O3 pipeline (loop unrolling and vectorization, SLP) on `module`.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine);

/// Writes `module` as an ELF object to `path`.
LogicalResult emitObjectFile(Location loc, llvm::Module &module,
                             llvm::TargetMachine &machine, StringRef path);

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_LLVMIRPASSES_H_
