//===- view_output.cc - How kiln-dump's views print -----------------------===//

#include "view_output.h"

#include "support/tool_output.h"

namespace kiln::dump {

using kiln::tools::Print;
using nlohmann::json;

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

Status PrintText(std::string_view text) {
  if (!Print(text)) return InvalidArgumentError("cannot write to stdout");
  return OkStatus();
}

Status PrintJson(const json& document) {
  // Texts and paths may hold invalid UTF-8; replace it rather than fail.
  std::string text =
      document.dump(2, ' ', false, json::error_handler_t::replace);
  text.push_back('\n');
  return PrintText(text);
}

}  // namespace kiln::dump
