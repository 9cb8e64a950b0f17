//===- command_line.h - The runtime tools' command line -----------*- C++ -*-===//
//
// kiln-run, kiln-benchmark, kiln-check and kiln-dump take one module path
// and GNU long flags (--name=value or --name value; -h is --help), parsed by
// getopt_long (the runtime tools link no LLVM, so not llvm::cl). Each tool
// declares its flags (those it shares with others from run_flags.h) and
// reads the parsed ones in order.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SUPPORT_COMMAND_LINE_H_
#define KILN_TOOLS_SUPPORT_COMMAND_LINE_H_

#include <string>
#include <string_view>
#include <vector>

#include "kiln/status.h"

namespace kiln::tools {

struct FlagSpec {
  const char* name;
  bool takes_value = false;
  /// With takes_value: the value may be left out (--name), or given only
  /// as --name=value.
  bool value_optional = false;
};

struct Flag {
  std::string_view name;
  std::string_view value;  // empty for flags that take none
};

/// --help (or -h) and --version, which every runtime tool takes: each
/// prints something in place of the tool's work (see ToolMain).
struct HelpAndVersion {
  bool help = false;
  bool version = false;
};

struct CommandLine {
  std::string module_path;  // empty when none was given
  HelpAndVersion help_and_version;
  std::vector<Flag> flags;  // the others, in command-line order
};

/// Parses `argv` against `specs` (--help and --version are implied). Fails on
/// an unknown flag, a missing value, a value given to a flag that takes none,
/// or a second module path; messages name the flag and end with "(see --help)"
/// where that helps.
StatusOr<CommandLine> ParseCommandLine(int argc, char** argv,
                                       const std::vector<FlagSpec>& specs);

}  // namespace kiln::tools

#endif  // KILN_TOOLS_SUPPORT_COMMAND_LINE_H_
