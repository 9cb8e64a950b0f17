//===- source_lines.h - Lines of a module's embedded texts ---------*- C++ -*-===//
//
// Single lines of a module's texts, shown beside what a report says (a
// profile's hot lines, a line's counterparts in other stages). Each text is
// decompressed once, on the first line asked of it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCE_LINES_H_
#define KILN_SOURCE_LINES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "kiln/module.h"

namespace kiln {

class SourceLines {
 public:
  explicit SourceLines(const Module& module) : module_(module) {}

  /// Line `line` (1-based) of source `source` without its indentation and
  /// with control characters escaped, or why it cannot be shown
  /// ("(text unavailable)", "(no such line)").
  std::string Get(uint32_t source, uint32_t line);

 private:
  const Module& module_;
  std::map<uint32_t, std::optional<std::string>> texts_;
};

}  // namespace kiln

#endif  // KILN_SOURCE_LINES_H_
