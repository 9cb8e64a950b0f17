//===- source_table.h - The module's embedded source files --------*- C++ -*-===//
//
// kiln-dump --sources: one row per embedded source file (path, raw and
// stored size, compression, hash) and their totals. The summary ends with
// the same table, shorter; --extract-sources checks the totals first.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_SOURCE_TABLE_H_
#define KILN_TOOLS_KILN_DUMP_SOURCE_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "kiln/module.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "nlohmann/json.hpp"

namespace kiln::dump {

struct SourceTotals {
  uint64_t files = 0;
  uint64_t contents = 0;
  uint64_t raw_bytes = 0;           // over files: what extraction writes
  uint64_t distinct_raw_bytes = 0;  // over distinct contents
  uint64_t stored_bytes = 0;        // over distinct contents: module bytes
  uint64_t too_large = 0;
  uint64_t line_origins = 0;  // cross-stage line map rows
  uint64_t line_origin_bytes = 0;  // what they take in the module, packed
  uint64_t dictionary_bytes = 0;   // the texts' zstd dictionary, if any
  uint64_t dictionary_stored_bytes = 0;
};

SourceTotals ComputeTotals(const SourceTable& table);

/// "N files (N distinct contents): N raw bytes (...)", without a newline.
std::string TotalsLine(const SourceTotals& totals);

/// The rows of --sources; `indent` prefixes every line; `full` adds the hash
/// and the Tracy note.
std::string SourcesTable(const SourceTable& table, std::string_view indent,
                         bool full);

/// The files and totals as JSON, as --sources --json prints them.
nlohmann::json SourcesJson(const SourceTable& table);

/// --sources: the table and its totals, or the JSON.
Status ShowSources(const Module& module, bool as_json);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_SOURCE_TABLE_H_
