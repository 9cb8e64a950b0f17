//===- view_output.h - How kiln-dump's views print ----------------*- C++ -*-===//
//
// Every view prints either aligned text or one JSON document (--json).
// Names and paths come from the module and may hold anything: text views
// print them through kiln::Printable.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_VIEW_OUTPUT_H_
#define KILN_TOOLS_KILN_DUMP_VIEW_OUTPUT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "kiln/status.h"
#include "nlohmann/json.hpp"

namespace kiln::dump {

/// `text` with spaces appended up to `width`.
std::string Pad(std::string text, size_t width);

/// Prints `text`; an error when it could not be written.
Status PrintText(std::string_view text);

/// Prints `document`, indented, and a newline; invalid UTF-8 in its texts
/// and paths is replaced rather than refused.
Status PrintJson(const nlohmann::json& document);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_VIEW_OUTPUT_H_
