//===- source_table.cc - The module's embedded source files ---------------===//

#include "source_table.h"

#include <algorithm>
#include <vector>

#include "kiln/module_format.h"
#include "kiln/printable.h"
#include "view_output.h"

namespace kiln::dump {

using nlohmann::json;

namespace {

/// Tracy transfers source files of at most this many bytes.
constexpr uint64_t kTracySourceLimit = KILN_TRACY_MAX_SOURCE_BYTES;

std::string PadLeft(std::string text, size_t width) {
  if (text.size() < width) text.insert(0, width - text.size(), ' ');
  return text;
}

}  // namespace

SourceTotals ComputeTotals(const SourceTable& table) {
  SourceTotals totals;
  totals.files = table.size();
  totals.dictionary_bytes = table.dictionary_size();
  totals.dictionary_stored_bytes = table.dictionary_stored_size();
  std::vector<bool> seen(table.content_count(), false);
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    totals.raw_bytes += file.uncompressed_size;
    totals.too_large += file.uncompressed_size > kTracySourceLimit;
    totals.line_origins += file.origin_count;
    totals.line_origin_bytes += file.origin_stored_size;
    if (!seen[file.content]) {
      seen[file.content] = true;
      ++totals.contents;
      totals.distinct_raw_bytes += file.uncompressed_size;
      totals.stored_bytes += file.stored_size;
    }
  }
  return totals;
}

json SourcesJson(const SourceTable& table) {
  json files = json::array();
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    files.push_back(
        {{"path", std::string(file.path)},
         {"raw_size", file.uncompressed_size},
         {"stored_size", file.stored_size},
         {"compression", std::string(SourceCompressionName(file.compression))},
         {"hash", FormatHash(file.hash)},
         {"content", file.content},
         {"too_large_for_tracy", file.uncompressed_size > kTracySourceLimit},
         {"previous", file.previous == kNoSource
                          ? json(nullptr)
                          : json(std::string(table[file.previous].path))},
         {"line_origins", file.origin_count},
         {"line_origin_bytes", file.origin_stored_size}});
  }
  const SourceTotals totals = ComputeTotals(table);
  return json{{"files", files},
              {"tracy_limit", kTracySourceLimit},
              {"totals",
               {{"files", totals.files},
                {"distinct_contents", totals.contents},
                {"raw_bytes", totals.raw_bytes},
                {"distinct_raw_bytes", totals.distinct_raw_bytes},
                {"stored_bytes", totals.stored_bytes},
                {"too_large_for_tracy", totals.too_large},
                {"line_origins", totals.line_origins},
                {"line_origin_bytes", totals.line_origin_bytes},
                {"dictionary_bytes", totals.dictionary_bytes},
                {"dictionary_stored_bytes", totals.dictionary_stored_bytes}}}};
}

std::string TotalsLine(const SourceTotals& totals) {
  std::string line =
      StrCat(totals.files, " files (", totals.contents,
             " distinct contents): ", totals.raw_bytes, " raw bytes (",
             totals.distinct_raw_bytes, " distinct), ", totals.stored_bytes,
             " stored bytes");
  if (totals.too_large) {
    line += StrCat("; ", totals.too_large, " too large for Tracy");
  }
  if (totals.line_origins) {
    line += StrCat("; ", totals.line_origins, " line map rows");
  }
  if (totals.dictionary_stored_bytes) {
    line += StrCat("; a ", totals.dictionary_bytes, "-byte zstd dictionary (",
                   totals.dictionary_stored_bytes, " stored)");
  }
  return line;
}

std::string SourcesTable(const SourceTable& table, std::string_view indent,
                         bool full) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"PATH", "RAW", "STORED", "COMPRESSION"});
  if (full) rows.back().push_back("HASH");
  for (uint32_t i = 0; i < table.size(); ++i) {
    const SourceFileView file = table[i];
    rows.push_back({Printable(file.path), StrCat(file.uncompressed_size),
                    StrCat(file.stored_size),
                    std::string(SourceCompressionName(file.compression))});
    if (full) {
      rows.back().push_back(FormatHash(file.hash));
      if (file.uncompressed_size > kTracySourceLimit) {
        rows.back().push_back(
            StrCat("too large for Tracy (> ", kTracySourceLimit, " bytes)"));
      }
    }
  }
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      if (c >= widths.size()) widths.push_back(0);
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line(indent);
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) line.append("  ");
      const bool last = c + 1 == row.size();
      // Sizes are right-aligned; the last column is not padded.
      if (c == 1 || c == 2) {
        line += PadLeft(row[c], widths[c]);
      } else {
        line += last ? row[c] : Pad(row[c], widths[c]);
      }
    }
    out += line + "\n";
  }
  return out;
}

Status ShowSources(const Module& module, bool as_json) {
  const SourceTable& table = module.sources();
  if (as_json) return PrintJson(SourcesJson(table));
  std::string out;
  if (table.empty()) {
    out = "no embedded sources (compile with --executable-debug-level=3)\n";
  } else {
    out = SourcesTable(table, "", /*full=*/true);
    out += "\n" + TotalsLine(ComputeTotals(table)) + "\n";
  }
  return PrintText(out);
}

}  // namespace kiln::dump
