//===- tool_output.cc - What the runtime tools print ----------------------===//

#include "support/tool_output.h"

#include <cstdio>
#include <new>
#include <string>

#include "kiln/module_format.h"
#include "kiln/printable.h"

namespace kiln::tools {

std::string VersionLine(std::string_view tool) {
  return StrCat(tool, " " KILN_VERSION " (module format ", KILN_MODULE_VERSION,
                ")\n");
}

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

void PrintError(std::string_view tool, const Status& status) {
  const std::string line =
      StrCat(tool, ": error: ", Printable(status.message()), "\n");
  std::fputs(line.c_str(), stderr);
}

Status ReportingOutOfMemory(const std::function<Status()>& run) {
  try {
    return run();
  } catch (const std::bad_alloc&) {
    return ResourceExhaustedError("out of memory");
  }
}

}  // namespace kiln::tools
