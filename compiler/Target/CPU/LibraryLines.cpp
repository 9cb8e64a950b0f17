//===- LibraryLines.cpp - Address -> line rows of a linked library --------===//

#include "Target/CPU/LibraryLines.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <optional>

namespace mlir::kiln {

namespace {

/// Where the line table says the code from `address` on comes from; none
/// (path -1) at the end of a sequence.
struct LinePoint {
  uint64_t address;
  int32_t path;
  uint32_t line;
};

/// An export's code, from its function symbol.
struct ExportRange {
  uint64_t start, end;
  uint32_t ordinal;
};

} // namespace

FailureOr<LibraryLines> readLibraryLines(Location loc, StringRef bytes,
                                         ArrayRef<std::string> exportSymbols) {
  llvm::Expected<std::unique_ptr<llvm::object::ObjectFile>> object =
      llvm::object::ObjectFile::createObjectFile(
          llvm::MemoryBufferRef(bytes, "library"));
  if (!object)
    return emitError(loc) << "cannot read the linked library: "
                          << llvm::toString(object.takeError());

  llvm::StringMap<uint32_t> ordinals;
  for (auto [ordinal, name] : llvm::enumerate(exportSymbols))
    ordinals[name] = ordinal;
  std::vector<ExportRange> ranges;
  for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
    llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
    llvm::Expected<StringRef> name = symbol.getName();
    llvm::Expected<uint64_t> address = symbol.getAddress();
    if (!type || !name || !address) {
      llvm::consumeError(type.takeError());
      llvm::consumeError(name.takeError());
      llvm::consumeError(address.takeError());
      continue;
    }
    auto it = ordinals.find(*name);
    if (*type != llvm::object::SymbolRef::ST_Function || it == ordinals.end())
      continue;
    uint64_t size = llvm::object::ELFSymbolRef(symbol).getSize();
    if (size > 0)
      ranges.push_back({*address, *address + size, it->second});
  }
  llvm::sort(ranges, [](const ExportRange &a, const ExportRange &b) {
    return a.start < b.start;
  });

  // Every row of every sequence, by address; the row in effect at an
  // address is the last one at or before it.
  LibraryLines lines;
  llvm::StringMap<int32_t> pathIndices;
  std::vector<LinePoint> points;
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(
      **object, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr,
      "", [](llvm::Error error) { llvm::consumeError(std::move(error)); },
      [](llvm::Error error) { llvm::consumeError(std::move(error)); });
  for (const std::unique_ptr<llvm::DWARFUnit> &unit : dwarf->compile_units()) {
    const llvm::DWARFDebugLine::LineTable *table =
        dwarf->getLineTableForUnit(unit.get());
    if (!table)
      continue;
    // Rows name their file by an index into the table; each index is
    // resolved to a path once (-1: it names none).
    llvm::DenseMap<uint64_t, int32_t> fileIndexPaths;
    auto getPathIndex = [&](uint64_t fileIndex) {
      auto [cached, isNew] = fileIndexPaths.try_emplace(fileIndex, -1);
      if (!isNew)
        return cached->second;
      std::string path;
      if (table->getFileNameByIndex(
              fileIndex, unit->getCompilationDir(),
              llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
              path)) {
        auto [it, inserted] = pathIndices.try_emplace(path, lines.paths.size());
        if (inserted)
          lines.paths.push_back(path);
        cached->second = it->second;
      }
      return cached->second;
    };
    for (const llvm::DWARFDebugLine::Row &row : table->Rows) {
      int32_t path =
          row.EndSequence || row.Line == 0 ? -1 : getPathIndex(row.File);
      points.push_back({row.Address.Address, path, path < 0 ? 0 : row.Line});
    }
  }
  // Stable: of rows at one address, the last one holds.
  std::stable_sort(points.begin(), points.end(),
                   [](const LinePoint &a, const LinePoint &b) {
                     return a.address < b.address;
                   });

  auto push = [&](uint64_t offset, uint32_t ordinal, int32_t path,
                  uint32_t line) {
    if (!lines.rows.empty() && lines.rows.back().offset == offset)
      lines.rows.pop_back();
    if (!lines.rows.empty() && lines.rows.back().ordinal == ordinal &&
        lines.rows.back().path == path && lines.rows.back().line == line)
      return;
    lines.rows.push_back({offset, ordinal, path, line});
  };
  auto point = points.begin();
  // The row in effect at the address reached.
  std::optional<LinePoint> current;
  for (const ExportRange &range : ranges) {
    for (; point != points.end() && point->address <= range.start; ++point)
      current = *point;
    push(range.start, range.ordinal, current ? current->path : -1,
         current ? current->line : 0);
    for (; point != points.end() && point->address < range.end; ++point) {
      current = *point;
      push(point->address, range.ordinal, point->path, point->line);
    }
    push(range.end, KILN_LIBRARY_LINE_OUTSIDE_EXPORTS, -1, 0);
  }
  return lines;
}

} // namespace mlir::kiln
