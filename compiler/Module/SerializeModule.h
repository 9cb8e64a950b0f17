//===- SerializeModule.h - compiled IR to a kiln module file ------*- C++ -*-===//

#ifndef KILN_MODULE_SERIALIZEMODULE_H_
#define KILN_MODULE_SERIALIZEMODULE_H_

#include "Target/CPU/LibraryBuilder.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::kiln {

struct SerializeOptions {
  /// Name of the module (the input file's stem).
  std::string moduleName;
};

/// Writes the FlatBuffer module (schema/module.fbs): the host functions of
/// `moduleOp` as slot programs, its constants, its executables and `library`
/// which holds their code.
LogicalResult serializeModule(ModuleOp moduleOp, const CPULibrary &library,
                              const SerializeOptions &options,
                              llvm::raw_ostream &os);

}  // namespace mlir::kiln

#endif  // KILN_MODULE_SERIALIZEMODULE_H_
