//===- SerializeModule.cpp - compiled IR to a kiln module file ------------===//
//
// Host functions become straight-line slot programs (schema/module.fbs):
// every tensor value gets a slot, dispatches allocate their results,
// reshapes alias, constants point into the file, and a slot is released
// after its last use so peak memory follows liveness.
//
//===----------------------------------------------------------------------===//

#include "Module/SerializeModule.h"

#include "Capture/SourceSizeLimit.h"
#include "Dialect/Check/IR/CheckDialect.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "Dialect/Util/IR/UtilDialect.h"
#include "Module/ElementType.h"
#include "kiln/module_format.h"
#include "kiln/module_generated.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/xxhash.h"

#include <zstd.h>

#include <map>
#include <set>

namespace mlir::kiln {

namespace {

namespace fb = ::kiln::fb;

/// Element bytes as the runtime lays them out: i1 takes one byte.
int64_t getStorageBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

/// Largest constant a module holds (FlatBuffers addresses 2 GiB in all).
constexpr int64_t kMaxConstantBytes = int64_t(1) << 30;

/// Dense row-major bytes of a constant, i1 as one byte per element.
FailureOr<std::vector<uint8_t>> getConstantBytes(Location loc,
                                                 ElementsAttr elements) {
  auto type = cast<ShapedType>(elements.getType());
  Type elementType = type.getElementType();
  int64_t elementBytes = getStorageBytes(elementType);
  int64_t count = type.getNumElements();
  if (count > kMaxConstantBytes / elementBytes)
    return emitError(loc) << "constant of type " << type << " holds more than "
                          << kMaxConstantBytes
                          << " bytes, beyond what a module stores";
  std::vector<uint8_t> bytes(count * elementBytes);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitError(loc) << "constant resource has no data";
    ArrayRef<char> data = blob->getData();
    if (elementType.isInteger(1) ||
        data.size() != static_cast<size_t>(count * elementBytes))
      return emitError(loc) << "constant resource of " << data.size()
                            << " bytes does not match " << type;
    std::memcpy(bytes.data(), data.data(), data.size());
    return bytes;
  }
  auto dense = dyn_cast<DenseElementsAttr>(elements);
  if (!dense)
    return emitError(loc) << "unsupported constant kind";
  if (elementType.isInteger(1)) {
    for (auto [i, value] : llvm::enumerate(dense.getValues<bool>()))
      bytes[i] = value ? 1 : 0;
    return bytes;
  }
  ArrayRef<char> raw = dense.getRawData();
  if (dense.isSplat()) {
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(bytes.data() + i * elementBytes, raw.data(), elementBytes);
  } else {
    std::memcpy(bytes.data(), raw.data(), bytes.size());
  }
  return bytes;
}

/// zstd level for embedded sources: most of the ratio of the highest levels
/// at a fraction of their time. On stage texts (a few KB each) level 9
/// comes within 0.2% of level 8's size, either way, and takes 1.3 to 1.6
/// times as long; level 15 is 4% smaller at 10 times the time.
constexpr int kSourceCompressionLevel = 8;

/// The key of an export in the maps from export to index or ordinal.
std::string exportKey(StringRef executable, StringRef exportName) {
  return (executable + "::" + exportName).str();
}

/// The first file location inside `loc`, if any.
std::optional<FileLineColLoc> findFileLoc(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
      found = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// The path a location's file goes by in the module: lexically normalised
/// and, if it would still climb out of the current directory (`../m.mlir`),
/// absolute, since kiln-dump --extract-sources refuses paths with `..` but
/// writes absolute ones below its target directory. Locations and the
/// source table both use it, so that a lookup by a location's path finds
/// the embedded file.
std::string getStoredPath(StringRef filename) {
  SmallString<256> path(filename);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  if (!path.empty() && *llvm::sys::path::begin(path) == "..") {
    // `<cwd>/../m.mlir`: the `..` goes again.
    if (!llvm::sys::fs::make_absolute(path))
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  }
  return path.str().str();
}

/// Whether the real path `file` is under one of the real directories `dirs`.
bool isUnderDirectory(StringRef file, ArrayRef<std::string> dirs) {
  return llvm::any_of(dirs, [&](StringRef dir) {
    return file.starts_with(dir) &&
           (dir.ends_with("/") ||
            (file.size() > dir.size() && file[dir.size()] == '/'));
  });
}

/// Reads an input file for embedding if it is a regular text file within
/// `limit` bytes under one of the real directories `dirs`; otherwise warns
/// and returns nothing. Never reads more than `limit` bytes. Warnings about
/// what the file holds carry no location in it: showing its line would read
/// it whole, print bytes that are not text, or show a file nobody asked
/// to embed.
std::optional<std::string> readInputFile(FileLineColLoc loc, uint64_t limit,
                                         ArrayRef<std::string> dirs) {
  StringRef path = loc.getFilename();
  Location outsideFile = UnknownLoc::get(loc.getContext());
  // A diagnostic about the file as a whole ("FILE: warning: ...").
  Location wholeFile = FileLineColLoc::get(loc.getFilename(), 0, 0);
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) ||
      !llvm::sys::fs::exists(status)) {
    emitWarning(loc) << "input file '" << path
                     << "' named by a location does not exist; not embedded";
    return std::nullopt;
  }
  // Symlinks resolved: a link in the input's directory may lead anywhere.
  SmallString<256> realPath;
  if (llvm::sys::fs::real_path(path, realPath) ||
      !isUnderDirectory(realPath, dirs)) {
    emitWarning(wholeFile) << "input file '" << path
                           << "', named by a location at line " << loc.getLine()
                           << ", is not under the input file's directory or an "
                              "--executable-embed-input-dir; not embedded";
    return std::nullopt;
  }
  if (!llvm::sys::fs::is_regular_file(status)) {
    emitWarning(outsideFile) << "input file '" << path
                             << "' is not a regular file; not embedded";
    return std::nullopt;
  }
  if (status.getSize() > limit) {
    emitWarning(loc) << "input file '" << path << "' is " << status.getSize()
                     << " bytes, above the " << limit
                     << "-byte limit; not embedded";
    return std::nullopt;
  }
  int fd = -1;
  SmallString<256> openedPath;
  if (llvm::sys::fs::openFileForRead(path, fd, llvm::sys::fs::OF_None,
                                     &openedPath)) {
    emitWarning(loc) << "cannot read input file '" << path << "'; not embedded";
    return std::nullopt;
  }
  llvm::scope_exit closeFile(
      [&] { llvm::sys::Process::SafelyCloseFileDescriptor(fd); });
  // What is read is what was checked, even if the file was replaced since
  // (by a symlink leading out, or by something larger).
  llvm::sys::fs::file_status opened;
  if (llvm::sys::fs::status(fd, opened) ||
      !llvm::sys::fs::is_regular_file(opened) || opened.getSize() > limit ||
      !isUnderDirectory(openedPath, dirs)) {
    emitWarning(wholeFile) << "input file '" << path
                           << "' changed while being read; not embedded";
    return std::nullopt;
  }
  // Read, not mapped: a file truncated meanwhile must not fault.
  auto buffer = llvm::MemoryBuffer::getOpenFileSlice(
      llvm::sys::fs::convertFDToNativeFile(fd), path, opened.getSize(), 0,
      /*IsVolatile=*/true);
  if (!buffer) {
    emitWarning(loc) << "cannot read input file '" << path
                     << "'; not embedded";
    return std::nullopt;
  }
  StringRef text = (*buffer)->getBuffer();
  if (text.contains('\0')) {
    emitWarning(outsideFile) << "input file '" << path
                             << "' is binary; not embedded";
    return std::nullopt;
  }
  warnIfAboveProfilerSourceSizeLimit(loc, "input file", path, text.size());
  return text.str();
}

class ModuleSerializer {
public:
  ModuleSerializer(ModuleOp moduleOp, const CPULibrary &library,
                   const SerializeOptions &options, EmbeddedSources &sources)
      : moduleOp(moduleOp), library(library), options(options),
        sources(sources) {}

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
    auto libraryLines = serializeLibraryLines();
    std::vector<flatbuffers::Offset<fb::Library>> libraries = {
        fb::CreateLibrary(builder,
                          builder.CreateString(KILN_LIBRARY_FORMAT_ELF_X86_64),
                          builder.CreateString(library.cpu), libraryData,
                          libraryHash,
                          builder.CreateVectorOfStrings(library.cpuFeatures),
                          libraryLines)};
    collectInputFiles();
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

  flatbuffers::Offset<fb::SourceLocation> serializeLocation(FileLineColLoc loc) {
    return fb::CreateSourceLocation(
        builder, builder.CreateString(getStoredPath(loc.getFilename())),
        loc.getLine(), loc.getColumn());
  }

  FailureOr<ExportDebugInfo> serializeExportDebugInfo(ExecutableExportOp exportOp) {
    ExportDebugInfo info;
    if (options.debugLevel >= 1)
      if (std::optional<FileLineColLoc> loc = findFileLoc(exportOp.getLoc()))
        info.location = serializeLocation(*loc);
    if (options.debugLevel >= 2) {
      std::vector<flatbuffers::Offset<fb::FusedOp>> fusedOps;
      if (auto provenance =
              exportOp->getAttrOfType<ArrayAttr>(kProvenanceAttrName))
        for (Attribute entry : provenance) {
          auto nameLoc = dyn_cast<NameLoc>(entry);
          std::optional<FileLineColLoc> loc =
              nameLoc ? findFileLoc(nameLoc.getChildLoc()) : std::nullopt;
          if (!loc)
            continue;
          fusedOps.push_back(fb::CreateFusedOp(
              builder, builder.CreateString(nameLoc.getName().str()),
              serializeLocation(*loc)));
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
          return exportOp.emitError() << "stage location names source '"
                                      << loc.getFilename()
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
        if (auto names = file.lineOrigins.getAs<ArrayAttr>(
                kLineOriginsInputFilesName))
          for (auto name : names.getAsValueRange<StringAttr>())
            paths.insert(getStoredPath(name));
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
      return std::make_tuple(row.line(), row.previous_line(),
                             row.input_file(), row.input_line());
    };
    llvm::sort(origins, [&](const fb::LineOrigin &a, const fb::LineOrigin &b) {
      return key(a) < key(b);
    });
    origins.erase(std::unique(origins.begin(), origins.end(),
                              [&](const fb::LineOrigin &a,
                                  const fb::LineOrigin &b) {
                                return key(a) == key(b);
                              }),
                  origins.end());
    return {previous, builder.CreateVectorOfStructs(origins)};
  }

  flatbuffers::Offset<fb::SourceContent>
  serializeContent(const EmbeddedSources::Content &content) {
    const uint32_t lineCount = content.lineCount;
    if (!content.compressed.empty())
      return fb::CreateSourceContent(builder, fb::Compression::Zstd,
                                     content.text.size(), content.hash,
                                     builder.CreateVector(content.compressed),
                                     lineCount);
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
    for (const std::string &path : library.lines.paths) {
      auto it = sourceIndices.find(path);
      if (it == sourceIndices.end()) {
        pathSources.push_back(std::nullopt);
        continue;
      }
      uint32_t content = sources.getFiles()[it->second].content;
      pathSources.push_back(std::make_pair(
          it->second, contents[content].lineCount));
    }
    std::vector<fb::LibraryLine> rows;
    for (const LibraryLineRow &row : library.lines.rows) {
      std::optional<std::pair<uint32_t, uint32_t>> file =
          row.path >= 0 ? pathSources[row.path] : std::nullopt;
      std::optional<uint32_t> source;
      if (file && row.line <= file->second)
        source = file->first;
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
        FailureOr<ExportDebugInfo> debugInfo = serializeExportDebugInfo(exportOp);
        if (failed(debugInfo))
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
        exports.push_back(fb::CreateExport(
            builder, builder.CreateString(exportOp.getSymName().str()),
            it->second,
            static_cast<uint32_t>(exportOp.getBindings().getZExtValue()),
            builder.CreateVector(workgroupCount),
            builder.CreateVector(bindingTypes), debugInfo->location,
            debugInfo->provenance, debugInfo->stageLocations));
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
    if (!tensorType || !tensorType.hasStaticShape())
      return emitError(loc) << "host value of type " << type
                            << " is not a statically shaped tensor";
    FailureOr<fb::ElementType> elementType =
        getModuleElementType(loc, tensorType.getElementType());
    if (failed(elementType))
      return failure();
    return fb::CreateTensorType(builder, *elementType,
                                builder.CreateVector(std::vector<int64_t>(
                                    tensorType.getShape().begin(),
                                    tensorType.getShape().end())));
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
    int64_t elementBytes = getStorageBytes(shapedType.getElementType());
    if (shapedType.getNumElements() <= kMaxConstantBytes / elementBytes &&
        failed(checkRoomFor(loc, shapedType.getNumElements() * elementBytes,
                            "this constant")))
      return failure();
    FailureOr<std::vector<uint8_t>> bytes = getConstantBytes(loc, value);
    if (failed(bytes))
      return failure();
    FailureOr<flatbuffers::Offset<fb::TensorType>> type =
        serializeType(loc, value.getType());
    if (failed(type))
      return failure();
    builder.ForceVectorAlignment(bytes->size(), 1, 64);
    auto data = builder.CreateVector(*bytes);
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

  /// Writes one host function: its ops in order, control flow as branches
  /// between labels, values carried by control flow as slot aliases.
  class FunctionWriter {
  public:
    FunctionWriter(ModuleSerializer &module, func::FuncOp funcOp)
        : module(module), builder(module.builder), funcOp(funcOp) {}

    FailureOr<flatbuffers::Offset<fb::Function>> write() {
      std::vector<uint32_t> arguments;
      for (BlockArgument arg : funcOp.getArguments()) {
        FailureOr<uint32_t> slot = slotOf(arg);
        if (failed(slot))
          return failure();
        arguments.push_back(*slot);
      }
      if (failed(writeBlock(funcOp.getBody().front())))
        return failure();

      std::vector<fb::Op> bodyTypes;
      std::vector<flatbuffers::Offset<void>> bodyOffsets;
      if (failed(finishBody(bodyTypes, bodyOffsets)))
        return failure();
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
          builder.CreateVector(bodyOffsets));
    }

  private:
    /// One instruction; branches are built once their labels are placed.
    struct Instruction {
      fb::Op type;
      flatbuffers::Offset<void> offset;
      std::vector<uint32_t> reads;
      int trueLabel = -1, falseLabel = -1;
      uint32_t condition = 0;
    };

    FailureOr<uint32_t> slotOf(Value value) {
      auto it = slots.find(value);
      if (it != slots.end())
        return it->second;
      return newSlot(value.getLoc(), value.getType(), value);
    }

    FailureOr<uint32_t> newSlot(Location loc, Type type, Value value = {}) {
      FailureOr<flatbuffers::Offset<fb::TensorType>> serialized =
          module.serializeType(loc, type);
      if (failed(serialized))
        return failure();
      uint32_t slot = slotTypes.size();
      slotTypes.push_back(*serialized);
      slotValueTypes.push_back(type);
      if (value)
        slots[value] = slot;
      return slot;
    }

    FailureOr<std::vector<uint32_t>> slotsOf(ValueRange values) {
      std::vector<uint32_t> result;
      for (Value value : values) {
        FailureOr<uint32_t> slot = slotOf(value);
        if (failed(slot))
          return failure();
        result.push_back(*slot);
      }
      return result;
    }

    void emit(fb::Op type, flatbuffers::Offset<void> offset,
              std::vector<uint32_t> reads = {}) {
      instructions.push_back({type, offset, std::move(reads)});
    }

    int newLabel() {
      labels.push_back(-1);
      return labels.size() - 1;
    }
    void placeLabel(int label) { labels[label] = instructions.size(); }

    void emitBranch(int label) {
      hasControlFlow = true;
      Instruction instruction{fb::Op::BranchOp, {}, {}};
      instruction.trueLabel = label;
      instructions.push_back(instruction);
    }
    void emitCondBranch(uint32_t condition, int trueLabel, int falseLabel) {
      hasControlFlow = true;
      Instruction instruction{fb::Op::CondBranchOp, {}, {condition}};
      instruction.trueLabel = trueLabel;
      instruction.falseLabel = falseLabel;
      instruction.condition = condition;
      instructions.push_back(instruction);
    }

    /// `destinations[i]` = `sources[i]` for all i at once (a loop may swap
    /// values): through fresh slots when a source is also a destination.
    LogicalResult emitMoves(Location loc, ArrayRef<uint32_t> destinations,
                            ArrayRef<uint32_t> sources) {
      SmallVector<uint32_t> from(sources.begin(), sources.end());
      bool overlap = llvm::any_of(sources, [&](uint32_t source) {
        return llvm::is_contained(destinations, source);
      });
      if (overlap) {
        for (auto [i, source] : llvm::enumerate(sources)) {
          FailureOr<uint32_t> temp = newSlot(loc, slotValueTypes[source]);
          if (failed(temp))
            return failure();
          emit(fb::Op::ReshapeOp,
               fb::CreateReshapeOp(builder, *temp, source).Union(), {source});
          from[i] = *temp;
        }
      }
      for (auto [destination, source] : llvm::zip(destinations, from))
        if (destination != source)
          emit(fb::Op::ReshapeOp,
               fb::CreateReshapeOp(builder, destination, source).Union(),
               {source});
      return success();
    }

    /// The 0-d i1 tensor a control-flow condition reads.
    FailureOr<uint32_t> conditionSlot(Operation *user, Value condition) {
      auto extractOp = condition.getDefiningOp<tensor::ExtractOp>();
      if (!extractOp || extractOp.getTensor().getType().getRank() != 0)
        return user->emitError(
            "a host branch condition must be read from a 0-d tensor<i1>");
      return slotOf(extractOp.getTensor());
    }

    std::string locationString(Location loc) {
      std::optional<FileLineColLoc> fileLoc = findFileLoc(loc);
      if (!fileLoc)
        return "";
      return (getStoredPath(fileLoc->getFilename()) + ":" +
              Twine(fileLoc->getLine()) + ":" +
              Twine(fileLoc->getColumn()))
          .str();
    }

    LogicalResult emitCheck(Operation *op, fb::CheckKind kind, Value lhs,
                            Value rhs, float atol = 0, float rtol = 0) {
      FailureOr<uint32_t> lhsSlot = slotOf(lhs);
      FailureOr<uint32_t> rhsSlot = rhs ? slotOf(rhs) : lhsSlot;
      if (failed(lhsSlot) || failed(rhsSlot))
        return failure();
      std::vector<uint32_t> reads = {*lhsSlot};
      if (rhs)
        reads.push_back(*rhsSlot);
      emit(fb::Op::CheckOp,
           fb::CreateCheckOp(builder, kind, *lhsSlot, rhs ? *rhsSlot : 0, atol,
                             rtol,
                             builder.CreateString(locationString(op->getLoc())))
               .Union(),
           reads);
      return success();
    }

    LogicalResult writeBlock(Block &block) {
      for (Operation &op : block)
        if (failed(writeOp(&op)))
          return failure();
      return success();
    }

    LogicalResult writeOp(Operation *op) {
      Location loc = op->getLoc();
      if (auto constantOp = dyn_cast<arith::ConstantOp>(op)) {
        auto value = dyn_cast<ElementsAttr>(constantOp.getValue());
        if (!value) {
          // Scalars read only by dispatches were copied into them.
          if (constantOp->use_empty())
            return success();
          return constantOp.emitError("scalar constants cannot live on the host");
        }
        FailureOr<uint32_t> constant = module.getConstant(loc, value);
        FailureOr<uint32_t> result = slotOf(constantOp.getResult());
        if (failed(constant) || failed(result))
          return failure();
        emit(fb::Op::ConstantOp,
             fb::CreateConstantOp(builder, *result, *constant).Union());
        return success();
      }
      if (auto emptyOp = dyn_cast<tensor::EmptyOp>(op)) {
        // An uninitialized tensor escaping to the host reads as zeros.
        auto type = cast<RankedTensorType>(emptyOp.getType());
        Attribute zero =
            type.getElementType().isIntOrIndex()
                ? Attribute(IntegerAttr::get(type.getElementType(), 0))
                : Attribute(FloatAttr::get(type.getElementType(), 0.0));
        FailureOr<uint32_t> constant = module.getConstant(
            loc, cast<ElementsAttr>(SplatElementsAttr::get(type, zero)));
        FailureOr<uint32_t> result = slotOf(emptyOp.getResult());
        if (failed(constant) || failed(result))
          return failure();
        emit(fb::Op::ConstantOp,
             fb::CreateConstantOp(builder, *result, *constant).Union());
        return success();
      }
      if (auto dispatchOp = dyn_cast<DispatchOp>(op)) {
        std::string key = exportKey(dispatchOp.getExecutableName().getValue(),
                                    dispatchOp.getExportName().getValue());
        auto it = module.exportIndices.find(key);
        if (it == module.exportIndices.end())
          return dispatchOp.emitError("dispatch of an unknown export");
        FailureOr<std::vector<uint32_t>> operands =
            slotsOf(dispatchOp.getArguments());
        FailureOr<std::vector<uint32_t>> results =
            slotsOf(dispatchOp.getResults());
        if (failed(operands) || failed(results))
          return failure();
        emit(fb::Op::DispatchOp,
             fb::CreateDispatchOp(builder, it->second.first, it->second.second,
                                  builder.CreateVector(*operands),
                                  builder.CreateVector(*results))
                 .Union(),
             *operands);
        return success();
      }
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
              tensor::ReshapeOp>(op)) {
        FailureOr<uint32_t> source = slotOf(op->getOperand(0));
        FailureOr<uint32_t> result = slotOf(op->getResult(0));
        if (failed(source) || failed(result))
          return failure();
        emit(fb::Op::ReshapeOp,
             fb::CreateReshapeOp(builder, *result, *source).Union(), {*source});
        return success();
      }
      if (auto barrierOp = dyn_cast<util::OptimizationBarrierOp>(op)) {
        // Opaque to the compiler; at run time the values pass through.
        FailureOr<std::vector<uint32_t>> sources =
            slotsOf(barrierOp.getOperands());
        FailureOr<std::vector<uint32_t>> results =
            slotsOf(barrierOp.getResults());
        if (failed(sources) || failed(results))
          return failure();
        return emitMoves(loc, *results, *sources);
      }
      if (auto extractOp = dyn_cast<tensor::ExtractOp>(op)) {
        // Read by the branch that uses it (see conditionSlot).
        if (llvm::all_of(extractOp->getUsers(), [](Operation *user) {
              return isa<scf::IfOp, scf::ConditionOp>(user);
            }))
          return success();
        return extractOp.emitError(
            "a tensor element read on the host only decides control flow");
      }
      if (auto checkOp = dyn_cast<check::ExpectTrueOp>(op))
        return emitCheck(op, fb::CheckKind::True, checkOp.getOperand(), {});
      if (auto checkOp = dyn_cast<check::ExpectFalseOp>(op))
        return emitCheck(op, fb::CheckKind::False, checkOp.getOperand(), {});
      if (auto checkOp = dyn_cast<check::ExpectAllTrueOp>(op))
        return emitCheck(op, fb::CheckKind::AllTrue, checkOp.getOperand(), {});
      if (auto checkOp = dyn_cast<check::ExpectEqOp>(op))
        return emitCheck(op, fb::CheckKind::Equal, checkOp.getLhs(),
                         checkOp.getRhs());
      if (auto checkOp = dyn_cast<check::ExpectAlmostEqOp>(op))
        return emitCheck(op, fb::CheckKind::AlmostEqual, checkOp.getLhs(),
                         checkOp.getRhs(), checkOp.getAtol().convertToFloat(),
                         checkOp.getRtol().convertToFloat());
      if (auto ifOp = dyn_cast<scf::IfOp>(op))
        return writeIf(ifOp);
      if (auto whileOp = dyn_cast<scf::WhileOp>(op))
        return writeWhile(whileOp);
      if (auto returnOp = dyn_cast<func::ReturnOp>(op)) {
        FailureOr<std::vector<uint32_t>> operands =
            slotsOf(returnOp.getOperands());
        if (failed(operands))
          return failure();
        returned = *operands;
        emit(fb::Op::ReturnOp,
             fb::CreateReturnOp(builder, builder.CreateVector(*operands))
                 .Union(),
             *operands);
        return success();
      }
      return op->emitError() << "'" << op->getName()
                             << "' cannot run on the host";
    }

    /// cond ? then : else, each branch ending by moving its yielded values
    /// into the results.
    LogicalResult writeIf(scf::IfOp ifOp) {
      FailureOr<uint32_t> condition = conditionSlot(ifOp, ifOp.getCondition());
      FailureOr<std::vector<uint32_t>> results = slotsOf(ifOp.getResults());
      if (failed(condition) || failed(results))
        return failure();
      int thenLabel = newLabel(), elseLabel = newLabel(), endLabel = newLabel();
      emitCondBranch(*condition, thenLabel, elseLabel);
      for (auto [label, region] :
           {std::make_pair(thenLabel, &ifOp.getThenRegion()),
            std::make_pair(elseLabel, &ifOp.getElseRegion())}) {
        placeLabel(label);
        if (region->empty())
          continue;
        Block &block = region->front();
        for (Operation &op : block.without_terminator())
          if (failed(writeOp(&op)))
            return failure();
        auto yieldOp = cast<scf::YieldOp>(block.getTerminator());
        FailureOr<std::vector<uint32_t>> values = slotsOf(yieldOp.getOperands());
        if (failed(values) || failed(emitMoves(ifOp.getLoc(), *results, *values)))
          return failure();
        emitBranch(endLabel);
      }
      placeLabel(endLabel);
      return success();
    }

    /// before: ... cond ? (args -> after, results) : exit;
    /// after: ... yields -> before.
    LogicalResult writeWhile(scf::WhileOp whileOp) {
      FailureOr<std::vector<uint32_t>> inits = slotsOf(whileOp.getInits());
      FailureOr<std::vector<uint32_t>> beforeArgs =
          slotsOf(whileOp.getBeforeArguments());
      FailureOr<std::vector<uint32_t>> afterArgs =
          slotsOf(whileOp.getAfterArguments());
      FailureOr<std::vector<uint32_t>> results = slotsOf(whileOp.getResults());
      if (failed(inits) || failed(beforeArgs) || failed(afterArgs) ||
          failed(results) ||
          failed(emitMoves(whileOp.getLoc(), *beforeArgs, *inits)))
        return failure();
      int beforeLabel = newLabel(), afterLabel = newLabel(),
          exitLabel = newLabel();
      placeLabel(beforeLabel);
      Block &before = *whileOp.getBeforeBody();
      for (Operation &op : before.without_terminator())
        if (failed(writeOp(&op)))
          return failure();
      auto conditionOp = whileOp.getConditionOp();
      FailureOr<uint32_t> condition =
          conditionSlot(conditionOp, conditionOp.getCondition());
      FailureOr<std::vector<uint32_t>> forwarded =
          slotsOf(conditionOp.getArgs());
      if (failed(condition) || failed(forwarded) ||
          failed(emitMoves(whileOp.getLoc(), *afterArgs, *forwarded)) ||
          failed(emitMoves(whileOp.getLoc(), *results, *forwarded)))
        return failure();
      emitCondBranch(*condition, afterLabel, exitLabel);
      placeLabel(afterLabel);
      Block &after = *whileOp.getAfterBody();
      for (Operation &op : after.without_terminator())
        if (failed(writeOp(&op)))
          return failure();
      FailureOr<std::vector<uint32_t>> yielded =
          slotsOf(whileOp.getYieldOp().getOperands());
      if (failed(yielded) ||
          failed(emitMoves(whileOp.getLoc(), *beforeArgs, *yielded)))
        return failure();
      emitBranch(beforeLabel);
      placeLabel(exitLabel);
      return success();
    }

    /// Builds the instruction list. Straight-line functions release each
    /// slot after its last read; with branches, a slot's memory goes when
    /// the slot is overwritten or the function returns.
    LogicalResult finishBody(std::vector<fb::Op> &types,
                             std::vector<flatbuffers::Offset<void>> &offsets) {
      auto add = [&](const Instruction &instruction) {
        types.push_back(instruction.type);
        if (instruction.type == fb::Op::BranchOp) {
          offsets.push_back(
              fb::CreateBranchOp(builder, labels[instruction.trueLabel]).Union());
        } else if (instruction.type == fb::Op::CondBranchOp) {
          offsets.push_back(fb::CreateCondBranchOp(
                                builder, instruction.condition,
                                labels[instruction.trueLabel],
                                labels[instruction.falseLabel])
                                .Union());
        } else {
          offsets.push_back(instruction.offset);
        }
      };
      if (hasControlFlow) {
        for (const Instruction &instruction : instructions)
          add(instruction);
        return success();
      }
      std::vector<int64_t> lastRead(slotTypes.size(), -1);
      for (auto [index, instruction] : llvm::enumerate(instructions))
        for (uint32_t slot : instruction.reads)
          lastRead[slot] = index;
      for (uint32_t slot : returned)
        lastRead[slot] = -1;
      for (auto [index, instruction] : llvm::enumerate(instructions)) {
        add(instruction);
        if (instruction.type == fb::Op::ReturnOp)
          continue;
        std::vector<uint32_t> dead;
        for (auto [slot, last] : llvm::enumerate(lastRead))
          if (last == static_cast<int64_t>(index))
            dead.push_back(slot);
        if (!dead.empty()) {
          types.push_back(fb::Op::ReleaseOp);
          offsets.push_back(
              fb::CreateReleaseOp(builder, builder.CreateVector(dead)).Union());
        }
      }
      return success();
    }

    ModuleSerializer &module;
    flatbuffers::FlatBufferBuilder &builder;
    func::FuncOp funcOp;
    DenseMap<Value, uint32_t> slots;
    std::vector<flatbuffers::Offset<fb::TensorType>> slotTypes;
    std::vector<Type> slotValueTypes;
    std::vector<Instruction> instructions;
    /// Instruction index of each label (-1 until placed).
    std::vector<int64_t> labels;
    std::vector<uint32_t> returned;
    bool hasControlFlow = false;
  };

  ModuleOp moduleOp;
  const CPULibrary &library;
  const SerializeOptions &options;
  EmbeddedSources &sources;
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

}  // namespace

//===----------------------------------------------------------------------===//
// EmbeddedSources
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<EmbeddedSources>>
EmbeddedSources::collect(ModuleOp moduleOp, const SerializeOptions &options) {
  std::unique_ptr<EmbeddedSources> sources(new EmbeddedSources());
  // Path -> text (ordered: the table is sorted by path).
  std::map<std::string, StringRef> texts;
  llvm::StringMap<DictionaryAttr> lineOrigins;
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
      for (NamedAttribute entry : captured) {
        auto resource = dyn_cast<DenseResourceElementsAttr>(entry.getValue());
        AsmResourceBlob *blob =
            resource ? resource.getRawHandle().getBlob() : nullptr;
        if (!blob) {
          variantOp.emitError() << "captured source '"
                                << entry.getName().getValue()
                                << "' has no data";
          return WalkResult::interrupt();
        }
        ArrayRef<char> data = blob->getData();
        texts[entry.getName().getValue().str()] =
            StringRef(data.data(), data.size());
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  if (options.embedInputFiles) {
    // Stored path -> first location naming it (read by its own spelling).
    std::map<std::string, FileLineColLoc> referencedFiles;
    auto reference = [&](Location loc) {
      if (std::optional<FileLineColLoc> fileLoc = findFileLoc(loc))
        referencedFiles.try_emplace(getStoredPath(fileLoc->getFilename()),
                                    *fileLoc);
    };
    moduleOp.walk([&](ExecutableExportOp exportOp) {
      if (options.debugLevel >= 1)
        reference(exportOp.getLoc());
      if (options.debugLevel >= 2)
        if (auto provenance =
                exportOp->getAttrOfType<ArrayAttr>(kProvenanceAttrName))
          for (Attribute entry : provenance)
            if (auto loc = dyn_cast<LocationAttr>(entry))
              reference(loc);
    });
    // Compared by real path: "." and a symlink to the input's directory
    // name it too.
    std::vector<std::string> embedDirs;
    for (const std::string &dir : options.embedInputDirs) {
      SmallString<256> realDir;
      if (!llvm::sys::fs::real_path(dir, realDir))
        embedDirs.push_back(realDir.str().str());
    }
    for (auto &[path, loc] : referencedFiles) {
      if (texts.count(path))
        continue;
      if (std::optional<std::string> text =
              readInputFile(loc, options.embedInputFileLimit, embedDirs)) {
        sources->inputFileTexts.push_back(std::move(*text));
        texts[path] = sources->inputFileTexts.back();
      }
    }
  }

  // Equal texts share one content, whatever their names.
  std::map<std::pair<uint64_t, StringRef>, uint32_t> contentIndices;
  for (auto &[path, text] : texts) {
    uint64_t hash = llvm::xxh3_64bits(ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(text.data()), text.size()));
    auto [it, inserted] =
        contentIndices.try_emplace({hash, text}, sources->contents.size());
    if (inserted)
      sources->contents.push_back(
          {text, hash,
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

}  // namespace mlir::kiln
