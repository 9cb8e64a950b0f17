//===- trace_benchmark.cc - Cost of tracing per dispatch ------------------===//
//
// Prints, from one run, the time per dispatch of a function of 100 tiny
// dispatches with each trace provider divided by the time without tracing
// (the null provider), for the module compiled for each instruction set
// (bench/isa.h). The modules are compiled at --executable-debug-level=3 so
// that zones point into embedded texts. Timing as in bench/timing.h.
//
//===----------------------------------------------------------------------===//

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_tool.h"
#include "isa.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/thread_pool.h"
#include "kiln/trace.h"
#include "timing.h"

namespace {

constexpr int kDispatchesPerCall = 100;

void Check(const kiln::Status& status) {
  kiln::bench::CheckOrExit("kiln-bench-trace", status);
}

/// Median microseconds per dispatch over `calls` calls of tiny_chain with
/// the process tracer as installed by the caller.
double MicrosecondsPerDispatch(const std::string& module_path, int calls) {
  // Loaded under the tracer: publishing is part of what is measured once.
  auto module = kiln::Module::Load(module_path);
  if (!module.ok()) Check(module.status());
  kiln::ThreadPool pool(1);
  kiln::Context context(*module, &pool);
  kiln::Tensor x =
      kiln::Tensor::Allocate(kiln::ElementType::kF32, {1, 1}).value();
  x.mutable_data_as<float>()[0] = 0.5f;
  std::vector<kiln::Tensor> outputs;
  return kiln::bench::MedianSeconds(
             calls, [&] { Check(context.Call("tiny_chain", {x}, &outputs)); }) *
         1e6 / kDispatchesPerCall;
}

}  // namespace

int main(int argc, char** argv) {
  const kiln::bench::ModuleBenchArgs args = kiln::bench::ParseModuleBenchArgs(
      argc, argv, "kiln-bench-trace",
      {kiln::bench::ModulesPerCpu(KILN_BENCH_TRACE_MODULES), 2000, 3});
  const int calls = args.calls, rounds = args.rounds;
  char chrome_path[] = "/tmp/kiln_bench_trace_XXXXXX";
  const int fd = ::mkstemp(chrome_path);
  if (fd >= 0) ::close(fd);
  // provider name -> CreateTracer spec; "none" installs no tracer.
  std::vector<std::pair<std::string, std::string>> providers = {
      {"none", ""},
      {"null", "null"},
      {"console", "console"},
      {"chrome", std::string("chrome=") + chrome_path}};
  if (std::string(kiln::AvailableTracers()).find("tracy") != std::string::npos)
    providers.push_back({"tracy", "tracy"});

  std::printf(
      "trace cost per dispatch: %d calls of %d one-FMA dispatches, "
      "1 thread, best of %d rounds\n",
      calls, kDispatchesPerCall, rounds);
  kiln::bench::PrintHostCpu();
  for (const auto& [label, module_path] : args.modules) {
    if (!kiln::bench::LoadOrSkip("kiln-bench-trace", label, module_path))
      continue;
    const std::vector<double> best =
        kiln::bench::BestOfRounds(rounds, providers.size(), [&](size_t p) {
          const auto& [name, spec] = providers[p];
          if (spec.empty()) return MicrosecondsPerDispatch(module_path, calls);
          auto tracer = kiln::CreateTracer(spec, kiln::TraceOptions());
          if (!tracer.ok()) Check(tracer.status());
          // The console provider's lines go to stderr: silence it meanwhile.
          const int saved_stderr = ::dup(2);
          if (name == "console") std::freopen("/dev/null", "w", stderr);
          kiln::SetTracer(tracer->get());
          const double micros = MicrosecondsPerDispatch(module_path, calls);
          Check((*tracer)->Flush());
          kiln::SetTracer(nullptr);
          std::fflush(stderr);
          ::dup2(saved_stderr, 2);
          ::close(saved_stderr);
          return micros;
        });
    std::printf("%-10s %12s %12s\n", "provider", "us/dispatch", "/ untraced");
    for (size_t p = 0; p < providers.size(); ++p)
      std::printf("%-10s %12.3f %12.2f\n", providers[p].first.c_str(), best[p],
                  best[p] / best[0]);
  }
  std::remove(chrome_path);
  return 0;
}
