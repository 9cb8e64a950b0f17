//===- sources.h - A module's embedded source table ----------------*- C++ -*-===//
//
// A kiln module carries the texts behind its dispatches (each executable's IR
// at every captured stage, optionally the input files) in one source table,
// sorted by path. SourceTable is a view of that table over the module's
// bytes: listing and looking up files copies nothing and allocates nothing,
// so the table can be handed to a tracer by pointer. Texts are decompressed
// only on request, into a buffer the caller provides (or an owned string),
// and every decompression checks the content hash.
//
// Views point into the Module they came from and are valid while it lives.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_H_
#define KILN_SOURCES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kiln/module_format.h"
#include "kiln/status.h"

namespace kiln {

namespace fb {
struct Module;  // schema/module.fbs, generated in kiln/module_generated.h
}  // namespace fb

/// How a source's bytes are stored; the values equal fb::Compression.
enum class SourceCompression : uint8_t {
  kNone = 0,
  kZstd = 1,  // one zstd frame declaring its content size
  // One zstd frame declaring its content size, made with the module's
  // dictionary (SourceFileView::dictionary).
  kZstdDictionary = 2,
};

/// "none", "zstd" or "zstd+dict" ("unknown" for anything else).
std::string_view SourceCompressionName(SourceCompression compression);

/// Largest uncompressed source the runtime accepts (1 GiB): larger sizes are
/// treated as corruption, so decompressing a verified module never asks for
/// more memory than that per file.
inline constexpr uint64_t kMaxSourceSize = uint64_t{1} << 30;

/// The most text a report file embeds (the chrome trace, the profile
/// report): per text, and in all. A module may hold texts of up to
/// kMaxSourceSize each, which such a file, and the memory it is made in,
/// should not; the files say what they left out.
inline constexpr uint64_t kMaxEmbeddedTextBytes = uint64_t{16} << 20;
inline constexpr uint64_t kMaxEmbeddedTextsBytes = uint64_t{128} << 20;

/// The content hash used by the source table: XXH3-64 of the uncompressed
/// bytes (the compiler computes it with LLVM's xxh3_64bits, which agrees).
uint64_t HashSource(const void* data, size_t size);

/// A hash as kiln shows it: "0x" and 16 hex digits.
std::string FormatHash(uint64_t hash);

/// Line `line` (1-based) of `text` without its '\n', or nullopt when the
/// text has fewer lines (lines end at '\n'; text after the last is one more
/// line, as SourceFileView::line_count counts them).
std::optional<std::string_view> FindLine(std::string_view text, uint32_t line);

/// Index of no source: SourceFileView::previous of a first stage text or
/// an input file.
inline constexpr uint32_t kNoSource = KILN_NO_SOURCE;

/// Where one op line of a captured stage text came from (level 3): a line
/// of the text of the stage before (SourceFileView::previous) and a line of
/// the input program.
struct LineOriginView {
  uint32_t line = 0;           // 1-based line of this text
  uint32_t previous_line = 0;  // 1-based line of the previous text, 0: none
  uint32_t input_file = 0;     // index into SourceTable::input_file()
  uint32_t input_line = 0;     // 1-based, 0: none
};

/// A module's source dictionary, decompressed on first use (sources.cc).
class SourceDictionary;

/// One file of a source table. Every field points into (or was read from)
/// the module's bytes; files with equal texts share a content.
struct SourceFileView {
  std::string_view path;
  SourceCompression compression = SourceCompression::kNone;
  /// Size of the text once decompressed.
  uint64_t uncompressed_size = 0;
  /// HashSource() of the text.
  uint64_t hash = 0;
  /// The bytes as stored in the module (compressed or not).
  const uint8_t* stored_data = nullptr;
  size_t stored_size = 0;
  /// Index of the shared content in the module's content table.
  uint32_t content = 0;
  /// Number of lines the text has (0 in modules that do not record it).
  uint32_t line_count = 0;
  /// For a captured stage text: the text of the stage captured before it
  /// (an index into the table), or kNoSource.
  uint32_t previous = kNoSource;
  /// Number of line origin rows (SourceTable::origin).
  uint32_t origin_count = 0;
  /// Bytes those rows take in the module (packed and compressed).
  size_t origin_stored_size = 0;
  /// The module's dictionary, which a kZstdDictionary text needs (null
  /// when the module has none); shared by the table's files.
  const SourceDictionary* dictionary = nullptr;

  /// Writes exactly `uncompressed_size` bytes of text to `buffer`, which
  /// must hold `capacity >= uncompressed_size` bytes, and checks the hash
  /// and the line count.
  /// Fails (kDataLoss) on corrupt or truncated data or a hash or line
  /// count mismatch; the
  /// buffer's contents are then unspecified, but nothing is written past
  /// `uncompressed_size`. Allocates nothing on success but a zstd
  /// decompression context (and, once per module, its dictionary).
  Status DecompressInto(void* buffer, size_t capacity) const;
  /// The text as an owned string (same checks); kResourceExhausted when
  /// the process cannot allocate it.
  StatusOr<std::string> Decompress() const;
};

class UnpackedOrigins;

/// The source table of a module: files sorted by path (byte-wise, unique),
/// each referring to one of the distinct contents.
class SourceTable {
 public:
  /// An empty table.
  SourceTable() = default;
  /// The table of a verified module (Module::sources() is the usual way).
  explicit SourceTable(const fb::Module* module);

  /// Number of files.
  uint32_t size() const;
  bool empty() const { return size() == 0; }
  /// Number of distinct contents (<= size() unless some are unreferenced).
  uint32_t content_count() const;
  /// The module's source dictionary (SourceFileView::dictionary): its size
  /// and the bytes it takes in the module; 0 and 0 without one.
  uint64_t dictionary_size() const;
  size_t dictionary_stored_size() const;

  /// File `index` (< size()), in path order.
  SourceFileView file(uint32_t index) const;
  SourceFileView operator[](uint32_t index) const { return file(index); }

  /// Index of the file called exactly `path`: a binary search over the
  /// sorted table that performs no heap allocation.
  std::optional<uint32_t> FindIndex(std::string_view path) const;
  /// The file called exactly `path` (no heap allocation).
  std::optional<SourceFileView> Find(std::string_view path) const;

  /// The line origins of file `source` (file(source).origin_count rows),
  /// sorted by line, then previous line, input file, input line. Stored
  /// packed: unpacked and checked the first time a file's rows are asked
  /// for (an error then if the module's table is bad), then kept while
  /// the table lives.
  StatusOr<const std::vector<LineOriginView>*> origins(uint32_t source) const;
  /// The rows of `origins` for `line`: [first, last) (binary search).
  static std::pair<uint32_t, uint32_t> FindOrigins(
      const std::vector<LineOriginView>& origins, uint32_t line);
  /// The input program's files that line origins name, sorted by path.
  uint32_t input_file_count() const;
  std::string_view input_file(uint32_t index) const;
  /// Index of the input file called exactly `path` (binary search).
  std::optional<uint32_t> FindInputFile(std::string_view path) const;

 private:
  const fb::Module* module_ = nullptr;
  // The line origins unpacked so far, shared by copies of the table.
  std::shared_ptr<UnpackedOrigins> unpacked_origins_;
  // The module's source dictionary (null without one).
  std::shared_ptr<SourceDictionary> dictionary_;
};

}  // namespace kiln

#endif  // KILN_SOURCES_H_
