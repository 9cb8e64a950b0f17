//===- sources.cc - Source table views and decompression ------------------===//
//
// The table was verified at load (sorted unique paths, content indices in
// range, sizes bounded, zstd frames declaring their exact content size), so
// the accessors here read it without further checks; decompression still
// checks everything it writes, as the data itself is only hashed on use.
//
//===----------------------------------------------------------------------===//

#include "kiln/sources.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "kiln/module_generated.h"
#include "module/packed_tables.h"

namespace kiln {

std::string FormatHash(uint64_t hash) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (int shift = 60; shift >= 0; shift -= 4) {
    out.push_back(kDigits[(hash >> shift) & 0xf]);
  }
  return out;
}

/// Module.source_dictionary, decompressed (and its hash checked) on first
/// use.
class SourceDictionary {
 public:
  explicit SourceDictionary(const fb::SourceContent* content)
      : content_(content) {}

  StatusOr<const std::vector<char>*> Get() const {
    const StatusOr<std::vector<char>>& bytes =
        unpacked_.Get(0, [this]() -> StatusOr<std::vector<char>> {
          SourceFileView view;
          view.path = "(dictionary)";
          view.compression =
              static_cast<SourceCompression>(content_->compression());
          view.uncompressed_size = content_->uncompressed_size();
          view.hash = content_->hash();
          view.stored_data = content_->data()->data();
          view.stored_size = content_->data()->size();
          std::vector<char> out(view.uncompressed_size);
          KILN_RETURN_IF_ERROR(view.DecompressInto(out.data(), out.size()));
          return out;
        });
    if (!bytes.ok()) return bytes.status();
    return &*bytes;
  }

 private:
  const fb::SourceContent* content_;
  mutable UnpackedTables<char> unpacked_{1};
};

std::string_view SourceCompressionName(SourceCompression compression) {
  switch (compression) {
    case SourceCompression::kNone:
      return "none";
    case SourceCompression::kZstd:
      return "zstd";
    case SourceCompression::kZstdDictionary:
      return "zstd+dict";
  }
  return "unknown";
}

uint64_t HashSource(const void* data, size_t size) {
  return XXH3_64bits(data, size);
}

std::optional<std::string_view> FindLine(std::string_view text, uint32_t line) {
  if (line == 0) return std::nullopt;
  size_t begin = 0;
  for (uint32_t i = 1; i < line; ++i) {
    begin = text.find('\n', begin);
    if (begin == std::string_view::npos) return std::nullopt;
    ++begin;
  }
  if (begin == text.size()) return std::nullopt;  // after a final '\n'
  const size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string_view::npos
                                ? std::string_view::npos
                                : end - begin);
}

//===----------------------------------------------------------------------===//
// SourceFileView
//===----------------------------------------------------------------------===//

Status SourceFileView::DecompressInto(void* buffer, size_t capacity) const {
  // Built only on error: the success path allocates nothing itself.
  auto context = [this] { return StrCat("source '", path, "'"); };
  if (uncompressed_size > capacity) {
    return OutOfRangeError(context(), ": needs ", uncompressed_size,
                           " bytes, the buffer holds ", capacity);
  }
  if (!buffer && uncompressed_size > 0) {
    return InvalidArgumentError(context(), ": buffer is null");
  }
  if (!stored_data && stored_size > 0) {
    return InvalidArgumentError(context(), ": stored data is null");
  }
  const size_t size = static_cast<size_t>(uncompressed_size);
  switch (compression) {
    case SourceCompression::kNone:
      if (stored_size != uncompressed_size) {
        return DataLossError(context(), ": stores ", stored_size,
                             " bytes uncompressed but declares ",
                             uncompressed_size);
      }
      if (size) std::memcpy(buffer, stored_data, size);
      break;
    case SourceCompression::kZstd:
    case SourceCompression::kZstdDictionary: {
      // A text compressed with the module's dictionary needs it.
      const std::vector<char>* dictionary_bytes = nullptr;
      if (compression == SourceCompression::kZstdDictionary) {
        if (!dictionary) {
          return DataLossError(context(),
                               ": compressed with a dictionary the module "
                               "does not hold");
        }
        const StatusOr<const std::vector<char>*> unpacked = dictionary->Get();
        KILN_RETURN_IF_ERROR(unpacked.status(), context(),
                             ": the module's dictionary");
        dictionary_bytes = *unpacked;
      }
      std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> zstd(ZSTD_createDCtx(),
                                                              ZSTD_freeDCtx);
      if (!zstd) {
        return ResourceExhaustedError(context(), ": no zstd context");
      }
      // The destination capacity is the declared size: zstd stops with an
      // error rather than write past it.
      char empty;
      const size_t written = ZSTD_decompress_usingDict(
          zstd.get(), size ? buffer : &empty, size, stored_data, stored_size,
          dictionary_bytes ? dictionary_bytes->data() : nullptr,
          dictionary_bytes ? dictionary_bytes->size() : 0);
      if (ZSTD_isError(written)) {
        return DataLossError(context(), ": zstd decompression failed: ",
                             ZSTD_getErrorName(written));
      }
      if (written != size) {
        return DataLossError(context(), ": decompressed to ", written,
                             " bytes, expected ", uncompressed_size);
      }
      break;
    }
    default:
      return UnimplementedError(context(), ": unknown compression ",
                                static_cast<int>(compression));
  }
  const uint64_t actual = HashSource(size ? buffer : "", size);
  if (actual != hash) {
    return DataLossError(context(), ": content hash mismatch (text hashes to ",
                         FormatHash(actual), ", the table records ",
                         FormatHash(hash), ")");
  }
  // The verifier checks line tables against the recorded count; here the
  // count meets the text (0: a module from before it was recorded).
  if (line_count != 0) {
    const char* text = static_cast<const char*>(buffer);
    const uint64_t lines = std::count(text, text + size, '\n') +
                           (size != 0 && text[size - 1] != '\n');
    if (lines != line_count) {
      return DataLossError(context(), ": the text has ", lines,
                           " lines, the table records ", line_count);
    }
  }
  return OkStatus();
}

StatusOr<std::string> SourceFileView::Decompress() const {
  if (uncompressed_size > kMaxSourceSize) {
    return OutOfRangeError("source '", path, "': ", uncompressed_size,
                           " bytes exceeds the limit of ", kMaxSourceSize);
  }
  // Up to 1 GiB: what a process may not have, which is an error to report,
  // not an abort.
  std::string text;
  try {
    text.resize(static_cast<size_t>(uncompressed_size));
  } catch (const std::bad_alloc&) {
    return ResourceExhaustedError("source '", path, "': out of memory for its ",
                                  uncompressed_size, " bytes");
  }
  KILN_RETURN_IF_ERROR(DecompressInto(text.data(), text.size()));
  return text;
}

//===----------------------------------------------------------------------===//
// SourceTable
//===----------------------------------------------------------------------===//

uint32_t SourceTable::size() const {
  const auto* files = module_ ? module_->source_files() : nullptr;
  return files ? files->size() : 0;
}

uint32_t SourceTable::content_count() const {
  const auto* contents = module_ ? module_->source_contents() : nullptr;
  return contents ? contents->size() : 0;
}

uint64_t SourceTable::dictionary_size() const {
  const fb::SourceContent* dictionary =
      module_ ? module_->source_dictionary() : nullptr;
  return dictionary ? dictionary->uncompressed_size() : 0;
}

size_t SourceTable::dictionary_stored_size() const {
  const fb::SourceContent* dictionary =
      module_ ? module_->source_dictionary() : nullptr;
  return dictionary && dictionary->data() ? dictionary->data()->size() : 0;
}

SourceFileView SourceTable::file(uint32_t index) const {
  const fb::SourceFile* file = module_->source_files()->Get(index);
  const fb::SourceContent* content =
      module_->source_contents()->Get(file->content());
  SourceFileView view;
  view.path = file->path()->string_view();
  view.compression = static_cast<SourceCompression>(content->compression());
  view.uncompressed_size = content->uncompressed_size();
  view.hash = content->hash();
  if (const auto* data = content->data()) {
    view.stored_data = data->data();
    view.stored_size = data->size();
  }
  view.content = file->content();
  view.dictionary = dictionary_.get();
  view.line_count = content->line_count();
  view.previous = file->previous();
  if (const fb::PackedRows* origins = file->origins()) {
    view.origin_count = origins->count();
    view.origin_stored_size = origins->data() ? origins->data()->size() : 0;
  }
  return view;
}

/// The line origins of a table's files, unpacked on first use.
class UnpackedOrigins : public UnpackedTables<LineOriginView> {
 public:
  using UnpackedTables::UnpackedTables;
};

SourceTable::SourceTable(const fb::Module* module)
    : module_(module),
      unpacked_origins_(std::make_shared<UnpackedOrigins>(
          module && module->source_files() ? module->source_files()->size()
                                           : 0)) {
  if (module && module->source_dictionary()) {
    dictionary_ =
        std::make_shared<SourceDictionary>(module->source_dictionary());
  }
}

StatusOr<const std::vector<LineOriginView>*> SourceTable::origins(
    uint32_t source) const {
  const StatusOr<std::vector<LineOriginView>>& rows = unpacked_origins_->Get(
      source, [&] { return UnpackLineOrigins(*module_, source); });
  if (!rows.ok()) return rows.status();
  return &*rows;
}

std::pair<uint32_t, uint32_t> SourceTable::FindOrigins(
    const std::vector<LineOriginView>& origins, uint32_t line) {
  const auto first = std::partition_point(
      origins.begin(), origins.end(),
      [line](const LineOriginView& row) { return row.line < line; });
  const auto last = std::partition_point(
      first, origins.end(),
      [line](const LineOriginView& row) { return row.line == line; });
  return {static_cast<uint32_t>(first - origins.begin()),
          static_cast<uint32_t>(last - origins.begin())};
}

uint32_t SourceTable::input_file_count() const {
  const auto* files = module_ ? module_->input_files() : nullptr;
  return files ? files->size() : 0;
}

std::string_view SourceTable::input_file(uint32_t index) const {
  return module_->input_files()->Get(index)->string_view();
}

std::optional<uint32_t> SourceTable::FindInputFile(
    std::string_view path) const {
  const auto* files = module_ ? module_->input_files() : nullptr;
  if (!files) return std::nullopt;
  // Sorted byte-wise (verified), as string_view compares.
  const auto it =
      std::lower_bound(files->begin(), files->end(), path,
                       [](const flatbuffers::String* file, std::string_view p) {
                         return file->string_view() < p;
                       });
  if (it == files->end() || it->string_view() != path) return std::nullopt;
  return static_cast<uint32_t>(it - files->begin());
}

std::optional<uint32_t> SourceTable::FindIndex(std::string_view path) const {
  const auto* files = module_ ? module_->source_files() : nullptr;
  if (!files) return std::nullopt;
  // Paths are sorted byte-wise (verified), as string_view compares.
  const auto it =
      std::lower_bound(files->begin(), files->end(), path,
                       [](const fb::SourceFile* file, std::string_view p) {
                         return file->path()->string_view() < p;
                       });
  if (it == files->end() || it->path()->string_view() != path) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(it - files->begin());
}

std::optional<SourceFileView> SourceTable::Find(std::string_view path) const {
  const std::optional<uint32_t> index = FindIndex(path);
  if (!index) return std::nullopt;
  return file(*index);
}

}  // namespace kiln
