//===- packed_rows.h - The module format's packed row tables ----*- C++ -*-===//
//
// Shared by the compiler (which packs line tables into modules) and the
// runtime (which unpacks them on first use). Header-only; depends on the
// C++ standard library alone.
//
// A packed table holds `count` rows of N unsigned values, sorted. It is
// stored column by column: for each column, every row's value as the
// difference from the row before (the first row: from 0), each difference
// one LEB128 varint. A kAscending column stores the plain difference (the
// column never decreases; 64-bit values); a kDelta32 column stores the
// difference of 32-bit values modulo 2^32, zigzag-coded as a signed 32-bit
// number so that small steps either way take one byte. Sorted rows of
// small steps pack into a few bytes each, and the bytes compress well
// (the module stores them as one zstd frame, PackedRows in module.fbs).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PACKED_ROWS_H_
#define KILN_PACKED_ROWS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::packed_rows {

enum class Column : uint8_t {
  kAscending,  // non-decreasing 64-bit values: unsigned differences
  kDelta32,    // any 32-bit values: zigzag of the modular difference
};

/// SourceFile.origins: line, previous_line, input_file, input_line.
inline constexpr std::array<Column, 4> kLineOriginColumns = {
    Column::kAscending, Column::kDelta32, Column::kDelta32, Column::kDelta32};
/// Library.lines: offset, export_ordinal, source, line.
inline constexpr std::array<Column, 4> kLibraryLineColumns = {
    Column::kAscending, Column::kDelta32, Column::kDelta32, Column::kDelta32};

/// The most bytes one value takes (a 64-bit LEB128 varint).
inline constexpr size_t kMaxVarintBytes = 10;

inline void AppendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

/// Reads one varint at `*cursor` (advanced past it); false when the bytes
/// end first or it runs past kMaxVarintBytes or 64 bits.
inline bool ReadVarint(const uint8_t** cursor, const uint8_t* end,
                       uint64_t* value) {
  uint64_t result = 0;
  for (size_t i = 0; i < kMaxVarintBytes; ++i) {
    if (*cursor == end) return false;
    const uint8_t byte = *(*cursor)++;
    const uint64_t bits = byte & 0x7F;
    if (i == kMaxVarintBytes - 1 && bits > 1) return false;
    result |= bits << (7 * i);
    if (!(byte & 0x80)) {
      *value = result;
      return true;
    }
  }
  return false;
}

inline uint32_t ZigZag32(uint32_t difference) {
  const int32_t signed_difference = static_cast<int32_t>(difference);
  return (difference << 1) ^ static_cast<uint32_t>(signed_difference >> 31);
}

inline uint32_t UnZigZag32(uint32_t coded) {
  return (coded >> 1) ^ (0u - (coded & 1));
}

/// The packed bytes of `rows` (each row N values; kDelta32 columns must
/// hold 32-bit values, kAscending columns must not decrease).
template <size_t N>
std::string Pack(const std::vector<std::array<uint64_t, N>>& rows,
                 const std::array<Column, N>& columns) {
  std::string out;
  for (size_t c = 0; c < N; ++c) {
    uint64_t previous = 0;
    for (const std::array<uint64_t, N>& row : rows) {
      if (columns[c] == Column::kAscending) {
        AppendVarint(out, row[c] - previous);
      } else {
        AppendVarint(out, ZigZag32(static_cast<uint32_t>(row[c]) -
                                   static_cast<uint32_t>(previous)));
      }
      previous = row[c];
    }
  }
  return out;
}

/// Unpacks `count` rows from exactly `size` bytes into `rows` (resized);
/// false when the bytes are malformed: a varint cut short or too long, a
/// kDelta32 step wider than 32 bits, a kAscending column overflowing 64
/// bits, or bytes left over. Order and ranges beyond that are the
/// caller's to check. `rows` must already be affordable: callers bound
/// `count` (every row takes at least N bytes, so count <= size / N).
template <size_t N>
bool Unpack(const uint8_t* data, size_t size, size_t count,
            const std::array<Column, N>& columns,
            std::vector<std::array<uint64_t, N>>* rows) {
  if (count > size / N) return false;
  rows->resize(count);
  const uint8_t* cursor = data;
  const uint8_t* const end = data + size;
  for (size_t c = 0; c < N; ++c) {
    uint64_t previous = 0;
    for (size_t r = 0; r < count; ++r) {
      uint64_t step = 0;
      if (!ReadVarint(&cursor, end, &step)) return false;
      if (columns[c] == Column::kAscending) {
        if (step > UINT64_MAX - previous) return false;
        previous += step;
      } else {
        if (step > UINT32_MAX) return false;
        previous =
            static_cast<uint32_t>(static_cast<uint32_t>(previous) +
                                  UnZigZag32(static_cast<uint32_t>(step)));
      }
      (*rows)[r][c] = previous;
    }
  }
  return cursor == end;
}

}  // namespace kiln::packed_rows

#endif  // KILN_PACKED_ROWS_H_
