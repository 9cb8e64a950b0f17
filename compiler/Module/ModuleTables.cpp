//===- ModuleTables.cpp - the tables host functions index into ------------===//

#include "Module/ModuleTables.h"

#include "Dialect/Host/IR/HostOps.h"
#include "Target/CPU/ElementType.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::kiln {

namespace {

namespace fb = ::kiln::fb;

/// Largest constant a module holds (FlatBuffers addresses 2 GiB in all).
constexpr int64_t kMaxConstantBytes = int64_t(1) << 30;

/// Bytes a constant of `type` takes in a module, or nullopt beyond what a
/// module stores.
std::optional<int64_t> getConstantByteSize(ShapedType type) {
  int64_t elementBytes = host::getStorageElementBytes(type.getElementType());
  int64_t count = type.getNumElements();
  if (count > kMaxConstantBytes / elementBytes)
    return std::nullopt;
  return count * elementBytes;
}

/// Writes the dense row-major bytes of a constant, i1 as one byte per
/// element, into `bytes` (of getConstantByteSize's size).
LogicalResult writeConstantBytes(Location loc, ElementsAttr elements,
                                 MutableArrayRef<uint8_t> bytes) {
  auto type = cast<ShapedType>(elements.getType());
  Type elementType = type.getElementType();
  int64_t elementBytes = host::getStorageElementBytes(elementType);
  int64_t count = type.getNumElements();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "constant resource has no data";
    ArrayRef<char> data = blob->getData();
    if (elementType.isInteger(1) || data.size() != bytes.size())
      return emitError(loc) << "constant resource of " << data.size()
                            << " bytes does not match " << type;
    std::memcpy(bytes.data(), data.data(), data.size());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(elements);
  if (!dense)
    return emitError(loc) << "unsupported constant kind";
  if (elementType.isInteger(1)) {
    for (auto [i, value] : llvm::enumerate(dense.getValues<bool>()))
      bytes[i] = value ? 1 : 0;
    return success();
  }
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(bytes.data() + i * elementBytes, raw.data(), elementBytes);
  } else {
    std::memcpy(bytes.data(), raw.data(), bytes.size());
  }
  return success();
}

/// The key of an export in the maps from export to index or ordinal.
std::string exportKey(StringRef executable, StringRef exportName) {
  return (executable + "::" + exportName).str();
}

/// The flat (a, b, c) triples of `attr` as schema structs of three fields.
template <typename Triple>
std::vector<Triple> toTriples(DenseI64ArrayAttr attr) {
  std::vector<Triple> triples;
  if (!attr)
    return triples;
  ArrayRef<int64_t> values = attr.asArrayRef();
  for (size_t i = 0; i + 2 < values.size(); i += 3)
    triples.emplace_back(static_cast<uint32_t>(values[i]),
                         static_cast<uint32_t>(values[i + 1]),
                         static_cast<uint32_t>(values[i + 2]));
  return triples;
}

} // namespace

size_t estimateModuleBytes(ModuleOp moduleOp, ArrayRef<CPULibrary> libraries) {
  size_t bytes = size_t(1) << 20;
  for (const CPULibrary &library : libraries)
    bytes += library.bytes.size();
  for (auto funcOp : moduleOp.getOps<func::FuncOp>())
    funcOp.walk([&](Operation *op) {
      for (NamedAttribute attr : op->getAttrs())
        if (auto elements = dyn_cast<ElementsAttr>(attr.getValue()))
          if (std::optional<int64_t> size =
                  getConstantByteSize(cast<ShapedType>(elements.getType())))
            bytes += *size + 64;
    });
  return std::min<size_t>(bytes, FLATBUFFERS_MAX_BUFFER_SIZE);
}

LogicalResult ModuleTables::indexExecutables(ModuleOp moduleOp,
                                             ArrayRef<CPULibrary> libraries,
                                             DebugInfoWriter &debugInfo) {
  for (auto [libraryIndex, library] : llvm::enumerate(libraries)) {
    llvm::StringMap<uint32_t> ordinals;
    for (const LibraryExport &entry : library.exports)
      ordinals[exportKey(entry.executable, entry.name)] = entry.ordinal;
    std::vector<flatbuffers::Offset<fb::Executable>> executables;
    for (auto executableOp : moduleOp.getOps<ExecutableOp>()) {
      auto variants = executableOp.getBlock().getOps<ExecutableVariantOp>();
      auto variantOp = llvm::find_if(variants, [&](ExecutableVariantOp op) {
        return op.getSymName() == library.variantName;
      });
      if (variantOp == variants.end())
        return executableOp.emitError("executable has no variant '")
               << library.variantName << "'";
      std::vector<flatbuffers::Offset<fb::Export>> exports;
      for (auto [index, exportOp] :
           llvm::enumerate((*variantOp).getExportOps())) {
        std::string key =
            exportKey(executableOp.getSymName(), exportOp.getSymName());
        auto ordinal = ordinals.find(key);
        if (ordinal == ordinals.end())
          return exportOp.emitError("export is missing from the library");
        // Dispatches name an export by indices that every variant shares.
        std::pair<uint32_t, uint32_t> indices = {
            static_cast<uint32_t>(executables.size()),
            static_cast<uint32_t>(index)};
        auto [known, inserted] = exportIndices.try_emplace(key, indices);
        if (!inserted && known->second != indices)
          return exportOp.emitError(
              "export is not where the other variants have it");
        FailureOr<flatbuffers::Offset<fb::Export>> serialized =
            serializeExport(exportOp, ordinal->second, debugInfo);
        if (failed(serialized))
          return failure();
        exports.push_back(*serialized);
      }
      executables.push_back(fb::CreateExecutable(
          builder, builder.CreateString(executableOp.getSymName().str()),
          static_cast<uint32_t>(libraryIndex), builder.CreateVector(exports)));
    }
    variants.push_back(fb::CreateCodeVariant(
        builder, builder.CreateString(library.variantName),
        builder.CreateVector(executables)));
  }
  return success();
}

FailureOr<flatbuffers::Offset<fb::Export>>
ModuleTables::serializeExport(ExecutableExportOp exportOp, uint32_t ordinal,
                              DebugInfoWriter &debugInfo) {
  std::vector<uint32_t> workgroupCount = {1, 1, 1};
  if (auto count = exportOp.getWorkgroupCountAttr())
    for (auto [i, value] : llvm::enumerate(count.asArrayRef()))
      if (i < 3)
        workgroupCount[i] = static_cast<uint32_t>(value);
  FailureOr<DebugInfoWriter::ExportDebugInfo> exportDebugInfo =
      debugInfo.serializeExportDebugInfo(exportOp);
  if (failed(exportDebugInfo))
    return failure();
  std::vector<flatbuffers::Offset<fb::TensorType>> bindingTypes;
  if (ArrayAttr types = exportOp.getBindingTypesAttr())
    for (Attribute type : types) {
      FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
          serializeType(exportOp.getLoc(), cast<TypeAttr>(type).getValue());
      if (failed(serialized))
        return failure();
      bindingTypes.push_back(*serialized);
    }
  std::vector<uint32_t> equalConstants;
  if (auto pairs = exportOp.getEqualConstantsAttr())
    for (int64_t constant : pairs.asArrayRef())
      equalConstants.push_back(static_cast<uint32_t>(constant));
  std::vector<fb::WorkgroupTile> workgroupTiles =
      toTriples<fb::WorkgroupTile>(exportOp.getWorkgroupTilesAttr());
  std::vector<fb::CoveringTiles> coveringTiles =
      toTriples<fb::CoveringTiles>(exportOp.getCoveringTilesAttr());
  return fb::CreateExport(
      builder, builder.CreateString(exportOp.getSymName().str()), ordinal,
      static_cast<uint32_t>(exportOp.getBindings().getZExtValue()),
      builder.CreateVector(workgroupCount), builder.CreateVector(bindingTypes),
      exportDebugInfo->location, exportDebugInfo->provenance,
      exportDebugInfo->stageLocations,
      workgroupTiles.empty() ? 0
                             : builder.CreateVectorOfStructs(workgroupTiles),
      equalConstants.empty() ? 0 : builder.CreateVector(equalConstants),
      exportOp.getIndexConstantsAttr()
          ? static_cast<uint32_t>(exportOp.getIndexConstantsAttr().getInt())
          : 0,
      coveringTiles.empty() ? 0 : builder.CreateVectorOfStructs(coveringTiles));
}

FailureOr<flatbuffers::Offset<fb::TensorType>>
ModuleTables::serializeType(Location loc, Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return emitError(loc) << "host value of type " << type
                          << " is not a ranked tensor";
  FailureOr<fb::ElementType> elementType =
      getModuleElementType(loc, tensorType.getElementType());
  if (failed(elementType))
    return failure();
  return fb::CreateTensorType(builder, *elementType,
                              builder.CreateVector(getModuleShape(tensorType)));
}

LogicalResult ModuleTables::checkRoomFor(Location loc, size_t bytes,
                                         StringRef what) {
  constexpr size_t kAlignmentSlack = 64;
  if (builder.GetSize() + bytes + kAlignmentSlack < FLATBUFFERS_MAX_BUFFER_SIZE)
    return success();
  return emitError(loc) << "the module would exceed 2 GiB, the most a "
                           "kiln module holds, with "
                        << what << " (" << bytes << " bytes after "
                        << builder.GetSize() << ")";
}

FailureOr<uint32_t> ModuleTables::getConstant(Location loc,
                                              ElementsAttr value) {
  auto it = constantIndices.find(value);
  if (it != constantIndices.end())
    return it->second;
  // Checked before the bytes are made: they may be a GiB. A constant
  // past the per-constant limit is refused by getConstantBytes.
  auto shapedType = cast<ShapedType>(value.getType());
  int64_t elementBytes =
      host::getStorageElementBytes(shapedType.getElementType());
  if (shapedType.getNumElements() <= kMaxConstantBytes / elementBytes &&
      failed(checkRoomFor(loc, shapedType.getNumElements() * elementBytes,
                          "this constant")))
    return failure();
  std::optional<int64_t> size = getConstantByteSize(shapedType);
  if (!size)
    return emitError(loc) << "constant of type " << shapedType
                          << " holds more than " << kMaxConstantBytes
                          << " bytes, beyond what a module stores";
  FailureOr<flatbuffers::Offset<fb::TensorType>> type =
      serializeType(loc, value.getType());
  if (failed(type))
    return failure();
  // Written in place: a weight is not copied on its way in.
  builder.ForceVectorAlignment(*size, 1, 64);
  uint8_t *buffer = nullptr;
  flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data =
      builder.CreateUninitializedVector(*size, 1, &buffer);
  if (failed(writeConstantBytes(loc, value,
                                MutableArrayRef<uint8_t>(buffer, *size))))
    return failure();
  uint32_t index = constants.size();
  constants.push_back(fb::CreateConstant(builder, *type, data));
  constantIndices[value] = index;
  return index;
}

std::optional<std::pair<uint32_t, uint32_t>>
ModuleTables::lookupExport(StringRef executable, StringRef exportName) const {
  auto it = exportIndices.find(exportKey(executable, exportName));
  if (it == exportIndices.end())
    return std::nullopt;
  return it->second;
}

} // namespace mlir::kiln
