//===- packed_tables.cc - Unpacking the module's packed line tables -------===//

#include "module/packed_tables.h"

#include <zstd.h>

#include <array>
#include <string>

#include "kiln/packed_rows.h"
#include "module/module_impl.h"
#include "module/verifier_internal.h"

namespace kiln {

namespace {

using packed_rows::Column;
using packed_rows::kLibraryLineColumns;
using packed_rows::kLineOriginColumns;

// The rows of a table whose sizes VerifyPackedRows checked at load.
StatusOr<std::vector<std::array<uint64_t, 4>>> Unpack(
    const fb::PackedRows* table, const std::array<Column, 4>& columns) {
  std::vector<std::array<uint64_t, 4>> rows;
  if (!table || table->count() == 0) return rows;
  std::string packed(table->packed_size(), '\0');
  const size_t written =
      ZSTD_decompress(packed.data(), packed.size(), table->data()->data(),
                      table->data()->size());
  if (ZSTD_isError(written)) {
    return DataLossError("zstd decompression failed: ",
                         ZSTD_getErrorName(written));
  }
  if (written != packed.size()) {
    return DataLossError("unpacked to ", written, " bytes, expected ",
                         packed.size());
  }
  if (!packed_rows::Unpack(reinterpret_cast<const uint8_t*>(packed.data()),
                           packed.size(), table->count(), columns, &rows)) {
    return DataLossError("malformed packed rows (", table->count(), " rows in ",
                         packed.size(), " bytes)");
  }
  return rows;
}

}  // namespace

Status VerifyPackedRows(const fb::PackedRows* rows, uint64_t max_count,
                        size_t columns, uint64_t max_bytes) {
  if (!rows) return OkStatus();
  const uint64_t count = rows->count();
  const size_t stored = SizeOf(rows->data());
  if (count == 0) {
    if (stored != 0 || rows->packed_size() != 0) {
      return DataLossError("no rows but ", stored, " stored bytes");
    }
    return OkStatus();
  }
  if (count > max_count) {
    return OutOfRangeError(count, " rows exceed the ", max_count,
                           " the table may hold");
  }
  if (rows->packed_size() < count * columns ||
      rows->packed_size() > count * columns * packed_rows::kMaxVarintBytes) {
    return DataLossError(count, " rows cannot pack into ", rows->packed_size(),
                         " bytes");
  }
  const unsigned long long declared =
      stored ? ZSTD_getFrameContentSize(rows->data()->data(), stored)
             : ZSTD_CONTENTSIZE_ERROR;
  if (declared != rows->packed_size()) {
    return DataLossError("the rows' zstd frame does not declare its ",
                         rows->packed_size(), " bytes");
  }
  // A small frame may declare a large table: refused now rather than
  // exhausting memory when a profile first asks for it.
  const uint64_t unpacked_bytes =
      rows->packed_size() + count * sizeof(std::array<uint64_t, 4>);
  if (unpacked_bytes > max_bytes) {
    return ResourceExhaustedError(count, " rows need ", unpacked_bytes,
                                  " bytes to unpack, more than the buffer "
                                  "limit of ",
                                  max_bytes, " bytes (", kBufferLimitSource,
                                  ")");
  }
  return OkStatus();
}

StatusOr<std::vector<LineOriginView>> UnpackLineOrigins(
    const fb::Module& module, uint32_t source) {
  const fb::SourceFile* file = module.source_files()->Get(source);
  auto rows = Unpack(file->origins(), kLineOriginColumns);
  KILN_RETURN_IF_ERROR(rows.status(), "source file '", StringOf(file->path()),
                       "': line origins");
  std::vector<LineOriginView> origins;
  origins.reserve(rows->size());
  for (const std::array<uint64_t, 4>& row : *rows) {
    if (row[0] > UINT32_MAX) {
      return OutOfRangeError("source file '", StringOf(file->path()),
                             "': line origin for line ", row[0]);
    }
    origins.push_back(
        {static_cast<uint32_t>(row[0]), static_cast<uint32_t>(row[1]),
         static_cast<uint32_t>(row[2]), static_cast<uint32_t>(row[3])});
  }
  KILN_RETURN_IF_ERROR(CheckLineOrigins(module, source, origins));
  return origins;
}

StatusOr<std::vector<LibraryLineRow>> UnpackLibraryLines(
    const fb::Module& module, uint32_t library) {
  auto rows =
      Unpack(module.libraries()->Get(library)->lines(), kLibraryLineColumns);
  KILN_RETURN_IF_ERROR(rows.status(), "library ", library, ": line rows");
  std::vector<LibraryLineRow> lines;
  lines.reserve(rows->size());
  for (const std::array<uint64_t, 4>& row : *rows) {
    lines.push_back({row[0], static_cast<uint32_t>(row[1]),
                     static_cast<uint32_t>(row[2]),
                     static_cast<uint32_t>(row[3])});
  }
  KILN_RETURN_IF_ERROR(CheckLibraryLines(module, library, lines), "library ",
                       library);
  return lines;
}

}  // namespace kiln
