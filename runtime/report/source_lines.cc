//===- source_lines.cc - Lines of a module's embedded texts ---------------===//

#include "kiln/source_lines.h"

#include <algorithm>
#include <string_view>

#include "kiln/printable.h"
#include "kiln/sources.h"
#include "kiln/status.h"

namespace kiln {

std::string SourceLines::Get(uint32_t source, uint32_t line) {
  auto [it, inserted] = texts_.try_emplace(source);
  if (inserted) {
    StatusOr<std::string> text = module_.sources().file(source).Decompress();
    it->second =
        text.ok() ? std::move(text).value() : std::optional<std::string>();
  }
  if (!it->second) return "(text unavailable)";
  std::optional<std::string_view> found = FindLine(*it->second, line);
  if (!found) return "(no such line)";
  std::string_view content = *found;
  // Indentation says nothing beside a location.
  content.remove_prefix(
      std::min(content.find_first_not_of(" \t"), content.size()));
  return PrintableSourceLine(content);
}

}  // namespace kiln
