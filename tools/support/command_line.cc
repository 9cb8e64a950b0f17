//===- command_line.cc - The runtime tools' command line ------------------===//

#include "support/command_line.h"

#include <getopt.h>

namespace kiln::tools {

StatusOr<CommandLine> ParseCommandLine(int argc, char** argv,
                                       const std::vector<FlagSpec>& specs) {
  // getopt_long reports flags by index into `options` (val = index + 1):
  // --help is 1, --version 2.
  constexpr int kHelp = 1, kVersion = 2;
  std::vector<FlagSpec> all = {{"help", false}, {"version", false}};
  all.insert(all.end(), specs.begin(), specs.end());
  std::vector<option> options;
  for (size_t i = 0; i < all.size(); ++i) {
    const int argument = !all[i].takes_value     ? no_argument
                         : all[i].value_optional ? optional_argument
                                                 : required_argument;
    options.push_back(
        {all[i].name, argument, nullptr, static_cast<int>(i + 1)});
  }
  options.push_back({nullptr, 0, nullptr, 0});

  CommandLine line;
  opterr = 0;  // errors are reported by the caller, as Status
  optind = 0;  // a full reinitialization (GNU)
  // ':' first: a missing value is ':' rather than '?'; 'h' is -h.
  for (;;) {
    const int c = getopt_long(argc, argv, ":h", options.data(), nullptr);
    if (c == -1) break;
    if (c == 'h' || c == kHelp) {
      line.help_and_version.help = true;
    } else if (c == kVersion) {
      line.help_and_version.version = true;
    } else if (c == ':') {
      return InvalidArgumentError("flag '--", all[optopt - 1].name,
                                  "' expects a value");
    } else if (c == '?') {
      if (optopt >= 1 && optopt <= static_cast<int>(all.size())) {
        return InvalidArgumentError("flag '--", all[optopt - 1].name,
                                    "' takes no value");
      }
      if (optopt != 0) {  // an unknown short flag
        return InvalidArgumentError("unknown flag '-",
                                    std::string(1, static_cast<char>(optopt)),
                                    "' (see --help)");
      }
      // An unknown or ambiguous long flag, as typed.
      const std::string_view arg = argv[optind - 1];
      return InvalidArgumentError(
          "unknown flag '", arg.substr(0, arg.find('=')), "' (see --help)");
    } else {
      line.flags.push_back(
          {all[c - 1].name, optarg ? std::string_view(optarg) : ""});
    }
  }
  for (int i = optind; i < argc; ++i) {
    if (!line.module_path.empty()) {
      return InvalidArgumentError("more than one module given ('",
                                  line.module_path, "' and '", argv[i], "')");
    }
    line.module_path = argv[i];
  }
  return line;
}

}  // namespace kiln::tools
