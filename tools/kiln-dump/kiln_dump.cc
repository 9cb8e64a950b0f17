//===- kiln_dump.cc - Shows what a compiled kiln module carries -----------===//
//
//   kiln-dump MODULE.kiln [--sources | --print-source=PATH[:LINE]
//             [--context=N] | --extract-sources=DIR [--force] |
//             --extract-libraries=DIR [--force] |
//             --disassemble [--function=NAME] |
//             --correlate=PATH:LINE] [--json]
//
// Without a view flag: a summary (module, functions, libraries, code
// variants and each one's executables with their exports' debug
// information, source table). The other views read the executables of the
// variant this machine runs (else the first). The module is loaded
// through the verifying loader but its native libraries are never mapped,
// so modules built for another CPU can be inspected. Every view can be
// printed as one JSON document instead (--json).
//
//===----------------------------------------------------------------------===//

#include <charconv>
#include <memory>
#include <string>
#include <string_view>

#include "correlate.h"
#include "disassemble.h"
#include "extract.h"
#include "kiln/module.h"
#include "kiln/status.h"
#include "options.h"
#include "print_source.h"
#include "source_table.h"
#include "summary.h"
#include "support/command_line.h"
#include "support/tool_output.h"

namespace {

using kiln::dump::Options;

constexpr char kUsage[] =
    "usage: kiln-dump MODULE.kiln [options]\n"
    "\n"
    "Shows what a compiled kiln module carries: its functions, its code\n"
    "variants (one per CPU it was compiled for, with the one this machine\n"
    "runs) and each one's executables with their debug information, and the\n"
    "embedded source table.\n"
    "\n"
    "views (default: a summary of the module):\n"
    "  --sources               one row per embedded source file: path, raw\n"
    "                          and stored size, compression, hash\n"
    "  --print-source=PATH[:LINE]\n"
    "                          print a source file with line numbers; with\n"
    "                          LINE, mark that line with '>'\n"
    "  --context=N             with --print-source=PATH:LINE, print only the\n"
    "                          N lines either side of LINE\n"
    "  --extract-sources=DIR   write every source file under DIR (created if\n"
    "                          missing), checking each content hash; paths\n"
    "                          that would leave DIR or are hidden (a part\n"
    "                          starting with '.'), and paths naming one file\n"
    "                          alike (/a.mlir, a.mlir), are refused, and so\n"
    "                          is the whole extraction when the files total\n"
    "                          more than 8 GiB. Existing files are kept (an\n"
    "                          error) and symlinks are never followed\n"
    "  --extract-libraries=DIR write each native library as DIR/libraryN.so\n"
    "                          (N as in the summary), for tools that read\n"
    "                          its symbols and DWARF line tables (objdump,\n"
    "                          llvm-dwarfdump, gdb); existing files are kept\n"
    "  --force                 with --extract-sources or --extract-libraries,\n"
    "                          replace existing files\n"
    "  --disassemble           print each function's host program: one\n"
    "                          instruction per line (constant, dispatch,\n"
    "                          reshape, release, br, cond_br, check.*, "
    "return)\n"
    "                          over numbered slots, each result with its "
    "type,\n"
    "                          and the buffer plan: the function's buffers\n"
    "                          (b0, b1, ...) and which one each dispatch\n"
    "                          result is written into (new: storage of its\n"
    "                          own, as for what the function returns)\n"
    "  --function=NAME         with --disassemble, only this function\n"
    "  --correlate=PATH:LINE   that line's counterparts through the module's\n"
    "                          cross-stage line maps: for a line of a stage\n"
    "                          text, the lines of the stages before it that\n"
    "                          it came from, the lines of later stages that\n"
    "                          came from it, and its input program line; for\n"
    "                          a line of the input program, the lines of\n"
    "                          every stage text that came from it\n"
    "\n"
    "options:\n"
    "  --json                  print the view as one JSON document\n"
    "  --help                  show this help\n"
    "  --version               print kiln's version\n"
    "\n"
    "Sources come from kiln-compile --executable-debug-level=3 (captured\n"
    "stages) and --executable-embed-input-files (input files).\n";

//===----------------------------------------------------------------------===//
// Flags
//===----------------------------------------------------------------------===//

kiln::Status ParseArgs(int argc, char** argv, Options* options) {
  KILN_ASSIGN_OR_RETURN(
      kiln::tools::CommandLine line,
      kiln::tools::ParseCommandLine(argc, argv,
                                    {{"json"},
                                     {"sources"},
                                     {"print-source", true},
                                     {"context", true},
                                     {"extract-sources", true},
                                     {"extract-libraries", true},
                                     {"force"},
                                     {"disassemble"},
                                     {"function", true},
                                     {"correlate", true}}));
  options->module_path = line.module_path;
  options->help_and_version = line.help_and_version;
  for (const kiln::tools::Flag& flag : line.flags) {
    const std::string_view name = flag.name, value = flag.value;
    if (name == "json") {
      options->json = true;
    } else if (name == "sources") {
      options->sources = true;
    } else if (name == "print-source") {
      options->has_print_source = true;
      options->print_source = std::string(value);
    } else if (name == "extract-sources") {
      options->has_extract = true;
      options->extract_dir = std::string(value);
    } else if (name == "extract-libraries") {
      options->has_extract_libraries = true;
      options->extract_libraries_dir = std::string(value);
    } else if (name == "force") {
      options->force = true;
    } else if (name == "disassemble") {
      options->disassemble = true;
    } else if (name == "correlate") {
      options->has_correlate = true;
      options->correlate = std::string(value);
    } else if (name == "function") {
      options->has_function = true;
      options->function = std::string(value);
    } else if (name == "context") {
      auto result = std::from_chars(value.data(), value.data() + value.size(),
                                    options->context);
      if (value.empty() || result.ec != std::errc() ||
          result.ptr != value.data() + value.size()) {
        return kiln::InvalidArgumentError(
            "--context expects a non-negative integer, got '", value, "'");
      }
      options->has_context = true;
    }
  }
  const int views = options->sources + options->has_print_source +
                    options->has_extract + options->has_extract_libraries +
                    options->disassemble + options->has_correlate;
  if (views > 1) {
    return kiln::InvalidArgumentError(
        "choose one of --sources, --print-source, --extract-sources, "
        "--extract-libraries, --disassemble and --correlate");
  }
  if (options->has_function && !options->disassemble) {
    return kiln::InvalidArgumentError(
        "--function only applies to --disassemble");
  }
  if (options->has_context && !options->has_print_source) {
    return kiln::InvalidArgumentError(
        "--context only applies to --print-source=PATH:LINE");
  }
  if (options->force && !options->has_extract &&
      !options->has_extract_libraries) {
    return kiln::InvalidArgumentError(
        "--force only applies to --extract-sources and --extract-libraries");
  }
  return kiln::OkStatus();
}

/// Runs the chosen view; `*incomplete` tells whether some sources or
/// libraries could not be extracted (each was reported already).
kiln::Status Run(const Options& options, bool* incomplete) {
  if (options.module_path.empty()) {
    return kiln::InvalidArgumentError("no module given (see --help)");
  }
  // Verified as always, but no native code is loaded: the module may target
  // another CPU.
  kiln::ModuleLoadOptions load_options;
  load_options.load_libraries = false;
  KILN_ASSIGN_OR_RETURN(std::shared_ptr<const kiln::Module> module,
                        kiln::Module::Load(options.module_path, load_options));
  if (options.sources) return kiln::dump::ShowSources(*module, options.json);
  if (options.disassemble) return kiln::dump::Disassemble(*module, options);
  if (options.has_print_source) {
    return kiln::dump::PrintSource(*module, options);
  }
  if (options.has_correlate) {
    return kiln::dump::ShowCorrelation(*module, options);
  }
  if (options.has_extract) {
    return kiln::dump::ExtractSources(*module, options, incomplete);
  }
  if (options.has_extract_libraries) {
    return kiln::dump::ExtractLibraries(*module, options, incomplete);
  }
  return kiln::dump::ShowSummary(*module, options.json);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const kiln::Status parsed = ParseArgs(argc, argv, &options);
  return kiln::tools::ToolMain(
      "kiln-dump", parsed, options.help_and_version, kUsage,
      [&](bool* incomplete) { return Run(options, incomplete); });
}
