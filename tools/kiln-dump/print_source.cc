//===- print_source.cc - One embedded source file, numbered ---------------===//

#include "print_source.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kiln/printable.h"
#include "kiln/sources.h"
#include "nlohmann/json.hpp"
#include "support/tool_output.h"
#include "view_output.h"

namespace kiln::dump {

using kiln::tools::Print;
using nlohmann::json;

namespace {

Status NoSuchSource(const Module& module, std::string_view path,
                    const std::string& module_path) {
  if (module.sources().empty()) {
    return NotFoundError("no source file '", Printable(path),
                         "': the module embeds no sources (compile with "
                         "--executable-debug-level=3)");
  }
  return NotFoundError("no source file '", Printable(path),
                       "' in the module (list them with 'kiln-dump ",
                       module_path, " --sources')");
}

}  // namespace

Status PrintSource(const Module& module, const Options& options) {
  const SourceTable& table = module.sources();
  KILN_ASSIGN_OR_RETURN(
      const PathLine argument,
      SplitPathLine("print-source", options.print_source,
                    table.Find(options.print_source).has_value()));
  const std::string_view path = argument.path;
  const uint32_t line = argument.line;
  std::optional<SourceFileView> file = table.Find(path);
  if (!file) return NoSuchSource(module, path, options.module_path);
  if (options.has_context && line == 0) {
    return InvalidArgumentError(
        "--context needs a line: --print-source=PATH:LINE");
  }
  KILN_ASSIGN_OR_RETURN(std::string text, file->Decompress());

  const uint64_t first = options.has_context && line > options.context
                             ? line - options.context
                             : 1;
  const LineWindow window = FindLineWindow(
      text, first,
      options.has_context ? uint64_t{line} + options.context : UINT64_MAX);
  const uint64_t line_count = window.line_count, last = window.last;
  if (line > line_count) {
    return OutOfRangeError("line ", line, " is past the end of '",
                           Printable(path), "' (", line_count, " lines)");
  }

  if (options.json) {
    return PrintJson(json{{"path", std::string(path)},
                          {"line", line ? json(line) : json(nullptr)},
                          {"first_line", first},
                          {"last_line", last},
                          {"line_count", line_count},
                          {"text", std::string(window.text)}});
  }
  // Written in pieces: the numbered copy of a whole file is larger than
  // the file.
  constexpr size_t kChunk = 64 * 1024;
  std::string out;
  bool printed = true;
  ForEachNumberedLine(window, line, std::to_string(last).size(),
                      [&](const std::string& numbered) {
                        out += numbered;
                        out.push_back('\n');
                        if (out.size() >= kChunk) {
                          printed = printed && Print(out);
                          out.clear();
                        }
                      });
  if (!printed) return InvalidArgumentError("cannot write to stdout");
  return PrintText(out);
}

}  // namespace kiln::dump
