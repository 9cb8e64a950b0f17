//===- tool_output.cc - What the runtime tools print ----------------------===//

#include "support/tool_output.h"

#include <cstdio>
#include <new>
#include <string>

#include "kiln/module_format.h"
#include "kiln/printable.h"

namespace kiln::tools {

bool Print(std::string_view text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
}

Status FlushStdout() {
  // ferror: a write that failed before is not failing again at the flush.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    return InvalidArgumentError("cannot write to stdout");
  }
  return OkStatus();
}

namespace {

/// "<tool> VERSION (module format N)\n": what --version prints.
std::string VersionLine(std::string_view tool) {
  return StrCat(tool, " " KILN_VERSION " (module format ", KILN_MODULE_VERSION,
                ")\n");
}

/// Prints "<tool>: error: MESSAGE" to stderr, escaped: messages quote
/// names and paths from the module.
void PrintError(std::string_view tool, const Status& status) {
  const std::string line =
      StrCat(tool, ": error: ", Printable(status.message()), "\n");
  std::fputs(line.c_str(), stderr);
}

/// Runs `run`, a tool's work, with running out of memory (std::bad_alloc)
/// an error like any other.
Status ReportingOutOfMemory(const std::function<Status()>& run) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    return ResourceExhaustedError("out of memory");
  }
}

}  // namespace

int ToolMain(std::string_view tool, const Status& parsed,
             const HelpAndVersion& help_and_version, std::string_view usage,
             const std::function<Status(bool* failed)>& run) {
  Status status = parsed;
  bool failed = false;
  if (status.ok() && help_and_version.version) {
    Print(VersionLine(tool));
  } else if (status.ok() && help_and_version.help) {
    Print(usage);
  } else if (status.ok()) {
    status = ReportingOutOfMemory([&] { return run(&failed); });
  }
  // What the tool printed comes before its error, and is part of its
  // result: output that could not be written is the error when there is
  // no other.
  const Status flushed = FlushStdout();
  if (status.ok()) status = flushed;
  if (!status.ok()) {
    PrintError(tool, status);
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace kiln::tools
