//===- profile_benchmark.cc - Cost of kiln's sampler ----------------------===//
//
// Prints, from one run, the median time per call of matmul_1024 (from
// bench/kernels/kernels.mlir, compiled at --executable-debug-level=3) on
// every hardware thread while a Profiler samples them at its default rate,
// divided by the time without one, and the samples the profiled calls
// took in the matmul's export with the rate the sampler reached and its
// clock, for the module compiled for each instruction set (bench/isa.h).
// Timing as in bench/timing.h.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench_tool.h"
#include "isa.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/profiler.h"
#include "kiln/thread_pool.h"
#include "timing.h"

namespace {

void Check(const kiln::Status& status) {
  kiln::bench::CheckOrExit("kiln-bench-profile", status);
}

/// Prints the table for one module: the median time per call without and
/// with the sampler, and the samples of the last profiled round.
void MeasureModule(const std::shared_ptr<const kiln::Module>& module, int calls,
                   int rounds) {
  kiln::ThreadPool pool;
  Check(pool.status());
  kiln::Context context(module, &pool);
  const int64_t n = 1024;
  std::vector<kiln::Tensor> inputs;
  for (int i = 0; i < 2; ++i) {
    kiln::Tensor t =
        kiln::Tensor::Allocate(kiln::ElementType::kF32, {n, n}).value();
    std::fill_n(t.mutable_data_as<float>(), n * n, 1.0f);
    inputs.push_back(std::move(t));
  }
  std::vector<kiln::Tensor> outputs;
  uint64_t kernel_samples = 0, samples = 0;
  double hz_reached = 0;
  kiln::ProfileClock clock = kiln::ProfileClock::kAuto;
  const std::vector<double> best =
      kiln::bench::BestOfRounds(rounds, 2, [&](size_t profiled) {
        std::unique_ptr<kiln::Profiler> profiler;
        if (profiled) {
          auto started = kiln::Profiler::Start(&pool);
          if (!started.ok()) Check(started.status());
          profiler = std::move(started).value();
        }
        const double seconds = kiln::bench::MedianSeconds(calls, [&] {
          Check(context.Call("matmul_1024", inputs, &outputs));
        });
        if (profiler) {
          auto resolved = profiler->Resolve(*module);
          Check(resolved.status());
          const kiln::Profile& profile = *resolved;
          samples = profile.samples;
          kernel_samples = profile.samples - profile.host_samples;
          hz_reached = profile.hz_reached();
          clock = profile.sampling->clock;
        }
        return seconds;
      });
  std::printf("%d threads\n", pool.thread_count());
  std::printf("%-12s %12s %12s\n", "", "ms/call", "/ unprofiled");
  std::printf("%-12s %12.3f %12.3f\n", "unprofiled", best[0] * 1e3, 1.0);
  std::printf("%-12s %12.3f %12.3f\n", "profiled", best[1] * 1e3,
              best[1] / best[0]);
  std::printf(
      "last profiled round: %llu samples, %llu in kernels; %.0f Hz of CPU "
      "time reached (%u asked), clock %s\n",
      static_cast<unsigned long long>(samples),
      static_cast<unsigned long long>(kernel_samples), hz_reached,
      kiln::ProfilerOptions().hz,
      std::string(kiln::ProfileClockName(clock)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const kiln::bench::ModuleBenchArgs args = kiln::bench::ParseModuleBenchArgs(
      argc, argv, "kiln-bench-profile",
      {kiln::bench::ModulesPerCpu(KILN_BENCH_PROFILE_MODULES), 20, 3});
  std::printf(
      "profiler cost: matmul_1024, %d calls (median) on every "
      "hardware thread, %u Hz, best of %d rounds\n",
      args.calls, kiln::ProfilerOptions().hz, args.rounds);
  kiln::bench::PrintHostCpu();
  for (const auto& [label, path] : args.modules) {
    if (std::shared_ptr<const kiln::Module> module =
            kiln::bench::LoadOrSkip("kiln-bench-profile", label, path))
      MeasureModule(module, args.calls, args.rounds);
  }
  return 0;
}
