//===- LibraryBuilder.h - CPU variants to one shared object -------*- C++ -*-===//

#ifndef KILN_TARGET_CPU_LIBRARYBUILDER_H_
#define KILN_TARGET_CPU_LIBRARYBUILDER_H_

#include "Target/CPU/LibraryLines.h"
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
  /// The code variant whose code it holds.
  std::string variantName;
  /// Bytes of the linked ELF shared object.
  std::string bytes;
  /// The CPU the code was generated for.
  std::string cpu;
  /// The instruction-set features that CPU has (with the variants' extra
  /// features applied), e.g. "avx2", "fma": what the code may use.
  std::vector<std::string> cpuFeatures;
  /// Every export, in library ordinal order.
  std::vector<LibraryExport> exports;
  /// Which export and line each code address of `bytes` belongs to, read
  /// back from the linked library (its symbols and DWARF line table).
  LibraryLines lines;
};

struct CPULibraryOptions {
  /// The code variant to build: the executables' variants of that name.
  std::string variantName = "cpu";
  /// Its `--cpu` entry, for a module without executables (each variant
  /// names its own CPU).
  std::string targetCPU = "host";
  /// DWARF line tables from the ops' locations (`--executable-debug-level`
  /// 1 and up): into the text of `lineStage` where an op's location is
  /// tagged with its line there (see Capture/StageLines.h), else into the
  /// input program.
  bool lineTables = false;
  /// The stage whose texts the line tables point into (empty: none) and
  /// the module part of their paths (`getCapturedSourcePath`).
  std::string lineStage;
  std::string sourcePrefix;
  /// `--keep-library-files`: write the object and the shared object as
  /// DIR/<library name>.o and .so and keep them (empty: temporary files).
  std::string keepFilesDir;
};

/// Translates the LLVM-dialect module of every CPU variant named
/// `options.variantName` in `moduleOp` to
/// LLVM IR, links them into one module that also holds the export table and
/// `kiln_executable_library_query` (see executable_library.h), optimizes it,
/// emits an object (each variant's functions for its own CPU) and links it
/// into a shared object with ld.lld. `libraryName` names the library in its
/// header. Each export's code is a local symbol named after the export. A
/// module without variants gets an empty library for `options.targetCPU`.
FailureOr<CPULibrary> buildCPULibrary(ModuleOp moduleOp, StringRef libraryName,
                                      const CPULibraryOptions &options);

} // namespace mlir::kiln

#endif // KILN_TARGET_CPU_LIBRARYBUILDER_H_
