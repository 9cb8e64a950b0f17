//===- tool_output.h - What the runtime tools print ---------------*- C++ -*-===//
//
// A tool's output is its result: stdout that could not be written is an
// error, not a success with nothing shown. Everything a module controls
// (names, locations, texts) is printed through kiln::Printable.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_TOOL_OUTPUT_H_
#define KILN_TOOLS_SUPPORT_TOOL_OUTPUT_H_

#include <functional>
#include <string_view>

#include "kiln/status.h"

namespace kiln::tools {

/// Writes `text` to stdout (buffered); false on a write error.
bool Print(std::string_view text);

/// Flushes stdout; an error when anything written to it was lost (a full
/// disk, a closed file), whether now or by an earlier write.
Status FlushStdout();

/// "<tool> VERSION (module format N)\n": what --version prints.
std::string VersionLine(std::string_view tool);

/// Prints "<tool>: error: MESSAGE" to stderr, escaped: messages quote
/// names and paths from the module.
void PrintError(std::string_view tool, const Status& status);

/// Runs `run`, a tool's work, with running out of memory (std::bad_alloc)
/// an error like any other: a small module may declare texts and tensors
/// larger than the process can hold, which the tool reports, not aborts on.
Status ReportingOutOfMemory(const std::function<Status()>& run);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_TOOL_OUTPUT_H_
