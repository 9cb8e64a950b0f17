//===- options.h - What kiln-dump's flags ask for -----------------*- C++ -*-===//
//
// The parsed command line (kiln_dump.cc fills it), which each view reads,
// and the PATH[:LINE] argument --print-source and --correlate share.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_DUMP_OPTIONS_H_
#define KILN_TOOLS_KILN_DUMP_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "kiln/status.h"
#include "support/command_line.h"

namespace kiln::dump {

struct Options {
  std::string module_path;
  tools::HelpAndVersion help_and_version;
  bool sources = false;
  bool has_print_source = false;
  std::string print_source;
  bool has_context = false;
  uint32_t context = 0;
  bool has_extract = false;
  std::string extract_dir;
  bool has_extract_libraries = false;
  std::string extract_libraries_dir;
  bool force = false;
  bool disassemble = false;
  bool has_function = false;
  std::string function;
  bool has_correlate = false;
  std::string correlate;
  bool json = false;
};

/// The value of --print-source or --correlate.
struct PathLine {
  std::string_view path;
  uint32_t line = 0;  // 0: no line given
};

/// `argument` of --`flag` as PATH, or as PATH:LINE when it names no file as
/// a whole (`is_path` false) and the part after its last ':' is all digits.
StatusOr<PathLine> SplitPathLine(std::string_view flag,
                                 std::string_view argument, bool is_path);

}  // namespace kiln::dump

#endif  // KILN_TOOLS_KILN_DUMP_OPTIONS_H_
