//===- bench_tool.h - What the runtime benchmarks' mains share ----*- C++ -*-===//

#ifndef KILN_BENCH_BENCH_TOOL_H_
#define KILN_BENCH_BENCH_TOOL_H_

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "kiln/status.h"

namespace kiln::bench {

/// Exits with `tool: error: ...` unless `status` is ok: a benchmark that
/// failed to run has no figure to print.
inline void CheckOrExit(const char* tool, const Status& status) {
  if (status.ok()) return;
  std::fprintf(stderr, "%s: error: %s\n", tool, status.ToString().c_str());
  std::exit(1);
}

/// The flags of a benchmark timing calls of compiled modules.
struct ModuleBenchArgs {
  /// (label, path) of each module, in order (bench/isa.h: one per --cpu).
  std::vector<std::pair<std::string, std::string>> modules;
  int calls = 0;
  int rounds = 3;
};

/// Reads --module=F (each replaces the defaults; labelled by its path),
/// --calls=N and --rounds=N over `args`' defaults; prints the usage of
/// `tool` and exits on anything else.
inline ModuleBenchArgs ParseModuleBenchArgs(int argc, char** argv,
                                            const char* tool,
                                            ModuleBenchArgs args) {
  bool modules_named = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--module=", 0) == 0) {
      if (!modules_named) args.modules.clear();
      modules_named = true;
      args.modules.emplace_back(arg.substr(9), arg.substr(9));
    } else if (arg.rfind("--calls=", 0) == 0) {
      args.calls = std::max(1, std::atoi(arg.c_str() + 8));
    } else if (arg.rfind("--rounds=", 0) == 0) {
      args.rounds = std::max(1, std::atoi(arg.c_str() + 9));
    } else {
      std::fprintf(
          stderr, "usage: %s [--module=F]... [--calls=N] [--rounds=N]\n", tool);
      std::exit(1);
    }
  }
  return args;
}

}  // namespace kiln::bench

#endif  // KILN_BENCH_BENCH_TOOL_H_
