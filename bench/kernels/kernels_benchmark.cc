//===- kernels_benchmark.cc - kiln kernels against OpenBLAS and memcpy ----===//
//
// Prints, from one run, throughput of kiln's compiled kernels and its ratio
// to a reference measured in the same process with the same threads:
// matmul against OpenBLAS sgemm, elementwise add against memcpy, and the
// cost of one near-empty dispatch. Timing as in bench/timing.h.
//
//===----------------------------------------------------------------------===//

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/thread_pool.h"
#include "timing.h"

extern "C" void openblas_set_num_threads(int);

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
  if (!status.ok()) {
    std::fprintf(stderr, "kiln-bench-kernels: error: %s\n",
                 status.ToString().c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string module_path = KILN_BENCH_KERNELS_MODULE;
  int threads = 0;
  int rounds = 3;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--threads=", 0) == 0) {
      threads = std::atoi(arg.c_str() + 10);
    } else if (arg.rfind("--module=", 0) == 0) {
      module_path = arg.substr(9);
    } else if (arg.rfind("--rounds=", 0) == 0) {
      rounds = std::max(1, std::atoi(arg.c_str() + 9));
    } else {
      std::fprintf(stderr,
                   "usage: kiln-bench-kernels [--threads=N] [--module=F] "
                   "[--rounds=N]\n");
      return 1;
    }
  }
  auto module = kiln::Module::Load(module_path);
  if (!module.ok()) Check(module.status());
  kiln::ThreadPool pool(threads);
  threads = pool.thread_count();
  openblas_set_num_threads(threads);
  kiln::Context context(*module, &pool);
  std::printf(
      "kiln kernels, %d threads (OpenBLAS with the same count), best of %d "
      "rounds\n\n",
      threads, rounds);

  // Matmul against sgemm.
  std::printf("%-14s %12s %12s %10s\n", "matmul", "kiln GFLOP/s",
              "BLAS GFLOP/s", "kiln/BLAS");
  for (int n : {256, 512, 1000, 1024}) {
    kiln::Tensor a = Filled({n, n}, 0.5f), b = Filled({n, n}, -0.25f);
    std::vector<kiln::Tensor> outputs;
    std::string name = "matmul_" + std::to_string(n);
    int repetitions = n <= 256 ? 40 : n <= 512 ? 20 : 8;
    std::vector<float> c(static_cast<size_t>(n) * n);
    const std::vector<double> seconds = kiln::bench::BestOfRounds(
        rounds, 2, [&](size_t which) {
          if (which == 0) {
            return kiln::bench::MedianSeconds(repetitions, [&] {
              Check(context.Call(name, {a, b}, &outputs));
            });
          }
          return kiln::bench::MedianSeconds(repetitions, [&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
                        1.0f, a.data_as<float>(), n, b.data_as<float>(), n,
                        0.0f, c.data(), n);
          });
        });
    const double kiln_seconds = seconds[0], blas_seconds = seconds[1];
    // The two results must agree, or the comparison means nothing.
    const float* kiln_c = outputs[0].data_as<float>();
    for (size_t i = 0; i < c.size(); i += 4099) {
      float tolerance = 1e-3f * std::max(1.0f, std::abs(c[i]));
      if (std::abs(kiln_c[i] - c[i]) > tolerance) {
        std::fprintf(stderr, "matmul_%d mismatch at %zu: %g vs %g\n", n, i,
                     kiln_c[i], c[i]);
        return 1;
      }
    }
    double flops = 2.0 * n * n * n;
    std::printf("%-14s %12.1f %12.1f %10.2f\n", name.c_str(),
                flops / kiln_seconds * 1e-9, flops / blas_seconds * 1e-9,
                blas_seconds / kiln_seconds);
  }

  // Elementwise add against memcpy: bytes moved per second.
  {
    const int64_t count = 16777216;
    kiln::Tensor a = Filled({count}, 1.0f), b = Filled({count}, 2.0f);
    std::vector<kiln::Tensor> outputs;
    std::vector<float> destination(count);
    const std::vector<double> seconds = kiln::bench::BestOfRounds(
        rounds, 2, [&](size_t which) {
          if (which == 0) {
            return kiln::bench::MedianSeconds(10, [&] {
              Check(context.Call("add", {a, b}, &outputs));
            });
          }
          return kiln::bench::MedianSeconds(10, [&] {
            std::memcpy(destination.data(), a.data(), count * sizeof(float));
          });
        });
    const double kiln_seconds = seconds[0], memcpy_seconds = seconds[1];
    double kiln_bytes = 3.0 * count * sizeof(float);    // 2 reads, 1 write
    double memcpy_bytes = 2.0 * count * sizeof(float);  // 1 read, 1 write
    std::printf("\n%-14s %12s %12s %10s\n", "elementwise", "kiln GB/s",
                "memcpy GB/s", "kiln/memcpy");
    std::printf("%-14s %12.1f %12.1f %10.2f\n", "add 16Mi f32",
                kiln_bytes / kiln_seconds * 1e-9,
                memcpy_bytes / memcpy_seconds * 1e-9,
                (kiln_bytes / kiln_seconds) / (memcpy_bytes / memcpy_seconds));
  }

  // Per-dispatch overhead: 100 dependent one-FMA dispatches per call.
  {
    kiln::Tensor x = Filled({1, 1}, 0.5f);
    std::vector<kiln::Tensor> outputs;
    const double seconds =
        kiln::bench::BestOfRounds(rounds, 1, [&](size_t) {
          return kiln::bench::MedianSeconds(200, [&] {
            Check(context.Call("tiny_chain", {x}, &outputs));
          });
        })[0];
    std::printf("\n%-14s %12.2f us per dispatch (call of 100 dispatches: "
                "%.1f us)\n",
                "dispatch", seconds / 100 * 1e6, seconds * 1e6);
  }
  return 0;
}
