//===- isa.h - The instruction sets a benchmark's figures hold for -*- C++ -*-===//
//
// A figure holds only for the instruction set its code was compiled for:
// each runtime benchmark runs one module per --cpu (host, x86-64-v3 and
// x86-64-v4, compiled by kiln_bench_modules in bench/CMakeLists.txt), skips
// the ones this machine cannot run, and prints the machine and each
// module's code.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_BENCH_ISA_H_
#define KILN_BENCH_ISA_H_

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bench_tool.h"
#include "kiln/module.h"

namespace kiln::bench {

/// "avx512f, avx2", "avx2, no avx512f" or "no avx512f, no avx2": the vector
/// extensions that decide register tiles, from feature names as
/// /proc/cpuinfo and LLVM spell them (the same for these). Any AVX-512
/// subset counts as avx512f, which they all require: LLVM's x86-64-v4 lists
/// only the subsets.
inline std::string VectorIsa(const std::set<std::string>& features) {
  const bool avx512f = std::any_of(
      features.begin(), features.end(),
      [](const std::string& f) { return f.rfind("avx512", 0) == 0; });
  const bool avx2 = features.count("avx2") > 0;
  if (avx512f) return avx2 ? "avx512f, avx2" : "avx512f, no avx2";
  return avx2 ? "avx2, no avx512f" : "no avx512f, no avx2";
}

/// The first processor's "model name" and "flags" in /proc/cpuinfo.
struct HostCpu {
  std::string model = "unknown";
  std::set<std::string> flags;
};

inline HostCpu ReadHostCpu() {
  HostCpu cpu;
  std::ifstream cpuinfo("/proc/cpuinfo");
  bool have_model = false, have_flags = false;
  for (std::string line; std::getline(cpuinfo, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    key.erase(key.find_last_not_of(" \t") + 1);
    const size_t start = line.find_first_not_of(' ', colon + 1);
    const std::string value =
        start == std::string::npos ? "" : line.substr(start);
    if (key == "model name" && !have_model) {
      cpu.model = value;
      have_model = true;
    } else if (key == "flags" && !have_flags) {
      std::istringstream words(value);
      for (std::string flag; words >> flag;) cpu.flags.insert(flag);
      have_flags = true;
    }
  }
  return cpu;
}

/// Prints "CPU: ..." and "vector ISA: ..." of this machine.
inline void PrintHostCpu() {
  const HostCpu host = ReadHostCpu();
  std::printf("CPU:        %s\nvector ISA: %s\n", host.model.c_str(),
              VectorIsa(host.flags).c_str());
}

/// "znver3 (avx2, no avx512f)": the CPU the code variant `module` runs was
/// compiled for and the vector extensions its code may use.
inline std::string CompiledFor(const Module& module) {
  const CodeVariantInfo& variant = module.variants()[module.variant_index()];
  const std::set<std::string> features(variant.cpu_features.begin(),
                                       variant.cpu_features.end());
  return std::string(variant.cpu.empty() ? "?" : variant.cpu) + " (" +
         VectorIsa(features) + ")";
}

/// (label, path) of the modules a benchmark measures, in order: one per
/// --cpu, `prefix`.<cpu>.kiln, each labelled by its --cpu.
inline std::vector<std::pair<std::string, std::string>> ModulesPerCpu(
    const std::string& prefix) {
  std::vector<std::pair<std::string, std::string>> modules;
  for (const char* cpu : {"host", "x86-64-v3", "x86-64-v4"})
    modules.emplace_back(cpu, prefix + "." + cpu + ".kiln");
  return modules;
}

/// Loads the module at `path` and prints "\n<label>: code compiled for
/// ...". The runtime refuses code that needs instructions this machine
/// lacks: that module is reported as skipped and null returned, so that the
/// others still run. Any other failure exits.
inline std::shared_ptr<const Module> LoadOrSkip(const char* tool,
                                                const std::string& label,
                                                const std::string& path) {
  StatusOr<std::shared_ptr<const Module>> module = Module::Load(path);
  if (!module.ok()) {
    const Status& status = module.status();
    const std::string& message = status.message();
    const size_t what = message.find("with instructions ");
    if (status.code() != StatusCode::kUnimplemented ||
        what == std::string::npos) {
      CheckOrExit(tool, status);
    }
    std::printf("\n%s: skipped (%s)\n", label.c_str(),
                message.substr(what + 18).c_str());
    return nullptr;
  }
  std::printf("\n%s: code compiled for %s\n", label.c_str(),
              CompiledFor(**module).c_str());
  return *module;
}

}  // namespace kiln::bench

#endif  // KILN_BENCH_ISA_H_
