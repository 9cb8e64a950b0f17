// A program embedding the installed kiln runtime: loads MODULE, runs its
// function FUNCTION on one tensor of SHAPE (e.g. 4x8) filled with 0.5 and
// prints each result's type and the sum of its elements (f32 results).
//
//   embedder MODULE FUNCTION SHAPE

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: embedder MODULE FUNCTION SHAPE\n");
    return 2;
  }
  auto module = kiln::Module::Load(argv[1]);
  if (!module.ok()) {
    std::fprintf(stderr, "%s\n", module.status().ToString().c_str());
    return 1;
  }
  kiln::Shape shape;
  for (const char* p = argv[3]; *p;) {
    char* end = nullptr;
    shape.push_back(std::strtoll(p, &end, 10));
    p = *end == 'x' ? end + 1 : end;
    if (end == p && *p) return 2;
  }
  auto input = kiln::Tensor::Allocate(kiln::ElementType::kF32, shape);
  if (!input.ok()) return 1;
  float* data = static_cast<float*>(input->mutable_data());
  for (int64_t i = 0; i < input->element_count(); ++i) data[i] = 0.5f;

  kiln::ThreadPool pool(2);
  kiln::Context context(*module, &pool);
  std::vector<kiln::Tensor> outputs;
  kiln::Status status = context.Call(argv[2], {*input}, &outputs);
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", status.ToString().c_str());
    return 1;
  }
  for (const kiln::Tensor& output : outputs) {
    double sum = 0;
    if (output.element_type() == kiln::ElementType::kF32) {
      const float* values = static_cast<const float*>(output.data());
      for (int64_t i = 0; i < output.element_count(); ++i) sum += values[i];
    }
    std::printf("%s sum %.4f\n", output.type().ToString().c_str(), sum);
  }
  return 0;
}
