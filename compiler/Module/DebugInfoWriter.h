//===- DebugInfoWriter.h - a module's debug information -----------*- C++ -*-===//
//
// Writes the debug information of the chosen --executable-debug-level into
// a module's FlatBuffer (schema/module.fbs): each export's input location,
// provenance and stage locations, the source table, the line origins of the
// captured stage texts, the library's address -> line rows and the input
// files they name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_MODULE_DEBUGINFOWRITER_H_
#define KILN_MODULE_DEBUGINFOWRITER_H_

#include "Dialect/Kiln/IR/InputOps.h"
#include "Dialect/Kiln/IR/KilnOps.h"
#include "Module/EmbeddedSources.h"
#include "Target/CPU/LibraryBuilder.h"
#include "kiln/module_generated.h"
#include "kiln/packed_rows.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mlir::kiln {

/// The debug information of one module, written into its builder table by
/// table.
class DebugInfoWriter {
public:
  /// The debug information of one export.
  struct ExportDebugInfo {
    flatbuffers::Offset<::kiln::fb::SourceLocation> location;
    flatbuffers::Offset<
        flatbuffers::Vector<flatbuffers::Offset<::kiln::fb::FusedOp>>>
        provenance;
    flatbuffers::Offset<
        flatbuffers::Vector<flatbuffers::Offset<::kiln::fb::StageLocation>>>
        stageLocations;
  };

  /// Numbers the texts of `sources` (the source table is sorted by path)
  /// and the input files that their line origins and the line tables of
  /// `libraries` name; `captureStages` are the stages captured at level 3 in
  /// pipeline order. Writes into `builder`.
  DebugInfoWriter(ModuleOp moduleOp, ArrayRef<CPULibrary> libraries,
                  int debugLevel, ArrayRef<std::string> captureStages,
                  EmbeddedSources &sources,
                  flatbuffers::FlatBufferBuilder &builder);

  /// The input location, provenance and stage locations of `exportOp`, as
  /// far as the debug level asks for them.
  FailureOr<ExportDebugInfo>
  serializeExportDebugInfo(ExecutableExportOp exportOp);

  /// `library`'s address -> line rows with each file its line table names
  /// resolved to its index in the source table.
  flatbuffers::Offset<::kiln::fb::PackedRows>
  serializeLibraryLines(const CPULibrary &library);

  /// Writes the source table: each distinct text once (zstd when smaller),
  /// files sorted by path.
  std::pair<
      flatbuffers::Offset<
          flatbuffers::Vector<flatbuffers::Offset<::kiln::fb::SourceFile>>>,
      flatbuffers::Offset<
          flatbuffers::Vector<flatbuffers::Offset<::kiln::fb::SourceContent>>>>
  serializeSourceTable();

  /// Module.source_dictionary: the dictionary the texts were compressed
  /// with, if they were.
  flatbuffers::Offset<::kiln::fb::SourceContent> serializeSourceDictionary();

  /// The names of the captured stages in pipeline order (Module.stages).
  std::vector<flatbuffers::Offset<flatbuffers::String>> serializeStageNames();

  /// Module.input_files: the input files that the texts' line origins and
  /// the libraries' line tables name, by stored path, sorted.
  const std::vector<std::string> &getInputFiles() const { return inputFiles; }

private:
  std::vector<std::string> capturedStages() const;
  void collectCapturedStages();
  void collectInputFiles();
  flatbuffers::Offset<::kiln::fb::SourceLocation>
  serializeLocation(FileLineColLoc loc);
  std::pair<uint32_t, flatbuffers::Offset<::kiln::fb::PackedRows>>
  serializeLineOrigins(const EmbeddedSources::File &file);
  flatbuffers::Offset<::kiln::fb::PackedRows> serializePackedRows(
      const std::vector<std::array<uint64_t, 4>> &rows,
      const std::array<::kiln::packed_rows::Column, 4> &columns);
  flatbuffers::Offset<::kiln::fb::SourceContent>
  serializeContent(const EmbeddedSources::Content &content);

  ModuleOp moduleOp;
  ArrayRef<CPULibrary> libraries;
  int debugLevel;
  ArrayRef<std::string> captureStages;
  EmbeddedSources &sources;
  flatbuffers::FlatBufferBuilder &builder;
  InputOpTable inputOps;
  std::set<std::string> stagesSeen;
  /// Path -> index in the source table.
  llvm::StringMap<uint32_t> sourceIndices;
  /// Module.input_files, and the index of each.
  std::vector<std::string> inputFiles;
  llvm::StringMap<uint32_t> inputFileIndices;
};

} // namespace mlir::kiln

#endif // KILN_MODULE_DEBUGINFOWRITER_H_
