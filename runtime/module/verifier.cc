//===- verifier.cc - Structural and semantic module verification ----------===//
//
// After this passes, the runtime trusts the module: every index is in range,
// every size and type is consistent, every buffer holds what is written into
// it, and in a function without branches every slot is written exactly once
// before it is read, and never read once its buffer was written again. (With
// branches a slot may be written again, and whether it was written, or its
// buffer written since, depends on the path taken: the Context checks that
// as it runs.) Each failure names what failed.
//
//===----------------------------------------------------------------------===//

#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/float_convert.h"
#include "flatbuffers/flatbuffers.h"
#include "kiln/check_handler.h"
#include "module/module_impl.h"

namespace kiln {

static_assert(static_cast<int>(fb::Compression::None) ==
                      static_cast<int>(SourceCompression::kNone) &&
                  static_cast<int>(fb::Compression::Zstd) ==
                      static_cast<int>(SourceCompression::kZstd) &&
                  fb::Compression::MAX == fb::Compression::Zstd,
              "kiln::SourceCompression must mirror fb::Compression");
static_assert(static_cast<int>(fb::ElementType::MAX) + 1 == kElementTypeCount,
              "kiln::ElementType must mirror fb::ElementType");
static_assert(static_cast<int>(fb::ElementType::F32) ==
                      static_cast<int>(ElementType::kF32) &&
                  static_cast<int>(fb::ElementType::BF16) ==
                      static_cast<int>(ElementType::kBF16) &&
                  static_cast<int>(fb::ElementType::I1) ==
                      static_cast<int>(ElementType::kI1) &&
                  static_cast<int>(fb::ElementType::I64) ==
                      static_cast<int>(ElementType::kI64) &&
                  static_cast<int>(fb::ElementType::F8E5M2) ==
                      static_cast<int>(ElementType::kF8E5M2) &&
                  static_cast<int>(fb::ElementType::F4E2M1FN) ==
                      static_cast<int>(ElementType::kF4E2M1FN),
              "kiln::ElementType values must equal fb::ElementType values");
static_assert(static_cast<int>(fb::CheckKind::True) ==
                      static_cast<int>(CheckKind::kTrue) &&
                  static_cast<int>(fb::CheckKind::False) ==
                      static_cast<int>(CheckKind::kFalse) &&
                  static_cast<int>(fb::CheckKind::AllTrue) ==
                      static_cast<int>(CheckKind::kAllTrue) &&
                  static_cast<int>(fb::CheckKind::Equal) ==
                      static_cast<int>(CheckKind::kEqual) &&
                  static_cast<int>(fb::CheckKind::AlmostEqual) ==
                      static_cast<int>(CheckKind::kAlmostEqual) &&
                  fb::CheckKind::MAX == fb::CheckKind::AlmostEqual,
              "kiln::CheckKind must mirror fb::CheckKind");

namespace {

// Bounds the work (and memory) of verification by the module's size. A
// FlatBuffer may reference one table from many places, so a small file could
// otherwise make the verifier visit or copy the same data without end.
// Modules kiln-compile writes share nothing and stay far below the budget.
class WorkBudget {
 public:
  explicit WorkBudget(size_t module_size)
      : left_(2 * uint64_t{module_size} + (uint64_t{1} << 20)),
        module_size_(module_size) {}

  Status Spend(uint64_t units) {
    if (units > left_) {
      return ResourceExhaustedError(
          "module refers to its tables too many times for its size (",
          module_size_,
          " bytes): verification would not end in reasonable "
          "time");
    }
    left_ -= units;
    return OkStatus();
  }

 private:
  uint64_t left_;
  const size_t module_size_;
};

// Which types may leave dimensions to run time: those of function slots,
// arguments and results and of export bindings, not of constants.
enum class Dimensions : uint8_t { kStatic, kMayBeDynamic };

Status ConvertTensorType(const fb::TensorType* fb_type, WorkBudget* budget,
                         SlotInfo* out,
                         Dimensions dimensions = Dimensions::kStatic) {
  if (!fb_type) return InvalidArgumentError("missing type");
  const auto element_type = static_cast<uint32_t>(fb_type->element_type());
  if (!IsValidElementType(element_type)) {
    return InvalidArgumentError("invalid element type ", element_type);
  }
  out->type.element_type = static_cast<ElementType>(element_type);
  out->type.shape.clear();
  if (const auto* shape = fb_type->shape()) {
    // The FlatBuffers verifier checks the alignment of a vector's length, not
    // of its 8-byte elements (an empty vector has none to read).
    if (shape->size() != 0 &&
        reinterpret_cast<uintptr_t>(shape->data()) % alignof(int64_t) != 0) {
      return InvalidArgumentError("shape is not 8-byte aligned");
    }
    if (shape->size() > kMaxTensorRank) {
      return InvalidArgumentError("rank ", shape->size(),
                                  " exceeds the limit of ", kMaxTensorRank);
    }
    // A copy costs about a slot's bookkeeping plus its dimensions.
    KILN_RETURN_IF_ERROR(budget->Spend(8 + shape->size()));
    out->type.shape.assign(shape->begin(), shape->end());
  }
  out->dynamic = false;
  for (int64_t dim : out->type.shape) {
    out->dynamic = out->dynamic || dim == KILN_DYNAMIC_DIMENSION;
  }
  if (!out->dynamic) {
    return ComputeTensorSize(out->type.element_type, out->type.shape, nullptr,
                             &out->byte_size);
  }
  if (dimensions == Dimensions::kStatic) {
    return InvalidArgumentError("dynamic dimension in ", out->type.ToString());
  }
  // The static dimensions alone must make a valid size; the whole is known
  // only at run time.
  Shape static_part = out->type.shape;
  for (int64_t& dim : static_part) {
    if (dim == KILN_DYNAMIC_DIMENSION) dim = 1;
  }
  out->byte_size = 0;
  return ComputeTensorSize(out->type.element_type, static_part, nullptr,
                           nullptr);
}

Status VerifyLibraries(const fb::Module& module) {
  for (uint32_t i = 0; i < SizeOf(module.libraries()); ++i) {
    const fb::Library* library = module.libraries()->Get(i);
    std::string_view format = StringOf(library->format());
    if (format != KILN_LIBRARY_FORMAT_ELF_X86_64) {
      return UnimplementedError("library ", i, ": unsupported format '", format,
                                "' (expected '" KILN_LIBRARY_FORMAT_ELF_X86_64
                                "')");
    }
    if (SizeOf(library->data()) == 0) {
      return InvalidArgumentError("library ", i, ": no data");
    }
    // Before anything parses the image: the ELF checks and the dynamic
    // loader trust much of it.
    const uint64_t hash =
        HashSource(library->data()->data(), library->data()->size());
    if (hash != library->hash()) {
      return DataLossError("library ", i, ": content hash mismatch (stored ",
                           FormatHash(library->hash()), ", computed ",
                           FormatHash(hash),
                           "): the library image is corrupted");
    }
  }
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Debug information
//===----------------------------------------------------------------------===//

Status VerifyLocation(const fb::SourceLocation* location) {
  if (location && !location->file()) {
    return InvalidArgumentError("missing file");
  }
  return OkStatus();
}

Status VerifyCaptureStages(const fb::Module& module) {
  for (uint32_t i = 0; i < SizeOf(module.capture_stages()); ++i) {
    if (!module.capture_stages()->Get(i)) {
      return InvalidArgumentError("capture stage ", i, ": missing name");
    }
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
// previous text in range and no text its own ancestor; rows strictly
// increasing, every line inside its text. Runs after the files themselves
// are checked.
Status VerifyLineOrigins(const fb::Module& module) {
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
  const std::vector<uint32_t> input_lines = InputFileLineLimits(module);
  // Every link is checked before any chain is followed: a chain runs through
  // files after the one it starts from.
  for (uint32_t i = 0; i < file_count; ++i) {
    const fb::SourceFile* file = module.source_files()->Get(i);
    const uint32_t previous = file->previous();
    if (previous != KILN_NO_SOURCE && previous >= file_count) {
      return OutOfRangeError("source file '", StringOf(file->path()),
                             "': previous text ", previous,
                             " out of range (", file_count, " files)");
    }
  }
  // 0: not seen, 1: on the chain being followed, 2: leads to a first stage.
  std::vector<uint8_t> state(file_count, 0);
  for (uint32_t i = 0; i < file_count; ++i) {
    const fb::SourceFile* file = module.source_files()->Get(i);
    const uint32_t previous = file->previous();
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
    const auto* origins = file->origins();
    const uint32_t lines = LineCountOf(module, i);
    const uint32_t previous_lines =
        previous == KILN_NO_SOURCE ? 0 : LineCountOf(module, previous);
    for (uint32_t r = 0; r < SizeOf(origins); ++r) {
      const fb::LineOrigin* row = origins->Get(r);
      if (row->line() == 0 || row->line() > lines) {
        return OutOfRangeError("source file '", path, "': line origin ", r,
                               " is for line ", row->line(), ", outside its ",
                               lines, " lines");
      }
      if (row->previous_line() > previous_lines) {
        return OutOfRangeError("source file '", path, "': line origin ", r,
                               " names line ", row->previous_line(), " of ",
                               previous == KILN_NO_SOURCE ? "no previous text"
                                                          : "its previous text",
                               " (", previous_lines, " lines)");
      }
      if (row->input_line() == 0 ? row->input_file() != 0
                                 : row->input_file() >= input_count) {
        return OutOfRangeError("source file '", path, "': line origin ", r,
                               " names input file ", row->input_file(),
                               " line ", row->input_line(), " (", input_count,
                               " input files)");
      }
      if (row->input_line() != 0 &&
          row->input_line() > input_lines[row->input_file()]) {
        return OutOfRangeError(
            "source file '", path, "': line origin ", r, " names line ",
            row->input_line(), " of input file '",
            StringOf(module.input_files()->Get(row->input_file())),
            "', past the end of its embedded text (",
            input_lines[row->input_file()], " lines)");
      }
      if (r > 0) {
        const fb::LineOrigin* before = origins->Get(r - 1);
        auto key = [](const fb::LineOrigin* o) {
          return std::make_tuple(o->line(), o->previous_line(), o->input_file(),
                                 o->input_line());
        };
        if (key(before) >= key(row)) {
          return InvalidArgumentError("source file '", path,
                                      "': line origins are not sorted and "
                                      "unique at row ",
                                      r);
        }
      }
    }
  }
  return OkStatus();
}

// Paths are compared byte-wise (as std::string and the compiler's std::map
// order them); the table must be strictly increasing.
Status VerifySourceTable(const fb::Module& module) {
  const uint32_t content_count = SizeOf(module.source_contents());
  for (uint32_t i = 0; i < content_count; ++i) {
    KILN_RETURN_IF_ERROR(VerifySourceContent(*module.source_contents()->Get(i)),
                         "source content ", i);
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
  return VerifyLineOrigins(module);
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

// The address -> line rows of library `index`: strictly increasing offsets
// inside the image, each naming one of the module's exports in this library
// (or none) and a line of an embedded text.
Status VerifyLibraryLines(const fb::Module& module, uint32_t index) {
  const fb::Library* library = module.libraries()->Get(index);
  const auto* lines = library->lines();
  if (SizeOf(lines) == 0) return OkStatus();
  // FlatBuffers' verifier aligns a vector's length, not its elements: rows
  // (8-byte aligned for their offset, in the 64-byte aligned buffer) at
  // another address would be read misaligned.
  if (reinterpret_cast<uintptr_t>(lines->Data()) % alignof(fb::LibraryLine) !=
      0) {
    return DataLossError("line rows are not ", alignof(fb::LibraryLine),
                         "-byte aligned");
  }
  KILN_ASSIGN_OR_RETURN(
      const uint64_t image_end,
      LibraryImageEnd(library->data()->data(), library->data()->size()));
  // The ordinals the module's exports in this library have; the texts
  // each of them has a stage location in, as (ordinal, source); the texts
  // any export of the module has one in. All sorted.
  std::vector<uint32_t> ordinals, stage_texts;
  std::vector<std::pair<uint32_t, uint32_t>> export_texts;
  for (uint32_t e = 0; e < SizeOf(module.executables()); ++e) {
    const fb::Executable* executable = module.executables()->Get(e);
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
  std::sort(ordinals.begin(), ordinals.end());
  std::sort(stage_texts.begin(), stage_texts.end());
  std::sort(export_texts.begin(), export_texts.end());
  const uint32_t source_count = SizeOf(module.source_files());
  const std::vector<uint32_t> input_lines = InputFileLineLimits(module);
  for (uint32_t i = 0; i < lines->size(); ++i) {
    const fb::LibraryLine* row = lines->Get(i);
    if (row->offset() >= image_end) {
      return OutOfRangeError("line row ", i, ": offset ", row->offset(),
                             " is outside the library's image (", image_end,
                             " bytes)");
    }
    if (i > 0 && row->offset() <= lines->Get(i - 1)->offset()) {
      return InvalidArgumentError(
          "line rows are not sorted: row ", i, " at offset ", row->offset(),
          " follows row ", i - 1, " at offset ", lines->Get(i - 1)->offset());
    }
    const uint32_t ordinal = row->export_ordinal();
    const bool outside = ordinal == KILN_LIBRARY_LINE_OUTSIDE_EXPORTS;
    if (!outside &&
        !std::binary_search(ordinals.begin(), ordinals.end(), ordinal)) {
      return OutOfRangeError("line row ", i, ": export ordinal ", ordinal,
                             " is not one of the module's exports in this "
                             "library");
    }
    if (row->line() == 0 || outside) {
      if (row->line() != 0 || row->source() != 0) {
        return InvalidArgumentError(
            "line row ", i, ": source ", row->source(), " line ", row->line(),
            outside ? " outside every export" : " without a line",
            " (expected source 0 line 0)");
      }
      continue;
    }
    if (row->source() & KILN_LIBRARY_LINE_INPUT_FILE) {
      // A line of an input file the module does not embed (its length is
      // known only if the file is embedded after all).
      const uint32_t input = row->source() & ~KILN_LIBRARY_LINE_INPUT_FILE;
      if (input >= SizeOf(module.input_files())) {
        return OutOfRangeError("line row ", i, ": input file ", input,
                               " out of range (", SizeOf(module.input_files()),
                               " input files)");
      }
      if (row->line() > input_lines[input]) {
        return OutOfRangeError("line row ", i, ": line ", row->line(),
                               " of input file '",
                               StringOf(module.input_files()->Get(input)),
                               "' is past the end of its embedded text (",
                               input_lines[input], " lines)");
      }
      continue;
    }
    if (row->source() >= source_count) {
      return OutOfRangeError("line row ", i, ": source ", row->source(),
                             " out of range (", source_count, " source files)");
    }
    const fb::SourceFile* file = module.source_files()->Get(row->source());
    const uint32_t line_count =
        module.source_contents()->Get(file->content())->line_count();
    if (row->line() > line_count) {
      return OutOfRangeError("line row ", i, ": line ", row->line(), " of '",
                             StringOf(file->path()),
                             "' is past the end of "
                             "its text (",
                             line_count, " lines)");
    }
    // An export's code has lines in its own stage texts, or in an input
    // file (a text no export has a stage location in) when the stage the
    // line tables point into was not captured.
    if (std::binary_search(stage_texts.begin(), stage_texts.end(),
                           row->source()) &&
        !std::binary_search(export_texts.begin(), export_texts.end(),
                            std::pair{ordinal, row->source()})) {
      return InvalidArgumentError(
          "line row ", i, ": export ordinal ", ordinal,
          " has code on a line "
          "of '",
          StringOf(file->path()),
          "', which is not one of its stage texts but another export's");
    }
  }
  if (lines->Get(lines->size() - 1)->export_ordinal() !=
      KILN_LIBRARY_LINE_OUTSIDE_EXPORTS) {
    return InvalidArgumentError("the last line row (", lines->size() - 1,
                                ") lies in an export: the ranges must end "
                                "with a row outside every export");
  }
  return OkStatus();
}

Status VerifyExecutables(const fb::Module& module, WorkBudget* budget) {
  const uint32_t library_count = SizeOf(module.libraries());
  for (uint32_t i = 0; i < SizeOf(module.executables()); ++i) {
    const fb::Executable* executable = module.executables()->Get(i);
    const std::string context =
        StrCat("executable ", i, " '", StringOf(executable->name()), "'");
    if (executable->library() >= library_count) {
      return OutOfRangeError(context, ": library ", executable->library(),
                             " out of range (", library_count, " libraries)");
    }
    for (uint32_t e = 0; e < SizeOf(executable->exports()); ++e) {
      const fb::Export* ex = executable->exports()->Get(e);
      if (StringOf(ex->name()).empty()) {
        return InvalidArgumentError(context, " export ", e, ": missing name");
      }
      const auto* count = ex->workgroup_count();
      if (SizeOf(count) != 3) {
        return InvalidArgumentError(context, " export '", StringOf(ex->name()),
                                    "': workgroup count has ", SizeOf(count),
                                    " entries (expected 3)");
      }
      uint64_t total = 1;
      for (uint32_t d = 0; d < 3; ++d) {
        if (count->Get(d) < 1) {
          return InvalidArgumentError(
              context, " export '", StringOf(ex->name()), "': workgroup count ",
              count->Get(0), "x", count->Get(1), "x", count->Get(2),
              " has a zero entry");
        }
        total *= count->Get(d);  // total <= 2^32 before: cannot overflow
        if (total > kMaxWorkgroupsPerDispatch) {
          return InvalidArgumentError(
              context, " export '", StringOf(ex->name()), "': workgroup count ",
              count->Get(0), "x", count->Get(1), "x", count->Get(2),
              " exceeds the limit of ", kMaxWorkgroupsPerDispatch,
              " workgroups");
        }
      }
      KILN_RETURN_IF_ERROR(VerifyExportDebugInfo(module, *ex, budget), context,
                           " export '", StringOf(ex->name()), "'");
    }
  }
  return OkStatus();
}

Status VerifyConstants(const fb::Module& module, const uint8_t* buffer,
                       WorkBudget* budget,
                       std::vector<SlotInfo>* constant_types) {
  constant_types->resize(SizeOf(module.constants()));
  for (uint32_t i = 0; i < SizeOf(module.constants()); ++i) {
    const fb::Constant* constant = module.constants()->Get(i);
    SlotInfo& info = (*constant_types)[i];
    KILN_RETURN_IF_ERROR(ConvertTensorType(constant->type(), budget, &info),
                         "constant ", i);
    const uint32_t data_size = SizeOf(constant->data());
    if (data_size != info.byte_size) {
      return InvalidArgumentError("constant ", i, ": data is ", data_size,
                                  " bytes, but ", info.type.ToString(),
                                  " needs ", info.byte_size);
    }
    // The schema promises force_align: 64 and kernels may rely on it.
    const size_t offset = data_size ? constant->data()->data() - buffer : 0;
    if (offset % 64 != 0) {
      return InvalidArgumentError("constant ", i, ": data at offset ", offset,
                                  " is not 64-byte aligned");
    }
  }
  return OkStatus();
}

// Tracks which slots hold a value during the linear scan of a function body,
// and which buffer each views: a slot whose buffer a later dispatch wrote
// holds another value's bytes. Relaxed (for functions with branches, where
// the order of the body is not the order of execution), it checks indices
// only.
class SlotTracker {
 public:
  SlotTracker(const std::vector<SlotInfo>& slots, size_t buffer_count,
              bool relaxed, WorkBudget* budget)
      : slots_(slots),
        relaxed_(relaxed),
        budget_(budget),
        state_(slots.size(), State::kUndefined),
        views_(slots.size()),
        generations_(buffer_count, 0) {}

  // `role` names the use in messages ("operand", "result", ...).
  Status CheckIndex(uint32_t slot, std::string_view role) const {
    KILN_RETURN_IF_ERROR(budget_->Spend(1));
    if (slot >= slots_.size()) {
      return OutOfRangeError(role, " slot ", slot, " out of range (",
                             slots_.size(), " slots)");
    }
    return OkStatus();
  }
  Status Read(uint32_t slot, std::string_view role) const {
    KILN_RETURN_IF_ERROR(Holds(slot, role));
    if (relaxed_) return OkStatus();
    const View& view = views_[slot];
    if (view.buffer != kNoBuffer &&
        view.generation != generations_[view.buffer]) {
      return InvalidArgumentError(
          role, " slot ", slot, " is read after buffer ", view.buffer,
          ", which it views, was written again (by the dispatch at "
          "instruction ",
          writers_[view.buffer],
          "): two values live at once must not share a buffer");
    }
    return OkStatus();
  }
  // Whether `slot` holds a value (its bytes may have been overwritten).
  Status Holds(uint32_t slot, std::string_view role) const {
    KILN_RETURN_IF_ERROR(CheckIndex(slot, role));
    if (relaxed_) return OkStatus();
    if (state_[slot] == State::kUndefined) {
      return InvalidArgumentError(role, " slot ", slot,
                                  " is read before it is written");
    }
    if (state_[slot] == State::kReleased) {
      return InvalidArgumentError(role, " slot ", slot,
                                  " is read after it was released");
    }
    return OkStatus();
  }
  // Whether `slot` views what was last written into `buffer`.
  bool Views(uint32_t slot, uint32_t buffer) const {
    return !relaxed_ && views_[slot].buffer == buffer &&
           views_[slot].generation == generations_[buffer];
  }
  // `slot` (written) views what the instruction `pc` writes into `buffer`.
  void WriteBuffer(uint32_t slot, uint32_t buffer, uint32_t pc) {
    if (relaxed_) return;
    writers_.resize(generations_.size());
    writers_[buffer] = pc;
    views_[slot] = {buffer, ++generations_[buffer]};
  }
  // `result` (written) views what `source` views.
  void Alias(uint32_t result, uint32_t source) {
    if (!relaxed_) views_[result] = views_[source];
  }
  Status Write(uint32_t slot, std::string_view role) {
    KILN_RETURN_IF_ERROR(CheckIndex(slot, role));
    if (relaxed_) return OkStatus();
    if (state_[slot] != State::kUndefined) {
      return InvalidArgumentError(role, " slot ", slot,
                                  " is written more than once");
    }
    state_[slot] = State::kLive;
    return OkStatus();
  }
  Status Release(uint32_t slot) {
    KILN_RETURN_IF_ERROR(Holds(slot, "released"));
    state_[slot] = State::kReleased;
    return OkStatus();
  }

 private:
  enum class State : uint8_t { kUndefined, kLive, kReleased };
  static constexpr uint32_t kNoBuffer = KILN_NEW_BUFFER;
  struct View {
    uint32_t buffer = kNoBuffer;  // none: not in a buffer
    uint64_t generation = 0;      // which write of the buffer it views
  };
  const std::vector<SlotInfo>& slots_;
  const bool relaxed_;
  WorkBudget* budget_;
  std::vector<State> state_;
  std::vector<View> views_;
  // Per buffer: how many times it was written, and the last writer.
  std::vector<uint64_t> generations_;
  std::vector<uint32_t> writers_;
};

// A slot of `type` may be bound to a verified binding type: the same
// element type and rank, and each dimension the binding fixes fixed alike
// (a dynamic binding dimension takes any).
bool Binds(const TensorType& type, const fb::TensorType& binding) {
  if (static_cast<uint32_t>(type.element_type) !=
      static_cast<uint32_t>(binding.element_type())) {
    return false;
  }
  const auto* shape = binding.shape();
  if (SizeOf(shape) != type.shape.size()) return false;
  for (uint32_t d = 0; d < type.shape.size(); ++d) {
    if (shape->Get(d) != KILN_DYNAMIC_DIMENSION &&
        shape->Get(d) != type.shape[d]) {
      return false;
    }
  }
  return true;
}

bool IsIntegerType(ElementType type) {
  return type == ElementType::kI1 || type == ElementType::kI8 ||
         type == ElementType::kI16 || type == ElementType::kI32 ||
         type == ElementType::kI64;
}

bool IsFloatType(ElementType type) {
  return type == ElementType::kF32 || type == ElementType::kF64 ||
         NarrowFloatFormat(type) != nullptr;
}

class FunctionVerifier {
 public:
  FunctionVerifier(const fb::Module& module,
                   const std::vector<SlotInfo>& constant_types,
                   uint64_t max_buffer_bytes, WorkBudget* budget,
                   const fb::Function& function, FunctionPlan* plan,
                   FunctionSignature* signature)
      : module_(module),
        constant_types_(constant_types),
        max_buffer_bytes_(max_buffer_bytes),
        budget_(budget),
        function_(function),
        plan_(plan),
        signature_(signature) {}

  // Errors are prefixed "function 'NAME' <part>: ".
  Status Verify() {
    const std::string_view name = StringOf(function_.name());
    const std::string prefix = StrCat("function '", name, "'");
    plan_->function = &function_;
    signature_->name = std::string(name);

    plan_->slots.resize(SizeOf(function_.slot_types()));
    for (uint32_t i = 0; i < plan_->slots.size(); ++i) {
      SlotInfo& slot = plan_->slots[i];
      KILN_RETURN_IF_ERROR(
          ConvertTensorType(function_.slot_types()->Get(i), budget_, &slot,
                            Dimensions::kMayBeDynamic),
          prefix, " slot ", i);
      if (slot.dynamic) {
        slot.dims_offset = plan_->dynamic_dims;
        plan_->dynamic_dims += static_cast<uint32_t>(slot.type.shape.size());
      }
      // Refused now rather than failing (or exhausting memory) mid-run.
      if (plan_->slots[i].byte_size > max_buffer_bytes_) {
        return ResourceExhaustedError(
            prefix, " slot ", i, ": ", plan_->slots[i].type.ToString(),
            " needs ", plan_->slots[i].byte_size,
            " bytes, more than the buffer limit of ", max_buffer_bytes_,
            " bytes (ModuleLoadOptions::max_buffer_bytes; default: physical "
            "memory)");
      }
    }
    const auto* buffer_sizes = function_.buffer_sizes();
    // As for shapes: the FlatBuffers verifier checks the alignment of the
    // length, not of the 8-byte elements.
    if (SizeOf(buffer_sizes) != 0 &&
        reinterpret_cast<uintptr_t>(buffer_sizes->data()) % alignof(uint64_t) !=
            0) {
      return InvalidArgumentError(prefix,
                                  " buffer sizes are not 8-byte aligned");
    }
    // The Context allocates every buffer of a function before its first
    // call: together they are within the limit, as each one is.
    uint64_t total_buffer_bytes = 0;
    for (uint32_t i = 0; i < SizeOf(buffer_sizes); ++i) {
      KILN_RETURN_IF_ERROR(budget_->Spend(1));
      const uint64_t size = buffer_sizes->Get(i);
      if (size > max_buffer_bytes_ - total_buffer_bytes) {
        if (size <= max_buffer_bytes_) {
          return ResourceExhaustedError(
              prefix, " buffers 0 to ", i,
              " add up to more than the buffer limit of ", max_buffer_bytes_,
              " bytes (ModuleLoadOptions::max_buffer_bytes; default: physical "
              "memory)");
        }
        return ResourceExhaustedError(
            prefix, " buffer ", i, " is ", size,
            " bytes, more than the buffer limit of ", max_buffer_bytes_,
            " bytes (ModuleLoadOptions::max_buffer_bytes; default: physical "
            "memory)");
      }
      total_buffer_bytes += size;
      plan_->buffer_sizes.push_back(size);
    }
    std::vector<SlotInfo> results(SizeOf(function_.result_types()));
    for (uint32_t i = 0; i < results.size(); ++i) {
      KILN_RETURN_IF_ERROR(
          ConvertTensorType(function_.result_types()->Get(i), budget_,
                            &results[i], Dimensions::kMayBeDynamic),
          prefix, " result ", i);
      signature_->results.push_back(results[i].type);
    }

    const auto* types = function_.body_type();
    const auto* body = function_.body();
    const uint32_t count = SizeOf(body);
    // Every register is written by an instruction of the body, so there are
    // no more of them than instructions.
    plan_->index_count = function_.index_count();
    if (plan_->index_count > count) {
      return InvalidArgumentError(prefix, " has ", plan_->index_count,
                                  " index registers but ", count,
                                  " instructions");
    }
    bool has_branches = false;
    for (uint32_t pc = 0; pc < count; ++pc) {
      const fb::Op type = types->GetEnum<fb::Op>(pc);
      has_branches = has_branches || type == fb::Op::BranchOp ||
                     type == fb::Op::CondBranchOp;
    }

    // Arguments fill distinct slots, with or without branches.
    SlotTracker argument_tracker(plan_->slots, plan_->buffer_sizes.size(),
                                 /*relaxed=*/false, budget_);
    for (uint32_t i = 0; i < SizeOf(function_.arguments()); ++i) {
      const uint32_t slot = function_.arguments()->Get(i);
      KILN_RETURN_IF_ERROR(argument_tracker.Write(slot, "argument"), prefix,
                           " argument ", i);
      plan_->argument_slots.push_back(slot);
      signature_->arguments.push_back(plan_->slots[slot].type);
    }
    // Names, when given, name every argument and result.
    for (auto [names, count, what, out] :
         {std::tuple{function_.argument_names(), SizeOf(function_.arguments()),
                     "argument", &signature_->argument_names},
          std::tuple{function_.result_names(),
                     SizeOf(function_.result_types()), "result",
                     &signature_->result_names}}) {
      if (SizeOf(names) == 0) continue;
      if (SizeOf(names) != count) {
        return InvalidArgumentError(prefix, " has ", SizeOf(names), " ", what,
                                    " names for ", count, " ", what, "s");
      }
      for (uint32_t i = 0; i < count; ++i) {
        KILN_RETURN_IF_ERROR(budget_->Spend(1));
        out->emplace_back(StringOf(names->Get(i)));
      }
    }
    SlotTracker tracker =
        has_branches ? SlotTracker(plan_->slots, plan_->buffer_sizes.size(),
                                   /*relaxed=*/true, budget_)
                     : argument_tracker;

    bool returned = false;
    for (uint32_t pc = 0; pc < count; ++pc) {
      // Without branches nothing after the return could ever run.
      if (returned && !has_branches) {
        return InvalidArgumentError(prefix, " instruction ", pc,
                                    ": instruction after the return");
      }
      const fb::Op type = types->GetEnum<fb::Op>(pc);
      const void* op = body->Get(pc);
      pc_ = pc;
      KILN_RETURN_IF_ERROR(VerifyInstruction(type, op, results, &tracker),
                           prefix, " instruction ", pc);
      returned = type == fb::Op::ReturnOp;
    }
    if (!has_branches) {
      if (!returned) {
        return InvalidArgumentError(prefix,
                                    ": body does not end with a return");
      }
      return OkStatus();
    }
    // Execution must not run past the last instruction: it has to return or
    // jump (targets were checked above).
    const fb::Op last = types->GetEnum<fb::Op>(count - 1);
    if (last != fb::Op::ReturnOp && last != fb::Op::BranchOp &&
        last != fb::Op::CondBranchOp) {
      return InvalidArgumentError(
          prefix, ": execution can fall off the end of the body (instruction ",
          count - 1, " is a ", fb::EnumNameOp(last),
          "; the last instruction must be a return or a branch)");
    }
    KILN_RETURN_IF_ERROR(CheckNoEndlessLoop(), prefix);
    return OkStatus();
  }

 private:
  Status CheckSlotType(uint32_t slot, const SlotInfo& expected,
                       std::string_view what) const {
    const SlotInfo& actual = plan_->slots[slot];
    if (actual.type != expected.type) {
      return InvalidArgumentError("slot ", slot, " has type ",
                                  actual.type.ToString(), " but ", what, " is ",
                                  expected.type.ToString());
    }
    return OkStatus();
  }

  Status VerifyInstruction(fb::Op type, const void* op,
                           const std::vector<SlotInfo>& results,
                           SlotTracker* tracker) {
    switch (type) {
      case fb::Op::ConstantOp:
        return VerifyConstantOp(*static_cast<const fb::ConstantOp*>(op),
                                tracker);
      case fb::Op::DispatchOp:
        return VerifyDispatchOp(*static_cast<const fb::DispatchOp*>(op),
                                tracker);
      case fb::Op::ReshapeOp:
        return VerifyReshapeOp(*static_cast<const fb::ReshapeOp*>(op), tracker);
      case fb::Op::ReleaseOp: {
        const auto* slots = static_cast<const fb::ReleaseOp*>(op)->slots();
        for (uint32_t i = 0; i < SizeOf(slots); ++i) {
          KILN_RETURN_IF_ERROR(tracker->Release(slots->Get(i)));
        }
        return OkStatus();
      }
      case fb::Op::ReturnOp:
        return VerifyReturnOp(*static_cast<const fb::ReturnOp*>(op), results,
                              tracker);
      case fb::Op::BranchOp:
        return VerifyTarget(static_cast<const fb::BranchOp*>(op)->target(),
                            "branch target");
      case fb::Op::CondBranchOp:
        return VerifyCondBranchOp(*static_cast<const fb::CondBranchOp*>(op),
                                  tracker);
      case fb::Op::CheckOp:
        return VerifyCheckOp(*static_cast<const fb::CheckOp*>(op), tracker);
      case fb::Op::DimOp:
        return VerifyDimOp(*static_cast<const fb::DimOp*>(op), tracker);
      case fb::Op::ExtractOp:
        return VerifyExtractOp(*static_cast<const fb::ExtractOp*>(op), tracker);
      case fb::Op::IndexOp:
        return VerifyIndexOp(*static_cast<const fb::IndexOp*>(op));
      default:
        break;
    }
    return InvalidArgumentError("unknown instruction type ",
                                static_cast<int>(type));
  }

  Status VerifyRegister(uint32_t index, std::string_view role) const {
    KILN_RETURN_IF_ERROR(budget_->Spend(1));
    if (index >= plan_->index_count) {
      return OutOfRangeError(role, " index register ", index, " out of range (",
                             plan_->index_count, " registers)");
    }
    return OkStatus();
  }

  Status VerifyDimOp(const fb::DimOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.source(), "source"));
    KILN_RETURN_IF_ERROR(VerifyRegister(op.result(), "result"));
    const size_t rank = plan_->slots[op.source()].type.shape.size();
    if (op.dimension() >= rank) {
      return OutOfRangeError("dimension ", op.dimension(), " of slot ",
                             op.source(), " out of range (rank ", rank, ")");
    }
    return OkStatus();
  }

  Status VerifyExtractOp(const fb::ExtractOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.source(), "source"));
    KILN_RETURN_IF_ERROR(VerifyRegister(op.result(), "result"));
    const SlotInfo& source = plan_->slots[op.source()];
    switch (source.type.element_type) {
      case ElementType::kI1:
      case ElementType::kI8:
      case ElementType::kI16:
      case ElementType::kI32:
      case ElementType::kI64:
        break;
      default:
        return InvalidArgumentError("element read of slot ", op.source(),
                                    " of type ", source.type.ToString(),
                                    ": not an integer");
    }
    if (source.dynamic) {
      return InvalidArgumentError("element read of slot ", op.source(),
                                  " of dynamic type ", source.type.ToString());
    }
    const uint64_t count =
        source.byte_size / ElementTypeByteSize(source.type.element_type);
    if (op.element() >= count) {
      return OutOfRangeError("element ", op.element(), " of slot ", op.source(),
                             " out of range (", count, " elements)");
    }
    return OkStatus();
  }

  Status VerifyIndexOp(const fb::IndexOp& op) {
    const auto kind = static_cast<uint32_t>(op.kind());
    if (kind > static_cast<uint32_t>(fb::IndexKind::MAX)) {
      return InvalidArgumentError("invalid index kind ", kind);
    }
    KILN_RETURN_IF_ERROR(VerifyRegister(op.result(), "result"));
    // A constant's operands too: the context reads both before it looks at
    // the kind (the compiler writes register 0).
    KILN_RETURN_IF_ERROR(VerifyRegister(op.lhs(), "lhs"));
    return VerifyRegister(op.rhs(), "rhs");
  }

  Status VerifyConstantOp(const fb::ConstantOp& op, SlotTracker* tracker) {
    const uint32_t constant = op.constant();
    if (constant >= constant_types_.size()) {
      return OutOfRangeError("constant ", constant, " out of range (",
                             constant_types_.size(), " constants)");
    }
    KILN_RETURN_IF_ERROR(tracker->Write(op.result(), "result"));
    return CheckSlotType(op.result(), constant_types_[constant],
                         StrCat("constant ", constant));
  }

  Status VerifyDispatchOp(const fb::DispatchOp& op, SlotTracker* tracker) {
    const uint32_t executable_count = SizeOf(module_.executables());
    if (op.executable() >= executable_count) {
      return OutOfRangeError("executable ", op.executable(), " out of range (",
                             executable_count, " executables)");
    }
    const fb::Executable* executable =
        module_.executables()->Get(op.executable());
    const uint32_t export_count = SizeOf(executable->exports());
    if (op.export_index() >= export_count) {
      return OutOfRangeError(
          "export ", op.export_index(), " out of range (executable '",
          StringOf(executable->name()), "' has ", export_count, " exports)");
    }
    const fb::Export* ex = executable->exports()->Get(op.export_index());
    const uint32_t operand_count = SizeOf(op.operands());
    const uint32_t result_count = SizeOf(op.results());
    if (uint64_t{operand_count} + result_count != ex->binding_count()) {
      return InvalidArgumentError(
          "dispatch of '", StringOf(ex->name()), "' has ",
          uint64_t{operand_count} + result_count, " bindings (", operand_count,
          " operands + ", result_count, " results) but the export has ",
          ex->binding_count());
    }
    for (uint32_t i = 0; i < operand_count; ++i) {
      KILN_RETURN_IF_ERROR(tracker->Read(op.operands()->Get(i), "operand"));
    }
    uint64_t result_dims = 0;
    for (uint32_t i = 0; i < result_count; ++i) {
      const uint32_t slot = op.results()->Get(i);
      KILN_RETURN_IF_ERROR(tracker->Write(slot, "result"));
      for (int64_t dim : plan_->slots[slot].type.shape) {
        result_dims += dim == KILN_DYNAMIC_DIMENSION;
      }
    }
    if (SizeOf(op.result_dims()) != result_dims) {
      return InvalidArgumentError(
          "results have ", result_dims, " dynamic dimensions but ",
          SizeOf(op.result_dims()), " registers name them");
    }
    for (uint32_t i = 0; i < SizeOf(op.result_dims()); ++i) {
      KILN_RETURN_IF_ERROR(VerifyRegister(op.result_dims()->Get(i), "result"));
    }
    if (SizeOf(op.constants()) != ex->index_constant_count()) {
      return InvalidArgumentError(
          "dispatch of '", StringOf(ex->name()), "' passes ",
          SizeOf(op.constants()), " index constants but the export takes ",
          ex->index_constant_count());
    }
    for (uint32_t i = 0; i < SizeOf(op.constants()); ++i) {
      KILN_RETURN_IF_ERROR(VerifyRegister(op.constants()->Get(i), "constant"));
    }
    KILN_RETURN_IF_ERROR(VerifyResultBuffers(op, *tracker));
    for (uint32_t i = 0; i < SizeOf(op.result_buffers()); ++i) {
      const uint32_t buffer = op.result_buffers()->Get(i);
      if (buffer != KILN_NEW_BUFFER) {
        tracker->WriteBuffer(op.results()->Get(i), buffer, pc_);
      }
    }
    // Kernels have their shapes built in: a buffer of another type would be
    // read or written out of bounds.
    if (const auto* types = ex->binding_types(); types && types->size() != 0) {
      for (uint32_t i = 0; i < operand_count + result_count; ++i) {
        const uint32_t slot = i < operand_count
                                  ? op.operands()->Get(i)
                                  : op.results()->Get(i - operand_count);
        const TensorType& actual = plan_->slots[slot].type;
        if (!Binds(actual, *types->Get(i))) {
          SlotInfo expected;
          (void)ConvertTensorType(types->Get(i), budget_, &expected,
                                  Dimensions::kMayBeDynamic);
          return InvalidArgumentError(
              "dispatch of '", StringOf(ex->name()), "' binding ", i,
              " is slot ", slot, " of type ", actual.ToString(),
              " but the export takes ", expected.type.ToString());
        }
      }
    }
    return OkStatus();
  }

  // Where a dispatch's results go: each into a buffer large enough for it
  // (a kernel writes its whole binding), no two into one, none into the
  // buffer an operand views (the kernel would overwrite what it reads).
  Status VerifyResultBuffers(const fb::DispatchOp& op,
                             const SlotTracker& tracker) const {
    const auto* buffers = op.result_buffers();
    if (!buffers) return OkStatus();
    const uint32_t result_count = SizeOf(op.results());
    if (buffers->size() != result_count) {
      return InvalidArgumentError("dispatch has ", result_count,
                                  " results but ", buffers->size(),
                                  " result buffers");
    }
    const std::vector<uint64_t>& sizes = plan_->buffer_sizes;
    for (uint32_t i = 0; i < result_count; ++i) {
      const uint32_t buffer = buffers->Get(i);
      if (buffer == KILN_NEW_BUFFER) continue;
      if (buffer >= sizes.size()) {
        return OutOfRangeError("result ", i, " buffer ", buffer,
                               " out of range (", sizes.size(), " buffers)");
      }
      const uint32_t slot = op.results()->Get(i);
      const SlotInfo& info = plan_->slots[slot];
      // A dynamic result's size is checked when it is known, at run time.
      if (!info.dynamic && info.byte_size > sizes[buffer]) {
        return InvalidArgumentError("result ", i, " (slot ", slot, ", ",
                                    info.type.ToString(), ", ", info.byte_size,
                                    " bytes) is written into buffer ", buffer,
                                    " of ", sizes[buffer], " bytes");
      }
      for (uint32_t j = 0; j < i; ++j) {
        if (buffers->Get(j) == buffer) {
          return InvalidArgumentError("results ", j, " and ", i,
                                      " are written into one buffer (", buffer,
                                      ")");
        }
      }
      for (uint32_t j = 0; j < SizeOf(op.operands()); ++j) {
        if (tracker.Views(op.operands()->Get(j), buffer)) {
          return InvalidArgumentError("operand ", j, " (slot ",
                                      op.operands()->Get(j), ") views buffer ",
                                      buffer, ", which result ", i,
                                      " is written into");
        }
      }
    }
    return OkStatus();
  }

  Status VerifyReshapeOp(const fb::ReshapeOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.source(), "source"));
    KILN_RETURN_IF_ERROR(tracker->Write(op.result(), "result"));
    tracker->Alias(op.result(), op.source());
    const SlotInfo& source = plan_->slots[op.source()];
    const SlotInfo& result = plan_->slots[op.result()];
    if (source.type.element_type != result.type.element_type) {
      return InvalidArgumentError("reshape changes the element type (",
                                  source.type.ToString(), " to ",
                                  result.type.ToString(), ")");
    }
    // Where either side is dynamic, the sizes are compared at run time.
    if (!source.dynamic && !result.dynamic &&
        source.byte_size != result.byte_size) {
      return InvalidArgumentError("reshape changes the size (",
                                  source.type.ToString(), " to ",
                                  result.type.ToString(), ")");
    }
    uint32_t dynamic = 0;
    for (int64_t dim : result.type.shape) {
      dynamic += dim == KILN_DYNAMIC_DIMENSION;
    }
    if (SizeOf(op.result_dims()) != dynamic) {
      return InvalidArgumentError(
          "result has ", dynamic, " dynamic dimensions but ",
          SizeOf(op.result_dims()), " registers name them");
    }
    for (uint32_t i = 0; i < dynamic; ++i) {
      KILN_RETURN_IF_ERROR(VerifyRegister(op.result_dims()->Get(i), "result"));
    }
    return OkStatus();
  }

  Status VerifyReturnOp(const fb::ReturnOp& op,
                        const std::vector<SlotInfo>& results,
                        SlotTracker* tracker) {
    const uint32_t count = SizeOf(op.operands());
    if (count != results.size()) {
      return InvalidArgumentError("return has ", count,
                                  " operands but the function has ",
                                  results.size(), " results");
    }
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t slot = op.operands()->Get(i);
      KILN_RETURN_IF_ERROR(tracker->Read(slot, "returned"));
      KILN_RETURN_IF_ERROR(
          CheckSlotType(slot, results[i], StrCat("result ", i)));
    }
    return OkStatus();
  }

  // Rejects a cycle that only unconditional branches and straight-line code
  // lead through: once entered it never ends (a loop whose exit depends on
  // a condition is the program's business). Each instruction is visited
  // once: O(body).
  Status CheckNoEndlessLoop() const {
    const auto* types = function_.body_type();
    const auto* body = function_.body();
    const uint32_t count = SizeOf(body);
    enum class Mark : uint8_t { kUnknown, kOnPath, kEnds };
    std::vector<Mark> marks(count, Mark::kUnknown);
    std::vector<uint32_t> path;
    for (uint32_t start = 0; start < count; ++start) {
      path.clear();
      uint32_t pc = start;
      while (marks[pc] == Mark::kUnknown) {
        marks[pc] = Mark::kOnPath;
        path.push_back(pc);
        const fb::Op type = types->GetEnum<fb::Op>(pc);
        if (type == fb::Op::ReturnOp || type == fb::Op::CondBranchOp) break;
        // The last instruction is a terminator (checked above): pc + 1 is in
        // range for the others.
        pc = type == fb::Op::BranchOp
                 ? static_cast<const fb::BranchOp*>(body->Get(pc))->target()
                 : pc + 1;
      }
      if (marks[pc] == Mark::kOnPath && pc != path.back()) {
        return InvalidArgumentError(
            "instruction ", path.back(), " leads back to instruction ", pc,
            " with no conditional branch or return in between: an endless "
            "loop");
      }
      if (marks[pc] == Mark::kOnPath) {
        const fb::Op type = types->GetEnum<fb::Op>(pc);
        if (type != fb::Op::ReturnOp && type != fb::Op::CondBranchOp) {
          return InvalidArgumentError("instruction ", pc,
                                      " branches to itself: an endless loop");
        }
      }
      for (uint32_t visited : path) marks[visited] = Mark::kEnds;
    }
    return OkStatus();
  }

  Status VerifyTarget(uint32_t target, std::string_view what) const {
    const uint32_t count = SizeOf(function_.body());
    if (target >= count) {
      return OutOfRangeError(what, " ", target, " out of range (", count,
                             " instructions)");
    }
    return OkStatus();
  }

  Status VerifyCondBranchOp(const fb::CondBranchOp& op, SlotTracker* tracker) {
    KILN_RETURN_IF_ERROR(tracker->Read(op.condition(), "condition"));
    const TensorType& type = plan_->slots[op.condition()].type;
    if (type.element_type != ElementType::kI1 || !type.shape.empty()) {
      return InvalidArgumentError("condition slot ", op.condition(),
                                  " has type ", type.ToString(),
                                  " but must be a 0-d i1 tensor");
    }
    KILN_RETURN_IF_ERROR(VerifyTarget(op.true_target(), "true target"));
    return VerifyTarget(op.false_target(), "false target");
  }

  Status VerifyCheckOp(const fb::CheckOp& op, SlotTracker* tracker) {
    plan_->has_checks = true;
    const auto kind = static_cast<uint32_t>(op.kind());
    if (kind > static_cast<uint32_t>(fb::CheckKind::MAX)) {
      return InvalidArgumentError("invalid check kind ", kind);
    }
    const std::string_view name =
        CheckKindName(static_cast<CheckKind>(op.kind()));
    KILN_RETURN_IF_ERROR(tracker->Read(op.lhs(), "lhs"), "check ", name);
    const TensorType& lhs = plan_->slots[op.lhs()].type;
    switch (op.kind()) {
      case fb::CheckKind::True:
      case fb::CheckKind::False:
        if (!IsIntegerType(lhs.element_type) || !lhs.shape.empty()) {
          return InvalidArgumentError(
              "check ", name, ": lhs slot ", op.lhs(), " has type ",
              lhs.ToString(), " but must be a 0-d integer tensor (i1 to i64)");
        }
        break;
      case fb::CheckKind::AllTrue:
        if (!IsIntegerType(lhs.element_type)) {
          return InvalidArgumentError("check ", name, ": lhs slot ", op.lhs(),
                                      " has type ", lhs.ToString(),
                                      " but must be an integer tensor (i1 to "
                                      "i64)");
        }
        break;
      case fb::CheckKind::Equal:
      case fb::CheckKind::AlmostEqual: {
        KILN_RETURN_IF_ERROR(tracker->Read(op.rhs(), "rhs"), "check ", name);
        const TensorType& rhs = plan_->slots[op.rhs()].type;
        if (lhs != rhs) {
          return InvalidArgumentError("check ", name, ": lhs slot ", op.lhs(),
                                      " has type ", lhs.ToString(),
                                      " but rhs slot ", op.rhs(), " has type ",
                                      rhs.ToString(), " (they must match)");
        }
        if (op.kind() == fb::CheckKind::AlmostEqual &&
            !IsFloatType(lhs.element_type)) {
          return InvalidArgumentError(
              "check ", name, ": operands have type ", lhs.ToString(),
              " but must be float tensors (f16, bf16, f32 or f64)");
        }
        break;
      }
    }
    for (const auto& [what, value] :
         {std::pair<std::string_view, float>{"atol", op.atol()},
          std::pair<std::string_view, float>{"rtol", op.rtol()}}) {
      if (!std::isfinite(value) || value < 0) {
        return InvalidArgumentError("check ", name, ": ", what, " is ", value,
                                    " (must be finite and >= 0)");
      }
    }
    if (!op.location()) {
      return InvalidArgumentError("check ", name,
                                  ": missing location (it may be empty, not "
                                  "absent)");
    }
    return OkStatus();
  }

  const fb::Module& module_;
  const std::vector<SlotInfo>& constant_types_;
  const uint64_t max_buffer_bytes_;
  WorkBudget* budget_;
  const fb::Function& function_;
  FunctionPlan* plan_;
  FunctionSignature* signature_;
  // The instruction being verified.
  uint32_t pc_ = 0;
};

}  // namespace

uint64_t EffectiveMaxBufferBytes(const ModuleLoadOptions& options) {
  if (options.max_buffer_bytes != 0) return options.max_buffer_bytes;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return kMaxTensorByteSize;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

Status VerifyModule(Module::Impl* impl, uint64_t max_buffer_bytes) {
  impl->max_buffer_bytes = max_buffer_bytes;
  const uint8_t* data = impl->data;
  const size_t size = impl->size;
  // The identifier sits at bytes 4..7; check it first for a clear message.
  if (size < 8) {
    return InvalidArgumentError("not a kiln module: file is too small (", size,
                                " bytes)");
  }
  if (!flatbuffers::BufferHasIdentifier(data, KILN_MODULE_IDENTIFIER)) {
    std::string found;
    for (int i = 4; i < 8; ++i) {
      const char c = static_cast<char>(data[i]);
      found.push_back(c >= 0x20 && c < 0x7f ? c : '?');
    }
    return InvalidArgumentError("not a kiln module: file identifier is '",
                                found,
                                "', expected '" KILN_MODULE_IDENTIFIER "'");
  }
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    return InvalidArgumentError("module is too large (", size,
                                " bytes; the format's limit is 2 GiB)");
  }
  // Tables shared through many offsets are verified once per reference, so
  // the default table budget (1M) could refuse big, valid modules; this one
  // still bounds the work.
  flatbuffers::Verifier::Options options;
  options.max_tables = 1u << 24;
  flatbuffers::Verifier verifier(data, size, options);
  if (!fb::VerifyModuleBuffer(verifier)) {
    return DataLossError(
        "module failed FlatBuffers verification (truncated or corrupted)");
  }
  const fb::Module& module = *fb::GetModule(data);
  impl->root = &module;

  if (module.version() != kModuleVersion) {
    return UnimplementedError("unsupported module version ", module.version(),
                              " (this runtime reads version ", kModuleVersion,
                              ")");
  }
  KILN_RETURN_IF_ERROR(VerifyLibraries(module));
  KILN_RETURN_IF_ERROR(VerifyCaptureStages(module));
  KILN_RETURN_IF_ERROR(VerifySourceTable(module));
  WorkBudget budget(size);
  KILN_RETURN_IF_ERROR(VerifyExecutables(module, &budget));
  for (uint32_t i = 0; i < SizeOf(module.libraries()); ++i) {
    KILN_RETURN_IF_ERROR(VerifyLibraryLines(module, i), "library ", i);
  }
  std::vector<SlotInfo> constant_types;
  KILN_RETURN_IF_ERROR(VerifyConstants(module, data, &budget, &constant_types));

  const uint32_t function_count = SizeOf(module.functions());
  impl->functions.resize(function_count);
  impl->signatures.resize(function_count);
  std::unordered_set<std::string_view> names;
  for (uint32_t i = 0; i < function_count; ++i) {
    const fb::Function* function = module.functions()->Get(i);
    const std::string_view name = StringOf(function->name());
    if (name.empty()) {
      return InvalidArgumentError("function ", i, ": missing name");
    }
    if (!names.insert(name).second) {
      return InvalidArgumentError("function '", name, "' is defined twice");
    }
    KILN_RETURN_IF_ERROR(
        FunctionVerifier(module, constant_types, max_buffer_bytes, &budget,
                         *function, &impl->functions[i], &impl->signatures[i])
            .Verify());
  }
  impl->sources = SourceTable(&module);
  return OkStatus();
}

}  // namespace kiln
