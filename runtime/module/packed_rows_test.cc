//===- packed_rows_test.cc - The packed row codec -------------------------===//

#include "kiln/packed_rows.h"

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kiln::packed_rows {
namespace {

using Rows = std::vector<std::array<uint64_t, 4>>;

Rows Unpacked(const std::string& packed, size_t count,
              const std::array<Column, 4>& columns, bool* ok) {
  Rows rows;
  *ok = Unpack(reinterpret_cast<const uint8_t*>(packed.data()), packed.size(),
               count, columns, &rows);
  return rows;
}

TEST(PackedRowsTest, RoundTripsSortedTables) {
  std::mt19937_64 rng(7);
  for (const auto& columns : {kLineOriginColumns, kLibraryLineColumns}) {
    Rows rows;
    uint64_t first = 0;
    for (int i = 0; i < 1000; ++i) {
      first += rng() % 3 == 0 ? rng() % 100000 : rng() % 4;
      rows.push_back({first, static_cast<uint32_t>(rng()),
                      i % 7 ? 0xFFFFFFFFu : 0x80000000u | (i % 5),
                      static_cast<uint32_t>(rng() % 50)});
    }
    const std::string packed = Pack(rows, columns);
    bool ok = false;
    EXPECT_EQ(Unpacked(packed, rows.size(), columns, &ok), rows);
    EXPECT_TRUE(ok);
  }
}

TEST(PackedRowsTest, SmallStepsTakeOneByteEach) {
  // A stage text's line map: consecutive lines, from nearby lines of the
  // stage before, one input line.
  Rows rows;
  for (uint64_t line = 10; line < 110; ++line)
    rows.push_back({line, line - 3, 0, 7});
  EXPECT_EQ(Pack(rows, kLineOriginColumns).size(), 4u * rows.size());
}

TEST(PackedRowsTest, RefusesMalformedBytes) {
  bool ok = true;
  const Rows rows = {{1, 2, 3, 4}, {5, 1, 3, 0}};
  const std::string packed = Pack(rows, kLineOriginColumns);
  // Too few rows' worth of bytes, bytes left over, one byte short.
  Unpacked(packed, 3, kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
  Unpacked(packed + '\x01', 2, kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
  Unpacked(packed.substr(0, packed.size() - 1), 2, kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
  // A varint that never ends, one past 64 bits, a 32-bit step that is not.
  Unpacked(std::string(11, '\x80') + std::string(3, '\0'), 1,
           kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
  Unpacked(std::string(9, '\xff') + '\x02' + std::string(3, '\0'), 1,
           kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
  std::string wide;
  AppendVarint(wide, 0);
  AppendVarint(wide, uint64_t{1} << 32);
  AppendVarint(wide, 0);
  AppendVarint(wide, 0);
  Unpacked(wide, 1, kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
  // An ascending column that would pass 2^64.
  std::string overflow;
  AppendVarint(overflow, UINT64_MAX);
  AppendVarint(overflow, 1);
  for (int i = 0; i < 6; ++i) AppendVarint(overflow, 0);
  Unpacked(overflow, 2, kLineOriginColumns, &ok);
  EXPECT_FALSE(ok);
}

TEST(PackedRowsTest, ZigZagCodesSmallStepsEitherWay) {
  EXPECT_EQ(ZigZag32(0), 0u);
  EXPECT_EQ(ZigZag32(static_cast<uint32_t>(-1)), 1u);
  EXPECT_EQ(ZigZag32(1), 2u);
  for (uint32_t v : {0u, 1u, 2u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu})
    EXPECT_EQ(UnZigZag32(ZigZag32(v)), v);
}

}  // namespace
}  // namespace kiln::packed_rows
