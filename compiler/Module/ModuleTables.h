//===- ModuleTables.h - the tables host functions index into ------*- C++ -*-===//
//
// The tables of a module's FlatBuffer (schema/module.fbs) that its host
// functions refer to by index: its constants, each written once, and its
// executables with their exports; and the tensor types of host values.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_MODULE_MODULETABLES_H_
#define KILN_MODULE_MODULETABLES_H_

#include "Module/DebugInfoWriter.h"
#include "Target/CPU/LibraryBuilder.h"
#include "kiln/module_generated.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace mlir::kiln {

/// Bytes the module's FlatBuffer starts with: its host functions' constants
/// and its libraries, plus room for the tables. Reserved whole, a large
/// model's weights are written once, not copied each time the buffer would
/// grow (to twice their size).
size_t estimateModuleBytes(ModuleOp moduleOp, ArrayRef<CPULibrary> libraries);

/// The constants, executables and tensor types of one module, written into
/// its builder as they are first asked for.
class ModuleTables {
public:
  explicit ModuleTables(flatbuffers::FlatBufferBuilder &builder)
      : builder(builder) {}

  /// The TensorType of a host value of `type`; an error at `loc` for a type
  /// a module cannot store.
  FailureOr<flatbuffers::Offset<::kiln::fb::TensorType>>
  serializeType(Location loc, Type type);

  /// Fails, at `loc`, when `bytes` more (and alignment) would take the
  /// module past the 2 GiB FlatBuffers addresses: the runtime refuses such
  /// a module, and the builder cannot grow past it.
  LogicalResult checkRoomFor(Location loc, size_t bytes, StringRef what);

  /// The index of constant `value`, written on first use.
  FailureOr<uint32_t> getConstant(Location loc, ElementsAttr value);

  /// Writes a code variant for each of `libraries` (Module.libraries, in
  /// that order): the executables of `moduleOp` in their variant of the
  /// library's name, with their exports (each with the ordinal of its code
  /// in that library and its debug information from `debugInfo`); and
  /// assigns the executables and exports their module indices, which every
  /// variant shares.
  LogicalResult indexExecutables(ModuleOp moduleOp,
                                 ArrayRef<CPULibrary> libraries,
                                 DebugInfoWriter &debugInfo);

  /// The (executable index, export index) of export `exportName` of
  /// `executable`, once indexExecutables assigned them.
  std::optional<std::pair<uint32_t, uint32_t>>
  lookupExport(StringRef executable, StringRef exportName) const;

  const std::vector<flatbuffers::Offset<::kiln::fb::CodeVariant>> &
  getVariants() const {
    return variants;
  }
  const std::vector<flatbuffers::Offset<::kiln::fb::Constant>> &
  getConstants() const {
    return constants;
  }

private:
  /// One export of a variant, its code at library ordinal `ordinal`.
  FailureOr<flatbuffers::Offset<::kiln::fb::Export>>
  serializeExport(ExecutableExportOp exportOp, uint32_t ordinal,
                  DebugInfoWriter &debugInfo);

  flatbuffers::FlatBufferBuilder &builder;
  std::vector<flatbuffers::Offset<::kiln::fb::CodeVariant>> variants;
  std::vector<flatbuffers::Offset<::kiln::fb::Constant>> constants;
  DenseMap<Attribute, uint32_t> constantIndices;
  /// "executable::export" -> (executable index, export index).
  llvm::StringMap<std::pair<uint32_t, uint32_t>> exportIndices;
};

} // namespace mlir::kiln

#endif // KILN_MODULE_MODULETABLES_H_
