//===- verify_debug_info.cc - Verification of the debug information -------===//
//
// The tables that map code back to text: the embedded source texts and the
// line maps between their stages, what each export records beside its code
// (binding types, tiles, locations, provenance, stage locations) and each
// library's address -> line rows. Every index they hold is checked to be in
// range and every line inside its text, so that readers (kiln/debug_info.h,
// kiln/sources.h, the profiler) may trust them.
//
//===----------------------------------------------------------------------===//

#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "module/elf_image.h"
#include "module/module_impl.h"
#include "module/packed_tables.h"
#include "module/verifier_internal.h"

namespace kiln {

namespace {

Status VerifyLocation(const fb::SourceLocation* location) {
  if (location && !location->file()) {
    return InvalidArgumentError("missing file");
  }
  return OkStatus();
}

Status VerifySourceContent(const fb::SourceContent& content) {
  const auto compression = static_cast<uint32_t>(content.compression());
  if (compression > static_cast<uint32_t>(fb::Compression::MAX)) {
    return InvalidArgumentError("invalid compression ", compression);
  }
  const uint64_t size = content.uncompressed_size();
  if (size > kMaxSourceSize) {
    return InvalidArgumentError("uncompressed size ", size,
                                " exceeds the limit of ", kMaxSourceSize,
                                " bytes");
  }
  const uint32_t stored = SizeOf(content.data());
  if (content.compression() == fb::Compression::None) {
    if (stored != size) {
      return InvalidArgumentError("stores ", stored,
                                  " bytes uncompressed but declares ", size);
    }
    return OkStatus();
  }
  // Zstd: exactly one frame that declares the content size, so decompression
  // is bounded by a size known (and limited) before it starts.
  const void* data = stored ? content.data()->data() : nullptr;
  const unsigned long long declared = ZSTD_getFrameContentSize(data, stored);
  if (declared == ZSTD_CONTENTSIZE_ERROR) {
    return InvalidArgumentError("data is not a zstd frame");
  }
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN) {
    return InvalidArgumentError("zstd frame does not declare its content size");
  }
  if (declared != size) {
    return InvalidArgumentError("zstd frame declares ", declared,
                                " bytes but the table records ", size);
  }
  const size_t frame_size = ZSTD_findFrameCompressedSize(data, stored);
  if (ZSTD_isError(frame_size)) {
    return DataLossError("truncated or corrupt zstd frame (",
                         ZSTD_getErrorName(frame_size), ")");
  }
  if (frame_size != stored) {
    return InvalidArgumentError("zstd data is not one frame (", stored,
                                " bytes, the first frame takes ", frame_size,
                                ")");
  }
  return OkStatus();
}

uint32_t LineCountOf(const fb::Module& module, uint32_t source) {
  const fb::SourceFile* file = module.source_files()->Get(source);
  return module.source_contents()->Get(file->content())->line_count();
}

// The lines of text `source` when the table records them (0 for a text
// that is not empty: a table written before counts were recorded).
std::optional<uint32_t> KnownLineCount(const fb::Module& module,
                                       uint32_t source) {
  const fb::SourceFile* file = module.source_files()->Get(source);
  const fb::SourceContent* content =
      module.source_contents()->Get(file->content());
  if (content->line_count() == 0 && content->uncompressed_size() != 0) {
    return std::nullopt;
  }
  return content->line_count();
}

// For each of the module's input files, the lines a row may name: the
// line count of its embedded text, or any line when it is not embedded.
// Input files are sorted (checked before this is used).
std::vector<uint32_t> InputFileLineLimits(const fb::Module& module) {
  const auto* inputs = module.input_files();
  std::vector<uint32_t> limits(SizeOf(inputs), UINT32_MAX);
  for (uint32_t i = 0; i < SizeOf(module.source_files()); ++i) {
    const std::string_view path =
        StringOf(module.source_files()->Get(i)->path());
    uint32_t low = 0, high = SizeOf(inputs);
    while (low < high) {
      const uint32_t mid = low + (high - low) / 2;
      if (StringOf(inputs->Get(mid)) < path) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    if (low < SizeOf(inputs) && StringOf(inputs->Get(low)) == path) {
      limits[low] = LineCountOf(module, i);
    }
  }
  return limits;
}

// The cross-stage line maps: input files sorted and unique; each text's
// previous text in range and no text its own ancestor; each text's packed
// rows of a size it may hold (the rows are checked when unpacked:
// CheckLineOrigins). Runs after the files themselves are checked.
Status VerifyLineOrigins(const fb::Module& module, uint64_t max_buffer_bytes) {
  const uint32_t input_count = SizeOf(module.input_files());
  for (uint32_t i = 0; i < input_count; ++i) {
    if (!module.input_files()->Get(i)) {
      return InvalidArgumentError("input file ", i, ": missing path");
    }
    if (i > 0 &&
        StringOf(module.input_files()->Get(i - 1))
                .compare(StringOf(module.input_files()->Get(i))) >= 0) {
      return InvalidArgumentError(
          "input files are not sorted and unique: "
          "file ",
          i - 1, " '", StringOf(module.input_files()->Get(i - 1)), "', then '",
          StringOf(module.input_files()->Get(i)), "'");
    }
  }
  const uint32_t file_count = SizeOf(module.source_files());
  // Every link is checked before any chain is followed: a chain runs through
  // files after the one it starts from.
  for (uint32_t i = 0; i < file_count; ++i) {
    const fb::SourceFile* file = module.source_files()->Get(i);
    const uint32_t previous = file->previous();
    if (previous != KILN_NO_SOURCE && previous >= file_count) {
      return OutOfRangeError("source file '", StringOf(file->path()),
                             "': previous text ", previous, " out of range (",
                             file_count, " files)");
    }
  }
  // 0: not seen, 1: on the chain being followed, 2: leads to a first stage.
  std::vector<uint8_t> state(file_count, 0);
  for (uint32_t i = 0; i < file_count; ++i) {
    const fb::SourceFile* file = module.source_files()->Get(i);
    const std::string_view path = StringOf(file->path());
    uint32_t at = i;
    while (at != KILN_NO_SOURCE && state[at] == 0) {
      state[at] = 1;
      at = module.source_files()->Get(at)->previous();
    }
    if (at != KILN_NO_SOURCE && state[at] == 1) {
      return InvalidArgumentError("source file '", path,
                                  "': its previous texts lead back to "
                                  "themselves");
    }
    for (at = i; at != KILN_NO_SOURCE && state[at] == 1;
         at = module.source_files()->Get(at)->previous()) {
      state[at] = 2;
    }
    // One row per byte of the text at most: what bounds the rows' memory.
    const uint64_t text_size =
        module.source_contents()->Get(file->content())->uncompressed_size();
    KILN_RETURN_IF_ERROR(
        VerifyPackedRows(file->origins(), text_size, 4, max_buffer_bytes),
        "source file '", path, "': line origins");
  }
  return OkStatus();
}

// Each row names a grid dimension, a dispatch constant and a tile of at
// least 1; which constants exist is the library's to say (checked when it
// is loaded).
Status VerifyWorkgroupTiles(const fb::Export& ex) {
  for (uint32_t i = 0; i < SizeOf(ex.workgroup_tiles()); ++i) {
    const fb::WorkgroupTile* tile = ex.workgroup_tiles()->Get(i);
    if (tile->dimension() > 2 || tile->tile() < 1) {
      return InvalidArgumentError("row ", i, " (dimension ", tile->dimension(),
                                  ", tile ", tile->tile(),
                                  ") needs a dimension of 0 to 2 and a tile "
                                  "of at least 1");
    }
  }
  return OkStatus();
}

}  // namespace

Status VerifyCaptureStages(const fb::Module& module) {
  for (uint32_t i = 0; i < SizeOf(module.capture_stages()); ++i) {
    if (!module.capture_stages()->Get(i)) {
      return InvalidArgumentError("capture stage ", i, ": missing name");
    }
  }
  return OkStatus();
}

// Paths are compared byte-wise (as std::string and the compiler's std::map
// order them); the table must be strictly increasing.
Status VerifySourceTable(const fb::Module& module, uint64_t max_buffer_bytes) {
  const uint32_t content_count = SizeOf(module.source_contents());
  const fb::SourceContent* dictionary = module.source_dictionary();
  if (dictionary) {
    KILN_RETURN_IF_ERROR(VerifySourceContent(*dictionary), "source dictionary");
    if (dictionary->compression() == fb::Compression::ZstdDictionary) {
      return InvalidArgumentError(
          "source dictionary: compressed with a dictionary itself");
    }
  }
  for (uint32_t i = 0; i < content_count; ++i) {
    const fb::SourceContent& content = *module.source_contents()->Get(i);
    KILN_RETURN_IF_ERROR(VerifySourceContent(content), "source content ", i);
    if (content.compression() == fb::Compression::ZstdDictionary &&
        !dictionary) {
      return InvalidArgumentError("source content ", i,
                                  ": compressed with a dictionary the module "
                                  "does not hold");
    }
  }
  const uint32_t file_count = SizeOf(module.source_files());
  std::string_view previous;
  for (uint32_t i = 0; i < file_count; ++i) {
    const fb::SourceFile* file = module.source_files()->Get(i);
    const std::string_view path = StringOf(file->path());
    if (file->content() >= content_count) {
      return OutOfRangeError("source file ", i, " '", path, "': content ",
                             file->content(), " out of range (", content_count,
                             " contents)");
    }
    if (i > 0) {
      const int order = previous.compare(path);
      if (order == 0) {
        return InvalidArgumentError("source file '", path,
                                    "' appears twice (files ", i - 1, " and ",
                                    i, ")");
      }
      if (order > 0) {
        return InvalidArgumentError(
            "source files are not sorted by path: file ", i - 1, " '", previous,
            "' comes before file ", i, " '", path, "'");
      }
    }
    previous = path;
  }
  return VerifyLineOrigins(module, max_buffer_bytes);
}

Status VerifyExportDebugInfo(const fb::Module& module, const fb::Export& ex,
                             WorkBudget* budget) {
  if (const auto* types = ex.binding_types(); types && types->size() != 0) {
    if (types->size() != ex.binding_count()) {
      return InvalidArgumentError("has ", types->size(), " binding types for ",
                                  ex.binding_count(), " bindings");
    }
    SlotInfo info;
    for (uint32_t i = 0; i < types->size(); ++i) {
      KILN_RETURN_IF_ERROR(ConvertTensorType(types->Get(i), budget, &info,
                                             Dimensions::kMayBeDynamic),
                           "binding type ", i);
    }
  }
  KILN_RETURN_IF_ERROR(VerifyWorkgroupTiles(ex), "workgroup tiles");
  for (uint32_t i = 0; i < SizeOf(ex.covering_tiles()); ++i) {
    if (ex.covering_tiles()->Get(i)->tile() < 1) {
      return InvalidArgumentError("covering tiles ", i,
                                  ": a tile of at least 1 is needed");
    }
  }
  if (SizeOf(ex.equal_constants()) % 2 != 0) {
    return InvalidArgumentError(
        "equal constants: ", SizeOf(ex.equal_constants()),
        " entries (pairs expected)");
  }
  KILN_RETURN_IF_ERROR(VerifyLocation(ex.location()), "location");
  for (uint32_t i = 0; i < SizeOf(ex.provenance()); ++i) {
    const fb::FusedOp* op = ex.provenance()->Get(i);
    if (!op->name()) {
      return InvalidArgumentError("provenance ", i, ": missing op name");
    }
    KILN_RETURN_IF_ERROR(VerifyLocation(op->location()), "provenance ", i,
                         " location");
    const uint32_t line = op->location() ? op->location()->line() : 0;
    if (op->last_line() != 0 && op->last_line() <= line) {
      return InvalidArgumentError("provenance ", i, ": last line ",
                                  op->last_line(), " is not past line ", line);
    }
  }
  const uint32_t stage_count = SizeOf(module.capture_stages());
  const uint32_t source_count = SizeOf(module.source_files());
  const auto* locations = ex.stage_locations();
  for (uint32_t i = 0; i < SizeOf(locations); ++i) {
    const fb::StageLocation* location = locations->Get(i);
    if (location->stage() >= stage_count) {
      return OutOfRangeError("stage location ", i, ": stage ",
                             location->stage(), " out of range (", stage_count,
                             " capture stages)");
    }
    if (i > 0 && location->stage() <= locations->Get(i - 1)->stage()) {
      return InvalidArgumentError(
          "stage location ", i, ": stage ", location->stage(), " after stage ",
          locations->Get(i - 1)->stage(),
          " (stage locations must be strictly increasing by stage)");
    }
    if (location->source() >= source_count) {
      return OutOfRangeError("stage location ", i, ": source ",
                             location->source(), " out of range (",
                             source_count, " source files)");
    }
    if (location->line() < 1) {
      return InvalidArgumentError("stage location ", i,
                                  ": line 0 (lines are 1-based)");
    }
    if (const std::optional<uint32_t> lines =
            KnownLineCount(module, location->source());
        lines && location->line() > *lines) {
      return OutOfRangeError(
          "stage location ", i, ": line ", location->line(), " of '",
          StringOf(module.source_files()->Get(location->source())->path()),
          "' is past the end of its text (", *lines, " lines)");
    }
  }
  return OkStatus();
}

Status CheckLineOrigins(const fb::Module& module, uint32_t source,
                        const std::vector<LineOriginView>& origins) {
  const fb::SourceFile* file = module.source_files()->Get(source);
  const std::string_view path = StringOf(file->path());
  const uint32_t previous = file->previous();
  const uint32_t input_count = SizeOf(module.input_files());
  const std::vector<uint32_t> input_lines = InputFileLineLimits(module);
  const uint32_t lines = LineCountOf(module, source);
  const uint32_t previous_lines =
      previous == KILN_NO_SOURCE ? 0 : LineCountOf(module, previous);
  for (uint32_t r = 0; r < origins.size(); ++r) {
    const LineOriginView& row = origins[r];
    if (row.line == 0 || row.line > lines) {
      return OutOfRangeError("source file '", path, "': line origin ", r,
                             " is for line ", row.line, ", outside its ", lines,
                             " lines");
    }
    if (row.previous_line > previous_lines) {
      return OutOfRangeError(
          "source file '", path, "': line origin ", r, " names line ",
          row.previous_line, " of ",
          previous == KILN_NO_SOURCE ? "no previous text" : "its previous text",
          " (", previous_lines, " lines)");
    }
    if (row.input_line == 0 ? row.input_file != 0
                            : row.input_file >= input_count) {
      return OutOfRangeError("source file '", path, "': line origin ", r,
                             " names input file ", row.input_file, " line ",
                             row.input_line, " (", input_count,
                             " input files)");
    }
    if (row.input_line != 0 && row.input_line > input_lines[row.input_file]) {
      return OutOfRangeError(
          "source file '", path, "': line origin ", r, " names line ",
          row.input_line, " of input file '",
          StringOf(module.input_files()->Get(row.input_file)),
          "', past the end of its embedded text (", input_lines[row.input_file],
          " lines)");
    }
    if (r > 0) {
      auto key = [](const LineOriginView& o) {
        return std::make_tuple(o.line, o.previous_line, o.input_file,
                               o.input_line);
      };
      if (key(origins[r - 1]) >= key(row)) {
        return InvalidArgumentError("source file '", path,
                                    "': line origins are not sorted and "
                                    "unique at row ",
                                    r);
      }
    }
  }
  return OkStatus();
}

// The address -> line rows of library `index`: strictly increasing offsets
// inside the image, each naming one of the module's exports in this library
// (or none) and a line of an embedded text.
Status VerifyLibraryLines(const fb::Module& module, uint32_t index,
                          uint64_t max_buffer_bytes) {
  const fb::Library* library = module.libraries()->Get(index);
  if (!library->lines()) return OkStatus();
  // Offsets strictly increase inside the image: one row per byte at most.
  KILN_ASSIGN_OR_RETURN(
      const uint64_t image_end,
      LibraryImageEnd(library->data()->data(), library->data()->size()));
  KILN_RETURN_IF_ERROR(
      VerifyPackedRows(library->lines(), image_end, 4, max_buffer_bytes),
      "line rows");
  return OkStatus();
}

Status CheckLibraryLines(const fb::Module& module, uint32_t index,
                         const std::vector<LibraryLineRow>& lines) {
  const fb::Library* library = module.libraries()->Get(index);
  if (lines.empty()) return OkStatus();
  KILN_ASSIGN_OR_RETURN(
      const uint64_t image_end,
      LibraryImageEnd(library->data()->data(), library->data()->size()));
  // The ordinals the module's exports in this library have (those of the
  // variant it belongs to); the texts each of them has a stage location in,
  // as (ordinal, source); the texts any export of any variant has one in.
  // All sorted.
  std::vector<uint32_t> ordinals, stage_texts;
  std::vector<std::pair<uint32_t, uint32_t>> export_texts;
  for (const fb::CodeVariant* variant : *module.variants()) {
    for (uint32_t e = 0; e < SizeOf(variant->executables()); ++e) {
      const fb::Executable* executable = variant->executables()->Get(e);
      for (uint32_t x = 0; x < SizeOf(executable->exports()); ++x) {
        const fb::Export* ex = executable->exports()->Get(x);
        const bool here = executable->library() == index;
        if (here) ordinals.push_back(ex->library_ordinal());
        for (uint32_t i = 0; i < SizeOf(ex->stage_locations()); ++i) {
          const uint32_t source = ex->stage_locations()->Get(i)->source();
          stage_texts.push_back(source);
          if (here) export_texts.emplace_back(ex->library_ordinal(), source);
        }
      }
    }
  }
  std::sort(ordinals.begin(), ordinals.end());
  std::sort(stage_texts.begin(), stage_texts.end());
  std::sort(export_texts.begin(), export_texts.end());
  const uint32_t source_count = SizeOf(module.source_files());
  const std::vector<uint32_t> input_lines = InputFileLineLimits(module);
  for (uint32_t i = 0; i < lines.size(); ++i) {
    const LibraryLineRow& row = lines[i];
    if (row.offset >= image_end) {
      return OutOfRangeError("line row ", i, ": offset ", row.offset,
                             " is outside the library's image (", image_end,
                             " bytes)");
    }
    if (i > 0 && row.offset <= lines[i - 1].offset) {
      return InvalidArgumentError("line rows are not sorted: row ", i,
                                  " at offset ", row.offset, " follows row ",
                                  i - 1, " at offset ", lines[i - 1].offset);
    }
    const uint32_t ordinal = row.export_ordinal;
    const bool outside = ordinal == KILN_LIBRARY_LINE_OUTSIDE_EXPORTS;
    if (!outside &&
        !std::binary_search(ordinals.begin(), ordinals.end(), ordinal)) {
      return OutOfRangeError("line row ", i, ": export ordinal ", ordinal,
                             " is not one of the module's exports in this "
                             "library");
    }
    if (row.line == 0 || outside) {
      if (row.line != 0 || row.source != 0) {
        return InvalidArgumentError(
            "line row ", i, ": source ", row.source, " line ", row.line,
            outside ? " outside every export" : " without a line",
            " (expected source 0 line 0)");
      }
      continue;
    }
    if (row.source & KILN_LIBRARY_LINE_INPUT_FILE) {
      // A line of an input file the module does not embed (its length is
      // known only if the file is embedded after all).
      const uint32_t input = row.source & ~KILN_LIBRARY_LINE_INPUT_FILE;
      if (input >= SizeOf(module.input_files())) {
        return OutOfRangeError("line row ", i, ": input file ", input,
                               " out of range (", SizeOf(module.input_files()),
                               " input files)");
      }
      if (row.line > input_lines[input]) {
        return OutOfRangeError("line row ", i, ": line ", row.line,
                               " of input file '",
                               StringOf(module.input_files()->Get(input)),
                               "' is past the end of its embedded text (",
                               input_lines[input], " lines)");
      }
      continue;
    }
    if (row.source >= source_count) {
      return OutOfRangeError("line row ", i, ": source ", row.source,
                             " out of range (", source_count, " source files)");
    }
    const fb::SourceFile* file = module.source_files()->Get(row.source);
    const uint32_t line_count =
        module.source_contents()->Get(file->content())->line_count();
    if (row.line > line_count) {
      return OutOfRangeError("line row ", i, ": line ", row.line, " of '",
                             StringOf(file->path()),
                             "' is past the end of "
                             "its text (",
                             line_count, " lines)");
    }
    // An export's code has lines in its own stage texts, or in an input
    // file (a text no export has a stage location in) when the stage the
    // line tables point into was not captured.
    if (std::binary_search(stage_texts.begin(), stage_texts.end(),
                           row.source) &&
        !std::binary_search(export_texts.begin(), export_texts.end(),
                            std::pair{ordinal, row.source})) {
      return InvalidArgumentError(
          "line row ", i, ": export ordinal ", ordinal,
          " has code on a line "
          "of '",
          StringOf(file->path()),
          "', which is not one of its stage texts but another export's");
    }
  }
  if (lines.back().export_ordinal != KILN_LIBRARY_LINE_OUTSIDE_EXPORTS) {
    return InvalidArgumentError("the last line row (", lines.size() - 1,
                                ") lies in an export: the ranges must end "
                                "with a row outside every export");
  }
  return OkStatus();
}

}  // namespace kiln
