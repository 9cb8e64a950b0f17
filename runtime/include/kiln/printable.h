//===- printable.h - Module text made safe to print ---------------*- C++ -*-===//

#ifndef KILN_PRINTABLE_H_
#define KILN_PRINTABLE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kiln {

/// `text` as it may be shown on a terminal or in a line-oriented report:
/// control characters (C0 including '\n' and '\t', DEL, C1), the Unicode
/// controls that reorder or break lines (bidirectional overrides and
/// isolates, line and paragraph separators) and bytes that are not UTF-8
/// are escaped (\xNN for a byte, \uNNNN for a character); everything else,
/// UTF-8 included, is unchanged, and so is escaped text. Every name,
/// location and text read from a module goes through it before it is
/// printed, so none can move the cursor, recolour the terminal or forge a
/// line of a tool's report.
std::string Printable(std::string_view text);

/// Printable, but tabs kept: for a line of a source text, where they are
/// indentation.
std::string PrintableSourceLine(std::string_view line);

/// Line `number` of a source text as the tools show it beside its
/// neighbours: "> 12  text" for the `marked` line, "  12  text" for the
/// others, the number right-aligned in `width` digits, the line through
/// PrintableSourceLine; no newline.
std::string NumberedSourceLine(uint64_t number, bool marked, size_t width,
                               std::string_view line);

/// Lines `first` to `last` (from 1, both included) of a source text, found
/// in one pass with no table of lines (a small module can declare a text of
/// millions of empty lines). A final '\n' starts no line.
struct LineWindow {
  /// The lines, each with its '\n' (the text's last line may have none).
  std::string_view text;
  /// The numbers of its first and last line (last < first: no line).
  uint64_t first = 1;
  uint64_t last = 0;
  /// How many lines the whole text has.
  uint64_t line_count = 0;
};
LineWindow FindLineWindow(std::string_view text, uint64_t first, uint64_t last);

/// Calls `emit` with each line of `window` as NumberedSourceLine shows it,
/// line `marked` marked, numbers `width` digits wide: the window printer of
/// the console tracer and of kiln-dump.
void ForEachNumberedLine(const LineWindow& window, uint64_t marked,
                         size_t width,
                         const std::function<void(const std::string&)>& emit);

}  // namespace kiln

#endif  // KILN_PRINTABLE_H_
