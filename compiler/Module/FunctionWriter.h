//===- FunctionWriter.h - host functions as slot programs ---------*- C++ -*-===//
//
// Encodes a host function (host ops, with their buffers planned) as the
// slot program a module stores (schema/module.fbs, Function): its values as
// slots and index registers, its ops as instructions.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_MODULE_FUNCTIONWRITER_H_
#define KILN_MODULE_FUNCTIONWRITER_H_

#include "Module/ModuleTables.h"
#include "kiln/module_generated.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::kiln {

/// Writes `funcOp` into `builder`; its constants, dispatched exports and
/// value types go through `tables`.
FailureOr<flatbuffers::Offset<::kiln::fb::Function>>
writeFunction(func::FuncOp funcOp, ModuleTables &tables,
              flatbuffers::FlatBufferBuilder &builder);

} // namespace mlir::kiln

#endif // KILN_MODULE_FUNCTIONWRITER_H_
