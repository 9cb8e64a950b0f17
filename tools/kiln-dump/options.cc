//===- options.cc - What kiln-dump's flags ask for ------------------------===//

#include "options.h"

#include <algorithm>
#include <charconv>

namespace kiln::dump {

StatusOr<PathLine> SplitPathLine(std::string_view flag,
                                 std::string_view argument, bool is_path) {
  const PathLine whole = {argument, 0};
  if (is_path) return whole;
  const size_t colon = argument.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == argument.size()) {
    return whole;
  }
  const std::string_view digits = argument.substr(colon + 1);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return whole;
  }
  uint32_t line = 0;
  auto result =
      std::from_chars(digits.data(), digits.data() + digits.size(), line);
  if (result.ec != std::errc() || line == 0) {
    return InvalidArgumentError("--", flag, ": line '", digits,
                                "' must be in [1, 4294967295]");
  }
  return PathLine{argument.substr(0, colon), line};
}

}  // namespace kiln::dump
