//===- kernels_benchmark.cc - kiln kernels against OpenBLAS and memcpy ----===//
//
// Prints, from one run, throughput of kiln's compiled kernels and its ratio
// to a reference measured in the same process with the same threads:
// matmul against OpenBLAS sgemm, elementwise add against memcpy, and the
// cost of one near-empty dispatch. One table per instruction set the
// kernels were compiled for (the host's, x86-64-v3 and x86-64-v4), so that
// a machine with AVX-512 still shows what AVX2 code gets; a module this
// machine cannot run is reported as skipped. Each table runs in a process of
// its own whose OpenBLAS uses the same vector ISA as the module's code
// (OPENBLAS_CORETYPE: SkylakeX kernels for AVX-512, Haswell for AVX2, set
// over any the environment holds, and no OPENBLAS_L2_SIZE), as on a machine
// of that ISA; OpenBLAS would otherwise pick one kernel for every table, and
// an older one picks AVX2 kernels on CPUs newer than itself. Each row is
// measured at every thread count of --threads (default 1 and every core).
// Timing as in bench/timing.h.
//
//===----------------------------------------------------------------------===//

#include <cblas.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_tool.h"
#include "isa.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/thread_pool.h"
#include "timing.h"

extern "C" void openblas_set_num_threads(int);

extern char** environ;

namespace {

kiln::Tensor Filled(kiln::Shape shape, float seed) {
  kiln::Tensor tensor =
      kiln::Tensor::Allocate(kiln::ElementType::kF32, std::move(shape)).value();
  float* data = tensor.mutable_data_as<float>();
  for (int64_t i = 0; i < tensor.element_count(); ++i)
    data[i] = seed + static_cast<float>(i % 97) * 0.01f;
  return tensor;
}

void Check(const kiln::Status& status) {
  kiln::bench::CheckOrExit("kiln-bench-kernels", status);
}

/// Exits unless kiln's result agrees with the reference at a sample of
/// positions: a comparison of wrong results means nothing.
void CheckAgrees(const std::string& what, size_t count, const float* kiln,
                 const std::function<float(size_t)>& reference) {
  for (size_t i = 0; i < count; i += 4099) {
    const float want = reference(i);
    if (std::abs(kiln[i] - want) > 1e-3f * std::max(1.0f, std::abs(want))) {
      std::fprintf(stderr, "kiln-bench-kernels: %s mismatch at %zu: %g vs %g\n",
                   what.c_str(), i, kiln[i], want);
      std::exit(1);
    }
  }
}

//===----------------------------------------------------------------------===//
// Measurements
//===----------------------------------------------------------------------===//

/// A module run with one thread count: kiln's pool and OpenBLAS's threads.
struct Runner {
  Runner(std::shared_ptr<const kiln::Module> module, int threads)
      : pool(threads), context(std::move(module), &pool) {}

  int threads() const { return pool.thread_count(); }
  void Call(const std::string& function, const std::vector<kiln::Tensor>& in,
            std::vector<kiln::Tensor>* out) {
    Check(context.Call(function, in, out));
  }

  kiln::ThreadPool pool;
  kiln::Context context;
};

/// One large sgemm before anything is measured. OpenBLAS (0.3.21, Zen)
/// runs a 256 sgemm at about a quarter of its speed, call after call, until
/// it has run a larger one (9.7 against 34 GFLOP/s at 1 thread); page
/// faults are not the cause. Unwarmed, it would flatter kiln's first row.
void WarmUpBlas() {
  const int n = 1024;
  std::vector<float> a(n * n, 0.5f), b(n * n, -0.25f), c(n * n);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
              a.data(), n, b.data(), n, 0.0f, c.data(), n);
}

constexpr const char* kRowFormat = "%-16s %7d %13.1f %13.1f %11.2f\n";

/// Idle time before each measurement of a matmul (BestOfRounds): OpenBLAS's
/// threads spin for up to about 0.1 s after a call.
constexpr std::chrono::milliseconds kSettle{200};

/// n x n f32 matmul against sgemm, in GFLOP/s.
void MeasureMatmul(Runner& runner, int n, int rounds) {
  kiln::Tensor a = Filled({n, n}, 0.5f), b = Filled({n, n}, -0.25f);
  std::vector<kiln::Tensor> outputs;
  const std::string name = "matmul_" + std::to_string(n);
  const int repetitions = n <= 256 ? 40 : n <= 512 ? 20 : 8;
  std::vector<float> c(static_cast<size_t>(n) * n);
  openblas_set_num_threads(runner.threads());
  const std::vector<double> seconds = kiln::bench::BestOfRounds(
      rounds, 2,
      [&](size_t which) {
        if (which == 0) {
          return kiln::bench::MedianSeconds(repetitions, [&] {
            runner.Call(name, {a, b}, &outputs);
          });
        }
        return kiln::bench::MedianSeconds(repetitions, [&] {
          cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                      a.data_as<float>(), n, b.data_as<float>(), n, 0.0f,
                      c.data(), n);
        });
      },
      kSettle);
  CheckAgrees(name, c.size(), outputs[0].data_as<float>(),
              [&](size_t i) { return c[i]; });
  const double flops = 2.0 * n * n * n;
  std::printf(kRowFormat, std::to_string(n).c_str(), runner.threads(),
              flops / seconds[0] * 1e-9, flops / seconds[1] * 1e-9,
              seconds[1] / seconds[0]);
}

/// A function with a dimension known only at run time (a batch) against
/// its static form on the same inputs, in GFLOP/s: what the dynamic
/// dimension costs.
void MeasureDynamic(Runner& runner, const char* label,
                    const std::string& dynamic_name,
                    const std::string& static_name,
                    const std::vector<kiln::Tensor>& inputs, double flops,
                    int repetitions, int rounds) {
  std::vector<kiln::Tensor> dynamic_outputs, static_outputs;
  const std::vector<double> seconds = kiln::bench::BestOfRounds(
      rounds, 2, [&](size_t which) {
        return kiln::bench::MedianSeconds(repetitions, [&] {
          if (which == 0)
            runner.Call(dynamic_name, inputs, &dynamic_outputs);
          else
            runner.Call(static_name, inputs, &static_outputs);
        });
      });
  CheckAgrees(dynamic_name, static_outputs[0].element_count(),
              dynamic_outputs[0].data_as<float>(),
              [&](size_t i) { return static_outputs[0].data_as<float>()[i]; });
  std::printf(kRowFormat, label, runner.threads(), flops / seconds[0] * 1e-9,
              flops / seconds[1] * 1e-9, seconds[1] / seconds[0]);
}

/// 1024^3 f32 matmul with its rows dynamic; a padded 3x3 convolution on a
/// 56x56x64 image to 64 channels with its batch (1) dynamic.
void MeasureDynamicShapes(Runner& runner, int rounds) {
  const int n = 1024;
  MeasureDynamic(runner, "matmul 1024 ?xK", "matmul_dynamic_1024",
                 "matmul_1024", {Filled({n, n}, 0.5f), Filled({n, n}, -0.25f)},
                 2.0 * n * n * n, 8, rounds);
  MeasureDynamic(runner, "conv 3x3 ?x56x56", "conv_dynamic_batch",
                 "conv_static_batch",
                 {Filled({1, 56, 56, 64}, 0.5f), Filled({3, 3, 64, 64}, -0.25f)},
                 2.0 * 56 * 56 * 64 * 3 * 3 * 64, 20, rounds);
}

/// Elementwise add of 16 Mi f32 against memcpy, in bytes moved per second.
void MeasureAdd(Runner& runner, int rounds) {
  const int64_t count = 16777216;
  kiln::Tensor a = Filled({count}, 1.0f), b = Filled({count}, 2.0f);
  std::vector<kiln::Tensor> outputs;
  std::vector<float> destination(count);
  const std::vector<double> seconds =
      kiln::bench::BestOfRounds(rounds, 2, [&](size_t which) {
        if (which == 0) {
          return kiln::bench::MedianSeconds(10, [&] {
            runner.Call("add", {a, b}, &outputs);
          });
        }
        return kiln::bench::MedianSeconds(10, [&] {
          std::memcpy(destination.data(), a.data(), count * sizeof(float));
        });
      });
  CheckAgrees("add", count, outputs[0].data_as<float>(), [&](size_t i) {
    return a.data_as<float>()[i] + b.data_as<float>()[i];
  });
  const double kiln_bytes = 3.0 * count * sizeof(float);    // 2 reads, 1 write
  const double memcpy_bytes = 2.0 * count * sizeof(float);  // 1 read, 1 write
  const double kiln_rate = kiln_bytes / seconds[0];
  const double memcpy_rate = memcpy_bytes / seconds[1];
  std::printf(kRowFormat, "add 16Mi f32", runner.threads(), kiln_rate * 1e-9,
              memcpy_rate * 1e-9, kiln_rate / memcpy_rate);
}

/// Per-dispatch overhead: 100 dependent one-FMA dispatches per call.
void MeasureDispatch(Runner& runner, int rounds) {
  kiln::Tensor x = Filled({1, 1}, 0.5f);
  std::vector<kiln::Tensor> outputs;
  const double seconds = kiln::bench::BestOfRounds(rounds, 1, [&](size_t) {
    return kiln::bench::MedianSeconds(
        200, [&] { runner.Call("tiny_chain", {x}, &outputs); });
  })[0];
  std::printf("%-16s %7d %13.2f %13.1f\n", "100 x 1x1 matmul", runner.threads(),
              seconds / 100 * 1e6, seconds * 1e6);
}

/// The table for one module, each row at every thread count.
void MeasureModule(std::shared_ptr<const kiln::Module> module,
                   const std::vector<int>& thread_counts, int rounds) {
  std::vector<std::unique_ptr<Runner>> runners;
  for (int threads : thread_counts)
    runners.push_back(std::make_unique<Runner>(module, threads));

  std::printf("BLAS: OpenBLAS %s kernels\n", openblas_get_corename());
  std::printf("%-16s %7s %13s %13s %11s\n", "matmul f32 n", "threads",
              "kiln GFLOP/s", "BLAS GFLOP/s", "kiln/BLAS");
  for (int n : {256, 512, 1000, 1024})
    for (auto& runner : runners) MeasureMatmul(*runner, n, rounds);
  std::printf("%-16s %7s %13s %13s %11s\n", "dynamic shape", "threads",
              "kiln GFLOP/s", "static GFLOP/s", "dyn/static");
  for (auto& runner : runners) MeasureDynamicShapes(*runner, rounds);
  std::printf("%-16s %7s %13s %13s %11s\n", "elementwise", "threads",
              "kiln GB/s", "memcpy GB/s", "kiln/memcpy");
  for (auto& runner : runners) MeasureAdd(*runner, rounds);
  std::printf("%-16s %7s %13s %13s\n", "dispatch", "threads", "us each",
              "us per call");
  for (auto& runner : runners) MeasureDispatch(*runner, rounds);
}

/// "1,2" -> {1, 2}; 0 stands for every core. Counts are kept once each, in
/// order. False on anything but a list of non-negative integers.
bool ParseThreadCounts(const std::string& list, std::vector<int>* counts) {
  const int cores =
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  counts->clear();
  std::istringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    char* end = nullptr;
    const long count = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || count < 0 || count > 4096) return false;
    const int threads = count == 0 ? cores : static_cast<int>(count);
    if (std::find(counts->begin(), counts->end(), threads) == counts->end())
      counts->push_back(threads);
  }
  return !counts->empty();
}

/// The OpenBLAS kernels for the widest vector ISA the code of the module at
/// `path` uses (the code variant this machine runs): "SkylakeX" (AVX-512)
/// or "Haswell" (AVX2); empty when the file is not a module or its code
/// uses neither.
std::string BlasCoreFor(const std::string& path) {
  kiln::ModuleLoadOptions options;
  options.load_libraries = false;
  const auto module = kiln::Module::Load(path, options);
  if (!module.ok()) return "";
  const kiln::CodeVariantInfo& variant =
      (*module)->variants()[(*module)->variant_index()];
  const std::set<std::string> features(variant.cpu_features.begin(),
                                       variant.cpu_features.end());
  const std::string isa = kiln::bench::VectorIsa(features);
  if (isa.rfind("avx512f", 0) == 0) return "SkylakeX";
  if (isa.rfind("avx2", 0) == 0) return "Haswell";
  return "";
}

/// Runs this benchmark again for one module, labelled `label`, with
/// OPENBLAS_CORETYPE=`core`; false when it could not be started or failed.
bool MeasureInChild(const char* self, const std::string& label,
                    const std::string& path, const std::string& core,
                    const std::string& threads, int rounds) {
  std::vector<std::string> args = {self, "--threads=" + threads,
                                   "--rounds=" + std::to_string(rounds),
                                   "--module=" + path};
  std::vector<std::string> env = {"OPENBLAS_CORETYPE=" + core,
                                  "KILN_BENCH_KERNELS_LABEL=" + label};
  for (char** entry = environ; *entry; ++entry)
    if (std::strncmp(*entry, "OPENBLAS_CORETYPE=", 18) != 0 &&
        std::strncmp(*entry, "OPENBLAS_L2_SIZE=", 17) != 0 &&
        std::strncmp(*entry, "KILN_BENCH_KERNELS_LABEL=", 25) != 0)
      env.emplace_back(*entry);
  auto pointers = [](std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (std::string& string : strings) result.push_back(string.data());
    result.push_back(nullptr);
    return result;
  };
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  std::fflush(stdout);
  pid_t pid;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(),
                  envp.data()) != 0)
    return false;
  int status = 0;
  return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
         WEXITSTATUS(status) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  // (label, path) of each module to measure, in order: the label is the
  // --cpu it was compiled with.
  std::vector<std::pair<std::string, std::string>> modules =
      kiln::bench::ModulesPerCpu(KILN_BENCH_KERNELS_DIR "/kernels");
  // 1 and every core by default: single-thread speed, and how it scales.
  std::vector<int> thread_counts;
  ParseThreadCounts("1,0", &thread_counts);
  int rounds = 3;
  bool modules_named = false;
  std::string threads_list = "1,0";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool ok = true;
    if (arg.rfind("--threads=", 0) == 0) {
      threads_list = arg.substr(10);
      ok = ParseThreadCounts(threads_list, &thread_counts);
    } else if (arg.rfind("--module=", 0) == 0) {
      if (!modules_named) modules.clear();
      modules_named = true;
      modules.emplace_back(arg.substr(9), arg.substr(9));
    } else if (arg.rfind("--rounds=", 0) == 0) {
      rounds = std::max(1, std::atoi(arg.c_str() + 9));
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr,
                   "usage: kiln-bench-kernels [--threads=N[,N...]] "
                   "[--module=F]... [--rounds=N]\n"
                   "  --threads: thread counts to measure at, 0 for every "
                   "core (default: 1,0)\n");
      return 1;
    }
  }
  // In a child run for one module: its table, under the parent's label.
  if (const char* label = std::getenv("KILN_BENCH_KERNELS_LABEL")) {
    WarmUpBlas();
    std::shared_ptr<const kiln::Module> module = kiln::bench::LoadOrSkip(
        "kiln-bench-kernels", label, modules.front().second);
    if (module) MeasureModule(module, thread_counts, rounds);
    return 0;
  }
  std::printf(
      "kiln kernels against OpenBLAS sgemm and memcpy with the same threads, "
      "best of %d interleaved rounds\n",
      rounds);
  kiln::bench::PrintHostCpu();
  bool warmed_up = false;
  for (const auto& [label, path] : modules) {
    const std::string core = BlasCoreFor(path);
    if (!core.empty()) {
      if (!MeasureInChild(argv[0], label, path, core, threads_list, rounds)) {
        std::fprintf(stderr,
                     "kiln-bench-kernels: error: the run for %s failed\n",
                     label.c_str());
        return 1;
      }
      continue;
    }
    if (!warmed_up) WarmUpBlas();
    warmed_up = true;
    std::shared_ptr<const kiln::Module> module =
        kiln::bench::LoadOrSkip("kiln-bench-kernels", label, path);
    if (module) MeasureModule(module, thread_counts, rounds);
  }
  return 0;
}
