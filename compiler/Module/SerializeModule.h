//===- SerializeModule.h - compiled IR to a kiln module file ------*- C++ -*-===//

#ifndef KILN_MODULE_SERIALIZEMODULE_H_
#define KILN_MODULE_SERIALIZEMODULE_H_

#include "Module/EmbeddedSources.h"
#include "Target/CPU/LibraryBuilder.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::kiln {

struct SerializeOptions {
  /// Name of the module (the input file's stem).
  std::string moduleName;
  /// --executable-debug-level: 0 names only, 1 + input locations,
  /// 2 + provenance, 3 + captured stage texts and their locations.
  int debugLevel = 2;
  /// Names of the stages captured at level 3, in pipeline order.
  std::vector<std::string> captureStages;
};

/// Writes the FlatBuffer module (schema/module.fbs): the host functions of
/// `moduleOp` as slot programs, its constants, a code variant per library of
/// `libraries` (in order of preference: its executables, whose code the
/// library holds; a module without executables has variants but no
/// libraries), and the debug information of the chosen level (the
/// source table of `sources`: each distinct text once, sorted by path).
LogicalResult serializeModule(ModuleOp moduleOp, ArrayRef<CPULibrary> libraries,
                              const SerializeOptions &options,
                              EmbeddedSources &sources, llvm::raw_ostream &os);

} // namespace mlir::kiln

#endif // KILN_MODULE_SERIALIZEMODULE_H_
