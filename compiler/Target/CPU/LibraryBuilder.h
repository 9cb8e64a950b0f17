//===- LibraryBuilder.h - CPU variants to one shared object -------*- C++ -*-===//

#ifndef KILN_TARGET_CPU_LIBRARYBUILDER_H_
#define KILN_TARGET_CPU_LIBRARYBUILDER_H_

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::kiln {

/// Where an export of the module landed in the library.
struct LibraryExport {
  std::string executable;
  std::string name;
  uint32_t ordinal;
};

struct CPULibrary {
  /// Bytes of the linked ELF shared object.
  std::string bytes;
  /// The CPU the code was generated for.
  std::string cpu;
  /// The instruction-set features that CPU has (with the variants' extra
  /// features applied), e.g. "avx2", "fma": what the code may use.
  std::vector<std::string> cpuFeatures;
  /// Every export, in library ordinal order.
  std::vector<LibraryExport> exports;
};

/// Resolves a `--cpu` choice into an LLVM CPU name and feature string. For
/// "host", the features list only where the host differs from what its CPU
/// name implies (a virtual machine may hide some), usually nothing.
std::pair<std::string, std::string> resolveTargetCPU(StringRef cpu);

/// Succeeds when `cpu` ("host" or an x86-64 CPU name) names a CPU LLVM
/// can generate code for.
LogicalResult verifyTargetCPU(StringRef cpu);

/// Translates the LLVM-dialect module of every CPU variant in `moduleOp` to
/// LLVM IR, links them into one module that also holds the export table and
/// `kiln_executable_library_query` (see executable_library.h), optimizes it,
/// emits an object for the variants' CPU and links it into a shared object
/// with ld.lld. `libraryName` names the library in its header. A module
/// without variants gets an empty library for `targetCPU` (the `--cpu`
/// choice).
FailureOr<CPULibrary> buildCPULibrary(ModuleOp moduleOp, StringRef libraryName,
                                      StringRef targetCPU);

}  // namespace mlir::kiln

#endif  // KILN_TARGET_CPU_LIBRARYBUILDER_H_
