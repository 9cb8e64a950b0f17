//===- SerializeModule.cpp - compiled IR to a kiln module file ------------===//
//
// Writes what the IR says: host functions (host ops, with their buffers
// planned) instruction by instruction as slot programs (schema/module.fbs),
// constants once each, executables and their debug information, the
// library, and the source table.
//
//===----------------------------------------------------------------------===//

#include "Module/SerializeModule.h"

#include "Capture/InputFiles.h"
#include "Dialect/Host/IR/HostOps.h"
#include "Dialect/Kiln/IR/InputNodes.h"
#include "Dialect/Kiln/IR/InputOps.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "Module/ElementType.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/xxhash.h"

#include <zstd.h>

#include <map>
#include <set>

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

/// Bytes the module's FlatBuffer starts with: its host functions' constants
/// and its library, plus room for the tables. Reserved whole, a large
/// model's weights are written once, not copied each time the buffer would
/// grow (to twice their size).
size_t estimateModuleBytes(ModuleOp moduleOp, const CPULibrary &library) {
  size_t bytes = library.bytes.size() + (size_t(1) << 20);
  for (auto funcOp : moduleOp.getOps<func::FuncOp>())
    funcOp.walk([&](Operation *op) {
      for (NamedAttribute attr : op->getAttrs())
        if (auto elements = dyn_cast<ElementsAttr>(attr.getValue()))
          if (std::optional<int64_t> size = getConstantByteSize(
                  cast<ShapedType>(elements.getType())))
            bytes += *size + 64;
    });
  return std::min<size_t>(bytes, FLATBUFFERS_MAX_BUFFER_SIZE);
}

/// zstd level for embedded sources: zstd's default (3), as compiling at
/// --executable-debug-level=3 should cost little more than at 2. On the 600
/// stage texts of bench/capture's program (6.4 MB) level 3 compresses at
/// 490 MB/s to 1.11 MB; level 8 at 116 MB/s to 0.99 MB (1.7% of the
/// compiler's instructions there, for 0.7% of the module's size); level 15
/// is 4% smaller again at 10 times level 8's time.
constexpr int kSourceCompressionLevel = ZSTD_CLEVEL_DEFAULT;

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

class ModuleSerializer {
public:
  ModuleSerializer(ModuleOp moduleOp, const CPULibrary &library,
                   const SerializeOptions &options, EmbeddedSources &sources)
      : moduleOp(moduleOp), library(library), options(options),
        sources(sources), inputOps(moduleOp),
        builder(estimateModuleBytes(moduleOp, library)) {}

  LogicalResult serialize(llvm::raw_ostream &os) {
    if (options.debugLevel >= 3)
      collectCapturedStages();
    // The table is sorted by path; exports refer to files by that order.
    for (auto [index, file] : llvm::enumerate(sources.getFiles()))
      sourceIndices[file.path] = index;
    if (failed(indexExecutables()))
      return failure();
    std::vector<flatbuffers::Offset<fb::Function>> functions;
    for (auto funcOp : moduleOp.getOps<func::FuncOp>()) {
      if (!funcOp.isPublic())
        continue;
      FailureOr<flatbuffers::Offset<fb::Function>> function =
          serializeFunction(funcOp);
      if (failed(function))
        return failure();
      functions.push_back(*function);
    }
    if (failed(checkRoomFor(moduleOp.getLoc(), library.bytes.size(),
                            "its code library")))
      return failure();
    auto libraryData = builder.CreateVector(
        reinterpret_cast<const uint8_t *>(library.bytes.data()),
        library.bytes.size());
    const uint64_t libraryHash = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(library.bytes.data()),
        library.bytes.size()));
    collectInputFiles();
    auto libraryLines = serializeLibraryLines();
    std::vector<flatbuffers::Offset<fb::Library>> libraries = {
        fb::CreateLibrary(
            builder, builder.CreateString(KILN_LIBRARY_FORMAT_ELF_X86_64),
            builder.CreateString(library.cpu), libraryData, libraryHash,
            builder.CreateVectorOfStrings(library.cpuFeatures), libraryLines)};
    auto [sourceFiles, sourceContents] = serializeSourceTable();
    std::vector<flatbuffers::Offset<flatbuffers::String>> stageNames;
    for (const std::string &stage : capturedStages())
      stageNames.push_back(builder.CreateString(stage));
    auto root = fb::CreateModule(
        builder, KILN_MODULE_VERSION, builder.CreateString(options.moduleName),
        builder.CreateVector(functions), builder.CreateVector(executables),
        builder.CreateVector(libraries), builder.CreateVector(constants),
        options.debugLevel, builder.CreateVector(stageNames), sourceFiles,
        sourceContents, builder.CreateVectorOfStrings(inputFiles));
    builder.Finish(root, KILN_MODULE_IDENTIFIER);
    if (failed(checkRoomFor(moduleOp.getLoc(), 0, "its tables")))
      return failure();
    os.write(reinterpret_cast<const char *>(builder.GetBufferPointer()),
             builder.GetSize());
    return success();
  }

private:
  //===--------------------------------------------------------------------===//
  // Debug information
  //===--------------------------------------------------------------------===//

  struct ExportDebugInfo {
    flatbuffers::Offset<fb::SourceLocation> location;
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::FusedOp>>>
        provenance;
    flatbuffers::Offset<
        flatbuffers::Vector<flatbuffers::Offset<fb::StageLocation>>>
        stageLocations;
  };

  /// The captured stages in pipeline order: those requested that some
  /// export recorded a location in.
  std::vector<std::string> capturedStages() const {
    std::vector<std::string> stages;
    for (const std::string &stage : options.captureStages)
      if (stagesSeen.count(stage))
        stages.push_back(stage);
    return stages;
  }

  /// Notes the stages that exports recorded a location in.
  void collectCapturedStages() {
    moduleOp.walk([&](ExecutableExportOp exportOp) {
      if (auto locs =
              exportOp->getAttrOfType<DictionaryAttr>(kSourceLocsAttrName))
        for (NamedAttribute entry : locs)
          stagesSeen.insert(entry.getName().getValue().str());
    });
  }

  flatbuffers::Offset<fb::SourceLocation>
  serializeLocation(FileLineColLoc loc) {
    return fb::CreateSourceLocation(
        builder, builder.CreateString(getStoredPath(loc.getFilename())),
        loc.getLine(), loc.getColumn());
  }

  FailureOr<ExportDebugInfo>
  serializeExportDebugInfo(ExecutableExportOp exportOp) {
    ExportDebugInfo info;
    if (options.debugLevel >= 1)
      if (std::optional<FileLineColLoc> loc = findFileLoc(exportOp.getLoc()))
        info.location = serializeLocation(*loc);
    if (options.debugLevel >= 2) {
      std::vector<flatbuffers::Offset<fb::FusedOp>> fusedOps;
      auto sites =
          exportOp->getAttrOfType<DenseI32ArrayAttr>(kProvenanceSitesAttrName);
      auto kernelOps = exportOp->getAttrOfType<DenseI32ArrayAttr>(
          kProvenanceKernelOpsAttrName);
      if (auto provenance =
              exportOp->getAttrOfType<ArrayAttr>(kProvenanceAttrName))
        for (auto [index, entry] : llvm::enumerate(provenance)) {
          auto nameLoc = dyn_cast<NameLoc>(entry);
          std::optional<FileLineColLoc> loc =
              nameLoc ? findFileLoc(nameLoc.getChildLoc()) : std::nullopt;
          if (!loc)
            continue;
          flatbuffers::Offset<fb::InputNode> node;
          if (std::optional<InputNode> inputNode =
                  findInputNode(nameLoc.getChildLoc()))
            node = fb::CreateInputNode(
                builder, builder.CreateString(inputNode->name.str()),
                builder.CreateString(inputNode->opType.str()),
                builder.CreateString(inputNode->scope.str()),
                builder.CreateString(inputNode->source.str()));
          // The op's last line, where its text spans more than one.
          std::optional<InputOp> inputOp = inputOps.lookup(*loc);
          uint32_t lastLine = inputOp && inputOp->lastLine > loc->getLine()
                                  ? inputOp->lastLine
                                  : 0;
          uint32_t site = sites && index < sites.size() ? sites[index] : 0;
          uint32_t kernelOp =
              kernelOps && index < kernelOps.size() ? kernelOps[index] : 0;
          fusedOps.push_back(fb::CreateFusedOp(
              builder, builder.CreateString(nameLoc.getName().str()),
              serializeLocation(*loc), node, lastLine, site, kernelOp));
        }
      info.provenance = builder.CreateVector(fusedOps);
    }
    if (options.debugLevel >= 3) {
      std::vector<std::string> stages = capturedStages();
      std::vector<flatbuffers::Offset<fb::StageLocation>> locations;
      auto locs = exportOp->getAttrOfType<DictionaryAttr>(kSourceLocsAttrName);
      for (auto [stageIndex, stage] : llvm::enumerate(stages)) {
        auto loc = locs ? dyn_cast_if_present<FileLineColLoc>(locs.get(stage))
                        : FileLineColLoc();
        if (!loc)
          continue;
        auto source = sourceIndices.find(loc.getFilename());
        if (source == sourceIndices.end())
          return exportOp.emitError()
                 << "stage location names source '" << loc.getFilename()
                 << "' that was not captured";
        locations.push_back(fb::CreateStageLocation(
            builder, stageIndex, source->second, loc.getLine()));
      }
      info.stageLocations = builder.CreateVector(locations);
    }
    return info;
  }

  /// Writes the source table: each distinct text once (zstd when smaller),
  /// files sorted by path.
  std::pair<flatbuffers::Offset<
                flatbuffers::Vector<flatbuffers::Offset<fb::SourceFile>>>,
            flatbuffers::Offset<
                flatbuffers::Vector<flatbuffers::Offset<fb::SourceContent>>>>
  serializeSourceTable() {
    ArrayRef<EmbeddedSources::Content> distinct = sources.getContents();
    std::vector<flatbuffers::Offset<fb::SourceContent>> contents;
    std::vector<flatbuffers::Offset<fb::SourceFile>> files;
    for (const EmbeddedSources::File &file : sources.getFiles()) {
      // Contents are numbered in order of their first file.
      if (file.content == contents.size())
        contents.push_back(serializeContent(distinct[file.content]));
      auto [previous, origins] = serializeLineOrigins(file);
      files.push_back(fb::CreateSourceFile(builder,
                                           builder.CreateString(file.path),
                                           file.content, previous, origins));
    }
    return {builder.CreateVector(files), builder.CreateVector(contents)};
  }

  /// Every input file that the texts' line origins name, by its stored
  /// path, sorted; numbers them for serializeLineOrigins.
  void collectInputFiles() {
    std::set<std::string> paths;
    for (const EmbeddedSources::File &file : sources.getFiles())
      if (file.lineOrigins)
        if (auto names =
                file.lineOrigins.getAs<ArrayAttr>(kLineOriginsInputFilesName))
          for (auto name : names.getAsValueRange<StringAttr>())
            paths.insert(getStoredPath(name));
    // The files the line tables point into that the module does not embed
    // (the input, below level 3).
    for (const std::string &path : library.lines.paths)
      if (!sourceIndices.count(getStoredPath(path)))
        paths.insert(getStoredPath(path));
    for (const std::string &path : paths) {
      inputFileIndices[path] = inputFiles.size();
      inputFiles.push_back(path);
    }
  }

  /// The text `file`'s stage came after (KILN_NO_SOURCE if none) and its
  /// line origin rows, numbered as the module numbers sources and input
  /// files. Rows a text cannot hold (a line past its end, from a pass that
  /// tagged what the printer did not print) are left out.
  std::pair<uint32_t,
            flatbuffers::Offset<flatbuffers::Vector<const fb::LineOrigin *>>>
  serializeLineOrigins(const EmbeddedSources::File &file) {
    if (!file.lineOrigins)
      return {KILN_NO_SOURCE, 0};
    ArrayRef<EmbeddedSources::Content> contents = sources.getContents();
    auto lineCount = [&](uint32_t source) {
      return contents[sources.getFiles()[source].content].lineCount;
    };
    uint32_t previous = KILN_NO_SOURCE, previousLines = 0;
    if (auto path =
            file.lineOrigins.getAs<StringAttr>(kLineOriginsPreviousName)) {
      auto it = sourceIndices.find(path.getValue());
      if (it != sourceIndices.end()) {
        previous = it->second;
        previousLines = lineCount(previous);
      }
    }
    SmallVector<uint32_t> inputIndices;
    if (auto names =
            file.lineOrigins.getAs<ArrayAttr>(kLineOriginsInputFilesName))
      for (auto name : names.getAsValueRange<StringAttr>())
        inputIndices.push_back(inputFileIndices.lookup(getStoredPath(name)));
    auto rows = file.lineOrigins.getAs<DenseI32ArrayAttr>(kLineOriginsRowsName);
    const uint32_t lines = lineCount(sourceIndices.lookup(file.path));
    std::vector<fb::LineOrigin> origins;
    for (int64_t i = 0; rows && i + 4 <= rows.size(); i += 4) {
      auto line = static_cast<uint32_t>(rows[i]);
      auto previousLine = static_cast<uint32_t>(rows[i + 1]);
      auto inputFile = static_cast<uint32_t>(rows[i + 2]);
      auto inputLine = static_cast<uint32_t>(rows[i + 3]);
      if (line == 0 || line > lines || previousLine > previousLines)
        continue;
      if (inputLine == 0 || inputFile >= inputIndices.size())
        inputFile = inputLine = 0;
      else
        inputFile = inputIndices[inputFile];
      origins.emplace_back(line, previousLine, inputFile, inputLine);
    }
    auto key = [](const fb::LineOrigin &row) {
      return std::make_tuple(row.line(), row.previous_line(), row.input_file(),
                             row.input_line());
    };
    llvm::sort(origins, [&](const fb::LineOrigin &a, const fb::LineOrigin &b) {
      return key(a) < key(b);
    });
    origins.erase(
        std::unique(origins.begin(), origins.end(),
                    [&](const fb::LineOrigin &a, const fb::LineOrigin &b) {
                      return key(a) == key(b);
                    }),
        origins.end());
    return {previous, builder.CreateVectorOfStructs(origins)};
  }

  flatbuffers::Offset<fb::SourceContent>
  serializeContent(const EmbeddedSources::Content &content) {
    const uint32_t lineCount = content.lineCount;
    if (!content.compressed.empty())
      return fb::CreateSourceContent(
          builder, fb::Compression::Zstd, content.text.size(), content.hash,
          builder.CreateVector(content.compressed), lineCount);
    return fb::CreateSourceContent(
        builder, fb::Compression::None, content.text.size(), content.hash,
        builder.CreateVector(
            reinterpret_cast<const uint8_t *>(content.text.data()),
            content.text.size()),
        lineCount);
  }

  /// The library's address -> line rows with each file the line table names
  /// resolved to its index in the source table; a line of a file the module
  /// does not embed, or past the end of the text it embeds (an input
  /// location may name any line), is an unknown line (0) of its export.
  flatbuffers::Offset<flatbuffers::Vector<const fb::LibraryLine *>>
  serializeLibraryLines() {
    ArrayRef<EmbeddedSources::Content> contents = sources.getContents();
    std::vector<std::optional<std::pair<uint32_t, uint32_t>>> pathSources;
    // For a path the module does not embed: its input file, whose length
    // the module does not know.
    std::vector<std::optional<uint32_t>> pathInputFiles;
    for (const std::string &path : library.lines.paths) {
      auto it = sourceIndices.find(path);
      if (it == sourceIndices.end()) {
        pathSources.push_back(std::nullopt);
        auto input = inputFileIndices.find(getStoredPath(path));
        pathInputFiles.push_back(
            input == inputFileIndices.end()
                ? std::nullopt
                : std::optional<uint32_t>(KILN_LIBRARY_LINE_INPUT_FILE |
                                          input->second));
        continue;
      }
      pathInputFiles.push_back(std::nullopt);
      uint32_t content = sources.getFiles()[it->second].content;
      pathSources.push_back(
          std::make_pair(it->second, contents[content].lineCount));
    }
    std::vector<fb::LibraryLine> rows;
    for (const LibraryLineRow &row : library.lines.rows) {
      std::optional<std::pair<uint32_t, uint32_t>> file =
          row.path >= 0 ? pathSources[row.path] : std::nullopt;
      std::optional<uint32_t> source;
      if (file && row.line <= file->second)
        source = file->first;
      if (row.path >= 0 && pathInputFiles[row.path])
        source = pathInputFiles[row.path];
      fb::LibraryLine entry(row.offset, row.ordinal, source.value_or(0),
                            source ? row.line : 0);
      // Rows that the unknown files made equal merge.
      if (!rows.empty() &&
          rows.back().export_ordinal() == entry.export_ordinal() &&
          rows.back().source() == entry.source() &&
          rows.back().line() == entry.line())
        continue;
      rows.push_back(entry);
    }
    return builder.CreateVectorOfStructs(rows);
  }

  /// Assigns module indices to executables and exports.
  LogicalResult indexExecutables() {
    llvm::StringMap<uint32_t> ordinals;
    for (const LibraryExport &entry : library.exports)
      ordinals[exportKey(entry.executable, entry.name)] = entry.ordinal;
    for (auto executableOp : moduleOp.getOps<ExecutableOp>()) {
      auto variants = executableOp.getBlock().getOps<ExecutableVariantOp>();
      if (variants.empty())
        return executableOp.emitError("executable has no variant");
      ExecutableVariantOp variantOp = *variants.begin();
      std::vector<flatbuffers::Offset<fb::Export>> exports;
      for (auto [index, exportOp] : llvm::enumerate(variantOp.getExportOps())) {
        std::string key =
            exportKey(executableOp.getSymName(), exportOp.getSymName());
        auto it = ordinals.find(key);
        if (it == ordinals.end())
          return exportOp.emitError("export is missing from the library");
        std::vector<uint32_t> workgroupCount = {1, 1, 1};
        if (auto count = exportOp.getWorkgroupCountAttr())
          for (auto [i, value] : llvm::enumerate(count.asArrayRef()))
            if (i < 3)
              workgroupCount[i] = static_cast<uint32_t>(value);
        FailureOr<ExportDebugInfo> debugInfo =
            serializeExportDebugInfo(exportOp);
        if (failed(debugInfo))
          return failure();
        std::vector<flatbuffers::Offset<fb::TensorType>> bindingTypes;
        if (ArrayAttr types = exportOp.getBindingTypesAttr())
          for (Attribute type : types) {
            FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
                serializeType(exportOp.getLoc(),
                              cast<TypeAttr>(type).getValue());
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
        exports.push_back(fb::CreateExport(
            builder, builder.CreateString(exportOp.getSymName().str()),
            it->second,
            static_cast<uint32_t>(exportOp.getBindings().getZExtValue()),
            builder.CreateVector(workgroupCount),
            builder.CreateVector(bindingTypes), debugInfo->location,
            debugInfo->provenance, debugInfo->stageLocations,
            workgroupTiles.empty()
                ? 0
                : builder.CreateVectorOfStructs(workgroupTiles),
            equalConstants.empty() ? 0 : builder.CreateVector(equalConstants),
            exportOp.getIndexConstantsAttr()
                ? static_cast<uint32_t>(
                      exportOp.getIndexConstantsAttr().getInt())
                : 0,
            coveringTiles.empty()
                ? 0
                : builder.CreateVectorOfStructs(coveringTiles)));
        exportIndices[key] = {static_cast<uint32_t>(executables.size()),
                              static_cast<uint32_t>(index)};
      }
      executables.push_back(fb::CreateExecutable(
          builder, builder.CreateString(executableOp.getSymName().str()),
          /*library=*/0, builder.CreateVector(exports)));
    }
    return success();
  }

  FailureOr<flatbuffers::Offset<fb::TensorType>> serializeType(Location loc,
                                                               Type type) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return emitError(loc)
             << "host value of type " << type << " is not a ranked tensor";
    FailureOr<fb::ElementType> elementType =
        getModuleElementType(loc, tensorType.getElementType());
    if (failed(elementType))
      return failure();
    return fb::CreateTensorType(
        builder, *elementType,
        builder.CreateVector(getModuleShape(tensorType)));
  }

  /// Fails, at `loc`, when `bytes` more (and alignment) would take the
  /// module past the 2 GiB FlatBuffers addresses: the runtime refuses such
  /// a module, and the builder cannot grow past it.
  LogicalResult checkRoomFor(Location loc, size_t bytes, StringRef what) {
    constexpr size_t kAlignmentSlack = 64;
    if (builder.GetSize() + bytes + kAlignmentSlack <
        FLATBUFFERS_MAX_BUFFER_SIZE)
      return success();
    return emitError(loc) << "the module would exceed 2 GiB, the most a "
                             "kiln module holds, with "
                          << what << " (" << bytes << " bytes after "
                          << builder.GetSize() << ")";
  }

  FailureOr<uint32_t> getConstant(Location loc, ElementsAttr value) {
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
    if (failed(writeConstantBytes(
            loc, value, MutableArrayRef<uint8_t>(buffer, *size))))
      return failure();
    uint32_t index = constants.size();
    constants.push_back(fb::CreateConstant(builder, *type, data));
    constantIndices[value] = index;
    return index;
  }

  FailureOr<flatbuffers::Offset<fb::Function>>
  serializeFunction(func::FuncOp funcOp) {
    FunctionWriter writer(*this, funcOp);
    return writer.write();
  }

  /// Writes one host function as its host ops say: every tensor value a
  /// slot, numbered in order of definition; the buffers in the order of
  /// their host.buffer ops; each block's ops in order, a host.br's operands
  /// viewed by its destination's arguments (one after the other: host.br
  /// passes no argument of its destination) before the branch.
  class FunctionWriter {
  public:
    FunctionWriter(ModuleSerializer &module, func::FuncOp funcOp)
        : module(module), builder(module.builder), funcOp(funcOp) {}

    FailureOr<flatbuffers::Offset<fb::Function>> write() {
      for (Block &block : funcOp.getBody()) {
        for (BlockArgument arg : block.getArguments())
          if (failed(newSlot(funcOp.getLoc(), arg)))
            return failure();
        for (Operation &op : block)
          for (Value result : op.getResults()) {
            if (result.getType().isIndex())
              registers[result] = registerCount++;
            else if (!isa<host::BufferType>(result.getType()) &&
                     failed(newSlot(op.getLoc(), result)))
              return failure();
          }
      }
      std::vector<uint32_t> arguments;
      for (BlockArgument arg : funcOp.getArguments())
        arguments.push_back(slots.lookup(arg));
      for (auto bufferOp : funcOp.getBody().front().getOps<host::BufferOp>()) {
        bufferIndices[bufferOp] = bufferSizes.size();
        bufferSizes.push_back(bufferOp.getSize());
      }
      for (Block &block : funcOp.getBody()) {
        blockStarts[&block] = instructions.size();
        for (Operation &op : block)
          if (failed(writeOp(&op)))
            return failure();
      }

      std::vector<fb::Op> bodyTypes;
      std::vector<flatbuffers::Offset<void>> bodyOffsets;
      for (const Instruction &instruction : instructions) {
        bodyTypes.push_back(instruction.type);
        if (instruction.type == fb::Op::BranchOp)
          bodyOffsets.push_back(
              fb::CreateBranchOp(builder, blockStarts[instruction.target])
                  .Union());
        else if (instruction.type == fb::Op::CondBranchOp)
          bodyOffsets.push_back(
              fb::CreateCondBranchOp(builder, instruction.condition,
                                     blockStarts[instruction.target],
                                     blockStarts[instruction.falseTarget])
                  .Union());
        else
          bodyOffsets.push_back(instruction.offset);
      }
      std::vector<flatbuffers::Offset<fb::TensorType>> resultTypes;
      for (Type type : funcOp.getResultTypes()) {
        FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
            module.serializeType(funcOp.getLoc(), type);
        if (failed(serialized))
          return failure();
        resultTypes.push_back(*serialized);
      }
      return fb::CreateFunction(
          builder, builder.CreateString(funcOp.getName().str()),
          builder.CreateVector(slotTypes), builder.CreateVector(arguments),
          builder.CreateVector(resultTypes), builder.CreateVector(bodyTypes),
          builder.CreateVector(bodyOffsets), builder.CreateVector(bufferSizes),
          registerCount, serializeNames(funcOp.getNumArguments(), [&](unsigned i) {
            return funcOp.getArgAttrOfType<StringAttr>(i, kValueNameAttrName);
          }),
          serializeNames(funcOp.getNumResults(), [&](unsigned i) {
            return funcOp.getResultAttrOfType<StringAttr>(i,
                                                          kValueNameAttrName);
          }));
    }

  private:
    /// The names `nameOf` gives the function's arguments or results, or no
    /// vector when it names none.
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<
        flatbuffers::String>>>
    serializeNames(unsigned count, function_ref<StringAttr(unsigned)> nameOf) {
      std::vector<std::string> names;
      bool any = false;
      for (unsigned i = 0; i < count; ++i) {
        StringAttr name = nameOf(i);
        any |= name != nullptr;
        names.push_back(name ? name.str() : "");
      }
      if (!any)
        return 0;
      return builder.CreateVectorOfStrings(names);
    }

    /// One instruction; branches are built once every block's first
    /// instruction is known.
    struct Instruction {
      fb::Op type;
      flatbuffers::Offset<void> offset;
      Block *target = nullptr, *falseTarget = nullptr;
      uint32_t condition = 0;
    };

    LogicalResult newSlot(Location loc, Value value) {
      FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
          module.serializeType(loc, value.getType());
      if (failed(serialized))
        return failure();
      slots[value] = slotTypes.size();
      slotTypes.push_back(*serialized);
      return success();
    }

    std::vector<uint32_t> registersOf(ValueRange values) {
      std::vector<uint32_t> result;
      for (Value value : values)
        result.push_back(registers.lookup(value));
      return result;
    }

    /// The IndexOp kind of an arith op on indices, if it has one.
    static std::optional<fb::IndexKind> getIndexKind(Operation *op) {
      return llvm::TypeSwitch<Operation *, std::optional<fb::IndexKind>>(op)
          .Case([](arith::AddIOp) { return fb::IndexKind::Add; })
          .Case([](arith::SubIOp) { return fb::IndexKind::Sub; })
          .Case([](arith::MulIOp) { return fb::IndexKind::Mul; })
          .Case([](arith::FloorDivSIOp) { return fb::IndexKind::FloorDiv; })
          .Case([](arith::CeilDivSIOp) { return fb::IndexKind::CeilDiv; })
          .Case([](arith::RemSIOp) { return fb::IndexKind::Rem; })
          .Case([](arith::MinSIOp) { return fb::IndexKind::Min; })
          .Case([](arith::MaxSIOp) { return fb::IndexKind::Max; })
          .Case([](arith::DivSIOp) { return fb::IndexKind::Div; })
          .Case([](arith::DivUIOp) { return fb::IndexKind::DivU; })
          .Case([](arith::CeilDivUIOp) { return fb::IndexKind::CeilDivU; })
          .Case([](arith::RemUIOp) { return fb::IndexKind::RemU; })
          .Default([](Operation *) { return std::nullopt; });
    }

    std::vector<uint32_t> slotsOf(ValueRange values) {
      std::vector<uint32_t> result;
      for (Value value : values)
        result.push_back(slots.lookup(value));
      return result;
    }

    void emit(fb::Op type, flatbuffers::Offset<void> offset) {
      instructions.push_back({type, offset});
    }

    std::string locationString(Location loc) {
      std::optional<FileLineColLoc> fileLoc = findFileLoc(loc);
      if (!fileLoc)
        return "";
      return (getStoredPath(fileLoc->getFilename()) + ":" +
              Twine(fileLoc->getLine()) + ":" + Twine(fileLoc->getColumn()))
          .str();
    }

    LogicalResult writeOp(Operation *op) {
      if (isa<host::BufferOp, host::AllocateOp>(op))
        return success();
      if (auto constantOp = dyn_cast<host::ConstantOp>(op)) {
        FailureOr<uint32_t> constant =
            module.getConstant(op->getLoc(), constantOp.getValue());
        if (failed(constant))
          return failure();
        emit(fb::Op::ConstantOp,
             fb::CreateConstantOp(builder, slots.lookup(constantOp.getResult()),
                                  *constant)
                 .Union());
        return success();
      }
      if (auto dispatchOp = dyn_cast<host::DispatchOp>(op)) {
        std::string key = exportKey(dispatchOp.getExecutableName().getValue(),
                                    dispatchOp.getExportName().getValue());
        auto it = module.exportIndices.find(key);
        if (it == module.exportIndices.end())
          return dispatchOp.emitError("dispatch of an unknown export");
        std::vector<uint32_t> resultBuffers;
        for (Value buffer : dispatchOp.getBuffers()) {
          auto bufferOp = buffer.getDefiningOp<host::BufferOp>();
          resultBuffers.push_back(bufferOp ? bufferIndices.lookup(bufferOp)
                                           : KILN_NEW_BUFFER);
        }
        emit(fb::Op::DispatchOp,
             fb::CreateDispatchOp(
                 builder, it->second.first, it->second.second,
                 builder.CreateVector(slotsOf(dispatchOp.getArguments())),
                 builder.CreateVector(slotsOf(dispatchOp.getResults())),
                 builder.CreateVector(resultBuffers),
                 dispatchOp.getResultDims().empty()
                     ? 0
                     : builder.CreateVector(
                           registersOf(dispatchOp.getResultDims())),
                 dispatchOp.getConstants().empty()
                     ? 0
                     : builder.CreateVector(
                           registersOf(dispatchOp.getConstants())))
                 .Union());
        return success();
      }
      if (auto reshapeOp = dyn_cast<host::ReshapeOp>(op)) {
        emit(fb::Op::ReshapeOp,
             fb::CreateReshapeOp(builder, slots.lookup(reshapeOp.getResult()),
                                 slots.lookup(reshapeOp.getSource()),
                                 reshapeOp.getResultDims().empty()
                                     ? 0
                                     : builder.CreateVector(registersOf(
                                           reshapeOp.getResultDims())))
                 .Union());
        return success();
      }
      if (auto dimOp = dyn_cast<host::DimOp>(op)) {
        emit(fb::Op::DimOp,
             fb::CreateDimOp(builder, registers.lookup(dimOp.getResult()),
                             slots.lookup(dimOp.getSource()),
                             dimOp.getDimension().getZExtValue())
                 .Union());
        return success();
      }
      if (auto extractOp = dyn_cast<host::ExtractOp>(op)) {
        emit(fb::Op::ExtractOp,
             fb::CreateExtractOp(builder,
                                 registers.lookup(extractOp.getResult()),
                                 slots.lookup(extractOp.getSource()),
                                 extractOp.getElement().getZExtValue(),
                                 extractOp.getIsUnsigned())
                 .Union());
        return success();
      }
      if (auto constantOp = dyn_cast<arith::ConstantIndexOp>(op)) {
        emit(fb::Op::IndexOp,
             fb::CreateIndexOp(builder, fb::IndexKind::Constant,
                               registers.lookup(constantOp.getResult()), 0, 0,
                               constantOp.value())
                 .Union());
        return success();
      }
      if (std::optional<fb::IndexKind> kind = getIndexKind(op);
          kind && op->getResult(0).getType().isIndex()) {
        emit(fb::Op::IndexOp,
             fb::CreateIndexOp(builder, *kind,
                               registers.lookup(op->getResult(0)),
                               registers.lookup(op->getOperand(0)),
                               registers.lookup(op->getOperand(1)))
                 .Union());
        return success();
      }
      if (auto checkOp = dyn_cast<host::CheckOp>(op)) {
        auto toFloat = [](std::optional<APFloat> value, float otherwise) {
          return value ? value->convertToFloat() : otherwise;
        };
        emit(fb::Op::CheckOp,
             fb::CreateCheckOp(
                 builder, static_cast<fb::CheckKind>(checkOp.getKind()),
                 slots.lookup(checkOp.getLhs()),
                 checkOp.getRhs() ? slots.lookup(checkOp.getRhs()) : 0,
                 toFloat(checkOp.getAtol(), 0), toFloat(checkOp.getRtol(), 0),
                 builder.CreateString(locationString(op->getLoc())))
                 .Union());
        return success();
      }
      if (auto branchOp = dyn_cast<host::BranchOp>(op)) {
        for (auto [arg, operand] : llvm::zip(branchOp.getDest()->getArguments(),
                                             branchOp.getDestOperands())) {
          // A dynamic argument takes the operand's dimensions, read into
          // registers of their own.
          std::vector<uint32_t> dims;
          auto type = cast<RankedTensorType>(arg.getType());
          for (int64_t d = 0; d < type.getRank(); ++d) {
            if (!type.isDynamicDim(d))
              continue;
            dims.push_back(registerCount++);
            emit(fb::Op::DimOp,
                 fb::CreateDimOp(builder, dims.back(), slots.lookup(operand), d)
                     .Union());
          }
          emit(fb::Op::ReshapeOp,
               fb::CreateReshapeOp(
                   builder, slots.lookup(arg), slots.lookup(operand),
                   dims.empty() ? 0 : builder.CreateVector(dims))
                   .Union());
        }
        instructions.push_back({fb::Op::BranchOp, {}, branchOp.getDest()});
        return success();
      }
      if (auto condBranchOp = dyn_cast<host::CondBranchOp>(op)) {
        instructions.push_back({fb::Op::CondBranchOp,
                                {},
                                condBranchOp.getTrueDest(),
                                condBranchOp.getFalseDest(),
                                slots.lookup(condBranchOp.getCondition())});
        return success();
      }
      if (auto returnOp = dyn_cast<host::ReturnOp>(op)) {
        emit(fb::Op::ReturnOp,
             fb::CreateReturnOp(
                 builder, builder.CreateVector(slotsOf(returnOp.getOperands())))
                 .Union());
        return success();
      }
      return op->emitError() << "'" << op->getName()
                             << "' is not a host op (kiln-convert-to-host "
                                "lowers host functions to them)";
    }

    ModuleSerializer &module;
    flatbuffers::FlatBufferBuilder &builder;
    func::FuncOp funcOp;
    DenseMap<Value, uint32_t> slots;
    // Index registers: each index value, then the dimensions branches read.
    DenseMap<Value, uint32_t> registers;
    uint32_t registerCount = 0;
    std::vector<flatbuffers::Offset<fb::TensorType>> slotTypes;
    DenseMap<Operation *, uint32_t> bufferIndices;
    std::vector<uint64_t> bufferSizes;
    std::vector<Instruction> instructions;
    /// Index of each block's first instruction.
    DenseMap<Block *, uint32_t> blockStarts;
  };

  ModuleOp moduleOp;
  const CPULibrary &library;
  const SerializeOptions &options;
  EmbeddedSources &sources;
  InputOpTable inputOps;
  flatbuffers::FlatBufferBuilder builder;
  std::set<std::string> stagesSeen;
  /// Path -> index in the source table.
  llvm::StringMap<uint32_t> sourceIndices;
  /// Module.input_files, and the index of each.
  std::vector<std::string> inputFiles;
  llvm::StringMap<uint32_t> inputFileIndices;
  std::vector<flatbuffers::Offset<fb::Executable>> executables;
  std::vector<flatbuffers::Offset<fb::Constant>> constants;
  DenseMap<Attribute, uint32_t> constantIndices;
  /// "executable::export" -> (executable index, export index).
  llvm::StringMap<std::pair<uint32_t, uint32_t>> exportIndices;
};

} // namespace

//===----------------------------------------------------------------------===//
// EmbeddedSources
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<EmbeddedSources>>
EmbeddedSources::collect(ModuleOp moduleOp, const SerializeOptions &options) {
  std::unique_ptr<EmbeddedSources> sources(new EmbeddedSources());
  // Path -> text (ordered: the table is sorted by path).
  std::map<std::string, StringRef> texts;
  llvm::StringMap<DictionaryAttr> lineOrigins;
  // The texts of resources in `dictionary`, under their names; a name
  // already taken keeps its text (a captured stage before an input file).
  auto addTexts = [&](Operation *op, DictionaryAttr dictionary,
                      StringRef what) -> LogicalResult {
    for (NamedAttribute entry : dictionary) {
      auto resource = dyn_cast<DenseResourceElementsAttr>(entry.getValue());
      AsmResourceBlob *blob =
          resource ? resource.getRawHandle().getBlob() : nullptr;
      if (!blob)
        return op->emitError()
               << what << " '" << entry.getName().getValue() << "' has no data";
      ArrayRef<char> data = blob->getData();
      texts.try_emplace(entry.getName().getValue().str(),
                        StringRef(data.data(), data.size()));
    }
    return success();
  };
  if (options.debugLevel >= 3) {
    WalkResult walk = moduleOp.walk([&](ExecutableVariantOp variantOp) {
      auto captured =
          variantOp->getAttrOfType<DictionaryAttr>(kSourcesAttrName);
      if (!captured)
        return WalkResult::advance();
      if (auto origins =
              variantOp->getAttrOfType<DictionaryAttr>(kLineOriginsAttrName))
        for (NamedAttribute entry : origins)
          if (auto dict = dyn_cast<DictionaryAttr>(entry.getValue()))
            lineOrigins[entry.getName().getValue()] = dict;
      if (failed(addTexts(variantOp, captured, "captured source")))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  if (auto inputFiles =
          moduleOp->getAttrOfType<DictionaryAttr>(kInputFilesAttrName))
    if (failed(addTexts(moduleOp, inputFiles, "input file")))
      return failure();

  // Equal texts share one content, whatever their names.
  std::map<std::pair<uint64_t, StringRef>, uint32_t> contentIndices;
  for (auto &[path, text] : texts) {
    uint64_t hash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(text.data()), text.size()));
    auto [it, inserted] =
        contentIndices.try_emplace({hash, text}, sources->contents.size());
    if (inserted)
      sources->contents.push_back(
          {text,
           hash,
           static_cast<uint32_t>(text.count('\n') +
                                 (!text.empty() && !text.ends_with("\n"))),
           {}});
    sources->files.push_back({path, it->second, lineOrigins.lookup(path)});
  }

  // The thread that collected the texts goes on to build the library, so
  // one pool thread fewer than the machine has compresses meanwhile; that
  // thread joins in when it asks for the contents.
  MLIRContext *context = moduleOp.getContext();
  if (context->isMultithreadingEnabled() && !sources->contents.empty()) {
    llvm::ThreadPoolInterface &pool = context->getThreadPool();
    unsigned workers = std::max(1u, pool.getMaxConcurrency() - 1);
    sources->compression.emplace(pool);
    EmbeddedSources *self = sources.get();
    for (unsigned i = 0; i < workers; ++i)
      sources->compression->async([self] { self->compressRemaining(); });
  }
  return sources;
}

EmbeddedSources::~EmbeddedSources() {
  if (compression)
    compression->wait();
}

ArrayRef<EmbeddedSources::Content> EmbeddedSources::getContents() {
  compressRemaining();
  if (compression)
    compression->wait();
  return contents;
}

void EmbeddedSources::compressRemaining() {
  if (nextContent.load(std::memory_order_relaxed) >= contents.size())
    return;
  // One context for every text this thread compresses. A thread without
  // one claims nothing; what no thread compresses is stored as it is.
  ZSTD_CCtx *zstd = ZSTD_createCCtx();
  if (!zstd)
    return;
  std::vector<uint8_t> frame;
  for (size_t i = nextContent++; i < contents.size(); i = nextContent++) {
    Content &content = contents[i];
    frame.resize(ZSTD_compressBound(content.text.size()));
    size_t size =
        ZSTD_compressCCtx(zstd, frame.data(), frame.size(), content.text.data(),
                          content.text.size(), kSourceCompressionLevel);
    if (!ZSTD_isError(size) && size < content.text.size())
      content.compressed.assign(frame.begin(), frame.begin() + size);
  }
  ZSTD_freeCCtx(zstd);
}

LogicalResult serializeModule(ModuleOp moduleOp, const CPULibrary &library,
                              const SerializeOptions &options,
                              EmbeddedSources &sources, llvm::raw_ostream &os) {
  return ModuleSerializer(moduleOp, library, options, sources).serialize(os);
}

} // namespace mlir::kiln
