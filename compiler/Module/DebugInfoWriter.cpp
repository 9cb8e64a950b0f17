//===- DebugInfoWriter.cpp - a module's debug information -----------------===//

#include "Module/DebugInfoWriter.h"

#include "Capture/InputFiles.h"
#include "Dialect/Kiln/IR/InputNodes.h"
#include "kiln/module_format.h"
#include "kiln/packed_rows.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <zstd.h>

namespace mlir::kiln {

namespace fb = ::kiln::fb;
namespace packed_rows = ::kiln::packed_rows;

/// zstd level for packed line tables: small, sorted runs of a few distinct
/// steps. On bench/capture's program level 6 stores them in 30 KB at a
/// tenth of level 19's time, which stores 29 KB.
constexpr int kPackedRowsCompressionLevel = 6;

DebugInfoWriter::DebugInfoWriter(ModuleOp moduleOp,
                                 ArrayRef<CPULibrary> libraries, int debugLevel,
                                 ArrayRef<std::string> captureStages,
                                 EmbeddedSources &sources,
                                 flatbuffers::FlatBufferBuilder &builder)
    : moduleOp(moduleOp), libraries(libraries), debugLevel(debugLevel),
      captureStages(captureStages), sources(sources), builder(builder),
      inputOps(moduleOp) {
  if (debugLevel >= 3)
    collectCapturedStages();
  // The table is sorted by path; exports refer to files by that order.
  for (auto [index, file] : llvm::enumerate(sources.getFiles()))
    sourceIndices[file.path] = index;
  collectInputFiles();
}

std::vector<flatbuffers::Offset<flatbuffers::String>>
DebugInfoWriter::serializeStageNames() {
  std::vector<flatbuffers::Offset<flatbuffers::String>> stageNames;
  for (const std::string &stage : capturedStages())
    stageNames.push_back(builder.CreateString(stage));
  return stageNames;
}

/// The captured stages in pipeline order: those requested that some
/// export recorded a location in.
std::vector<std::string> DebugInfoWriter::capturedStages() const {
  std::vector<std::string> stages;
  for (const std::string &stage : captureStages)
    if (stagesSeen.count(stage))
      stages.push_back(stage);
  return stages;
}

/// Notes the stages that exports recorded a location in.
void DebugInfoWriter::collectCapturedStages() {
  moduleOp.walk([&](ExecutableExportOp exportOp) {
    if (auto locs =
            exportOp->getAttrOfType<DictionaryAttr>(kSourceLocsAttrName))
      for (NamedAttribute entry : locs)
        stagesSeen.insert(entry.getName().getValue().str());
  });
}

flatbuffers::Offset<fb::SourceLocation>
DebugInfoWriter::serializeLocation(FileLineColLoc loc) {
  return fb::CreateSourceLocation(
      builder, builder.CreateString(getStoredPath(loc.getFilename())),
      loc.getLine(), loc.getColumn());
}

FailureOr<DebugInfoWriter::ExportDebugInfo>
DebugInfoWriter::serializeExportDebugInfo(ExecutableExportOp exportOp) {
  ExportDebugInfo info;
  if (debugLevel >= 1)
    if (std::optional<FileLineColLoc> loc = findFileLoc(exportOp.getLoc()))
      info.location = serializeLocation(*loc);
  if (debugLevel >= 2) {
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
  if (debugLevel >= 3) {
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
DebugInfoWriter::serializeSourceTable() {
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
void DebugInfoWriter::collectInputFiles() {
  std::set<std::string> paths;
  for (const EmbeddedSources::File &file : sources.getFiles())
    if (file.lineOrigins)
      if (auto names =
              file.lineOrigins.getAs<ArrayAttr>(kLineOriginsInputFilesName))
        for (auto name : names.getAsValueRange<StringAttr>())
          paths.insert(getStoredPath(name));
  // The files the line tables point into that the module does not embed
  // (the input, below level 3).
  for (const CPULibrary &library : libraries)
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
std::pair<uint32_t, flatbuffers::Offset<fb::PackedRows>>
DebugInfoWriter::serializeLineOrigins(const EmbeddedSources::File &file) {
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
  std::vector<std::array<uint64_t, 4>> origins;
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
    origins.push_back({line, previousLine, inputFile, inputLine});
  }
  llvm::sort(origins);
  origins.erase(std::unique(origins.begin(), origins.end()), origins.end());
  // A text holds at most one row per byte (what bounds a reader's memory);
  // every op line is many bytes long, so no real text comes near.
  const size_t textSize =
      contents[sources.getFiles()[sourceIndices.lookup(file.path)].content]
          .text.size();
  if (origins.size() > textSize)
    origins.resize(textSize);
  return {previous,
          serializePackedRows(origins, packed_rows::kLineOriginColumns)};
}

/// `rows` packed (kiln/packed_rows.h) as one zstd frame.
flatbuffers::Offset<fb::PackedRows> DebugInfoWriter::serializePackedRows(
    const std::vector<std::array<uint64_t, 4>> &rows,
    const std::array<packed_rows::Column, 4> &columns) {
  if (rows.empty())
    return 0;
  const std::string packed = packed_rows::Pack(rows, columns);
  std::vector<uint8_t> frame(ZSTD_compressBound(packed.size()));
  const size_t size = ZSTD_compress(frame.data(), frame.size(), packed.data(),
                                    packed.size(), kPackedRowsCompressionLevel);
  // Compressing into a buffer of the bound cannot fail but for memory.
  if (ZSTD_isError(size))
    llvm::report_bad_alloc_error("zstd could not compress a line table");
  frame.resize(size);
  return fb::CreatePackedRows(builder, rows.size(), packed.size(),
                              builder.CreateVector(frame));
}

flatbuffers::Offset<fb::SourceContent>
DebugInfoWriter::serializeContent(const EmbeddedSources::Content &content) {
  const uint32_t lineCount = content.lineCount;
  if (!content.compressed.empty())
    return fb::CreateSourceContent(
        builder,
        content.withDictionary ? fb::Compression::ZstdDictionary
                               : fb::Compression::Zstd,
        content.text.size(), content.hash,
        builder.CreateVector(content.compressed), lineCount);
  return fb::CreateSourceContent(
      builder, fb::Compression::None, content.text.size(), content.hash,
      builder.CreateVector(
          reinterpret_cast<const uint8_t *>(content.text.data()),
          content.text.size()),
      lineCount);
}

flatbuffers::Offset<fb::SourceContent>
DebugInfoWriter::serializeSourceDictionary() {
  const std::optional<EmbeddedSources::Dictionary> &dictionary =
      sources.getDictionary();
  if (!dictionary)
    return 0;
  return fb::CreateSourceContent(builder, fb::Compression::Zstd,
                                 dictionary->bytes.size(), dictionary->hash,
                                 builder.CreateVector(dictionary->compressed),
                                 /*line_count=*/0);
}

/// `library`'s address -> line rows with each file its line table names
/// resolved to its index in the source table; a line of a file the module
/// does not embed, or past the end of the text it embeds (an input
/// location may name any line), is an unknown line (0) of its export.
flatbuffers::Offset<fb::PackedRows>
DebugInfoWriter::serializeLibraryLines(const CPULibrary &library) {
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
  std::vector<std::array<uint64_t, 4>> rows;
  for (const LibraryLineRow &row : library.lines.rows) {
    std::optional<std::pair<uint32_t, uint32_t>> file =
        row.path >= 0 ? pathSources[row.path] : std::nullopt;
    std::optional<uint32_t> source;
    if (file && row.line <= file->second)
      source = file->first;
    if (row.path >= 0 && pathInputFiles[row.path])
      source = pathInputFiles[row.path];
    const std::array<uint64_t, 4> entry = {
        row.offset, row.ordinal, source.value_or(0), source ? row.line : 0u};
    // Rows that the unknown files made equal merge.
    if (!rows.empty() && rows.back()[1] == entry[1] &&
        rows.back()[2] == entry[2] && rows.back()[3] == entry[3])
      continue;
    rows.push_back(entry);
  }
  return serializePackedRows(rows, packed_rows::kLibraryLineColumns);
}

} // namespace mlir::kiln
