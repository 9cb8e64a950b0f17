//===- tool_output.h - What the runtime tools print ---------------*- C++ -*-===//
//
// A tool's output is its result: stdout that could not be written is an
// error, not a success with nothing shown. Everything a module controls
// (names, locations, texts) is printed through kiln::Printable. ToolMain
// is what every runtime tool's main does around its work: --help,
// --version, the error line and the exit status.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_TOOL_OUTPUT_H_
#define KILN_TOOLS_SUPPORT_TOOL_OUTPUT_H_

#include <functional>
#include <string_view>

#include "kiln/status.h"
#include "support/command_line.h"

namespace kiln::tools {

/// Writes `text` to stdout (buffered); false on a write error.
bool Print(std::string_view text);

/// Flushes stdout; an error when anything written to it was lost (a full
/// disk, a closed file), whether now or by an earlier write.
Status FlushStdout();

/// A runtime tool's main once its flags are read (`parsed`: their error,
/// if any). --version prints "<tool> VERSION (module format N)", else
/// --help prints `usage`, else `run` does the tool's work, setting
/// `*failed` when it ends without an error but not as asked (a check or
/// test failed, a file was not written: each reported already). Running
/// out of memory is an error like any other: a small module may declare
/// texts and tensors larger than the process can hold, which the tool
/// reports, not aborts on. Stdout is flushed before anything is said last.
/// Returns the exit status: 0; 1 when *failed; 1 after printing
/// "<tool>: error: MESSAGE" to stderr (escaped: messages quote names and
/// paths from the module) for an error anywhere, from the flags to the last
/// write to stdout.
int ToolMain(std::string_view tool, const Status& parsed,
             const HelpAndVersion& help_and_version, std::string_view usage,
             const std::function<Status(bool* failed)>& run);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_TOOL_OUTPUT_H_
