//===- runtime_module.cc - kiln._runtime: load and run modules -----------===//
//
// The runtime's public API for Python: modules loaded and called (arrays
// cross as arrays.h says; the package, kiln/__init__.py, maps element
// types to dtypes and converts what arrays.h does not take), traced
// (tracing.h) and profiled (profiling.h).
//
// A Module keeps idle contexts, each with its own thread pool: a call takes
// one (or makes one) and runs with the GIL released, so calls from several
// Python threads run at once.
//
//===----------------------------------------------------------------------===//

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "arrays.h"
#include "errors.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/printable.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "profiling.h"
#include "tracing.h"

namespace nb = nanobind;

namespace kiln::python {
namespace {

using ByteView =
    nb::ndarray<uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

nb::tuple TypeTuple(const TensorType& type) {
  return nb::make_tuple(static_cast<int>(type.element_type),
                        ShapeTuple(type.shape));
}

// A context and the threads it runs dispatches on, for one call at a time.
struct Runner {
  Runner(std::shared_ptr<const Module> module, int threads)
      : pool(threads), context(std::move(module), &pool) {}
  ThreadPool pool;
  Context context;
};

class PyModule {
 public:
  PyModule(std::shared_ptr<const Module> module, int threads)
      : module_(std::move(module)), threads_(threads) {}

  static PyModule* Load(const std::string& path, int threads, bool perf_visible,
                        const std::string& variant) {
    CheckThreads(threads);
    ModuleLoadOptions options;
    options.perf_visible_libraries = perf_visible;
    options.variant = variant;
    auto module = [&] {
      nb::gil_scoped_release release;
      return Module::Load(path, options);
    }();
    return new PyModule(ValueOrThrow(std::move(module)), threads);
  }

  static PyModule* FromBytes(nb::bytes data, int threads, bool perf_visible,
                             const std::string& variant) {
    CheckThreads(threads);
    ModuleLoadOptions options;
    options.perf_visible_libraries = perf_visible;
    options.variant = variant;
    auto module = [&] {
      nb::gil_scoped_release release;
      return Module::LoadFromMemory(data.c_str(), data.size(),
                                    Module::MemoryMode::kCopy, options);
    }();
    return new PyModule(ValueOrThrow(std::move(module)), threads);
  }

  // The module, or kiln.RuntimeError once closed.
  std::shared_ptr<const Module> Get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!module_) throw Failure("the module is closed");
    return module_;
  }

  void Close() {
    std::vector<std::unique_ptr<Runner>> idle;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      module_.reset();
      idle.swap(idle_);
    }
    nb::gil_scoped_release release;
    idle.clear();  // joins the pools' workers
  }

  bool closed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return module_ == nullptr;
  }

  int threads() const { return threads_; }

  // The code variant that runs, by name.
  std::string Variant() const { return std::string(Get()->variant_name()); }

  // Each code variant as (name, cpu, [feature], why it cannot run here or
  // "").
  nb::list Variants() const {
    std::shared_ptr<const Module> module = Get();
    nb::list variants;
    for (const CodeVariantInfo& variant : module->variants()) {
      std::vector<std::string> features(variant.cpu_features.begin(),
                                        variant.cpu_features.end());
      variants.append(nb::make_tuple(std::string(variant.name),
                                     std::string(variant.cpu), features,
                                     variant.unsupported));
    }
    return variants;
  }

  // Each function as (name, [(type, shape)], [(type, shape)], argument
  // names, result names, signature text).
  nb::list Functions() const {
    std::shared_ptr<const Module> module = Get();
    nb::list functions;
    for (const FunctionSignature& signature : module->functions()) {
      nb::list arguments, results;
      for (const TensorType& type : signature.arguments)
        arguments.append(TypeTuple(type));
      for (const TensorType& type : signature.results)
        results.append(TypeTuple(type));
      functions.append(nb::make_tuple(
          signature.name, arguments, results, signature.argument_names,
          signature.result_names, signature.ToString()));
    }
    return functions;
  }

  // Runs function `index` on (type, shape, bytes) inputs and returns its
  // results as (type, shape, bytes) triples whose bytes own the tensors.
  nb::list Call(size_t index, const std::vector<nb::tuple>& inputs) {
    std::shared_ptr<const Module> module = Get();
    if (index >= module->functions().size())
      throw Failure("no function " + std::to_string(index));
    std::vector<ByteView> views;  // keeps the arrays alive while running
    std::vector<Tensor> tensors;
    views.reserve(inputs.size());
    tensors.reserve(inputs.size());
    for (const nb::tuple& input : inputs) {
      if (input.size() != 3) throw Failure("an input is (type, shape, bytes)");
      int type = nb::cast<int>(input[0]);
      if (type < 0 || !IsValidElementType(type))
        throw Failure("unknown element type " + std::to_string(type));
      Shape shape = nb::cast<Shape>(input[1]);
      views.push_back(nb::cast<ByteView>(input[2], /*convert=*/false));
      const ByteView& bytes = views.back();
      tensors.push_back(ValueOrThrow(
          Tensor::Borrow(static_cast<ElementType>(type), std::move(shape),
                         bytes.data(), bytes.size())));
    }
    return ResultArrays(Run(module, index, tensors), /*typed=*/false);
  }

  // The fast path of a call on NumPy arrays: when every argument is a
  // C-contiguous, aligned array of a type NumPy and kiln share, runs
  // function `index` on them where they lie and returns its results as
  // arrays (results of bf16 and the small floats as (type, shape, bytes)
  // triples); None otherwise, for the package to convert the arguments.
  nb::object CallArrays(size_t index, nb::tuple arguments) {
    std::shared_ptr<const Module> module = Get();
    if (index >= module->functions().size())
      throw Failure("no function " + std::to_string(index));
    const size_t count = arguments.size();
    std::vector<ArgumentBuffer> buffers(count);
    std::vector<Tensor> tensors;
    tensors.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      if (!buffers[i].Get(arguments[i].ptr())) return nb::none();
      tensors.push_back(ValueOrThrow(buffers[i].Borrow()));
    }
    return ResultArrays(Run(module, index, tensors), /*typed=*/true);
  }

  nb::bytes Bytes() const {
    std::shared_ptr<const Module> module = Get();
    return nb::bytes(reinterpret_cast<const char*>(module->data()),
                     module->size());
  }

  std::string Name() const { return std::string(Get()->name()); }

  uint32_t DebugLevel() const { return Get()->debug_level(); }

  std::vector<std::string> CaptureStages() const {
    std::shared_ptr<const Module> module = Get();
    std::vector<std::string> stages;
    for (uint32_t i = 0; i < module->capture_stage_count(); ++i)
      stages.emplace_back(module->capture_stage(i));
    return stages;
  }

  // Each embedded text as (path, bytes, lines, previous stage's path or
  // None).
  nb::list Sources() const {
    std::shared_ptr<const Module> module = Get();
    const SourceTable& table = module->sources();
    nb::list sources;
    for (uint32_t i = 0; i < table.size(); ++i) {
      SourceFileView file = table.file(i);
      nb::object previous = nb::none();
      if (file.previous != kNoSource)
        previous = nb::str(table.file(file.previous).path.data(),
                           table.file(file.previous).path.size());
      sources.append(nb::make_tuple(nb::str(file.path.data(), file.path.size()),
                                    file.uncompressed_size, file.line_count,
                                    previous));
    }
    return sources;
  }

  // The text at `path`, decompressed and checked against its hash.
  std::string ReadSource(const std::string& path) const {
    std::shared_ptr<const Module> module = Get();
    std::optional<SourceFileView> file = module->sources().Find(path);
    if (!file) throw Failure("the module embeds no text '" + path + "'");
    nb::gil_scoped_release release;
    return ValueOrThrow(file->Decompress());
  }

  // The text at `path` as kiln-dump --print-source shows it: every line, or
  // those within `context` of `line` with it marked; numbered and escaped.
  std::vector<std::string> NumberedLines(const std::string& path, uint64_t line,
                                         uint64_t context) const {
    const std::string text = ReadSource(path);
    const uint64_t first = line > context ? line - context : 1;
    const LineWindow window =
        FindLineWindow(text, first, line ? line + context : UINT64_MAX);
    if (line > window.line_count) {
      throw Failure("line " + std::to_string(line) + " is past the end of '" +
                    Printable(path) + "' (" +
                    std::to_string(window.line_count) + " lines)");
    }
    std::vector<std::string> lines;
    ForEachNumberedLine(
        window, line, std::to_string(window.last).size(),
        [&](const std::string& numbered) { lines.push_back(numbered); });
    return lines;
  }

 private:
  static void CheckThreads(int threads) {
    if (threads < 0 || threads > 1024)
      throw Failure(
          "threads must be in [1, 1024] (0: hardware concurrency), "
          "got " +
          std::to_string(threads));
  }

  // Runs function `index` with the GIL released, on an idle context.
  std::vector<Tensor> Run(const std::shared_ptr<const Module>& module,
                          size_t index, const std::vector<Tensor>& inputs) {
    std::vector<Tensor> outputs;
    Status status;
    {
      nb::gil_scoped_release release;
      std::shared_lock<std::shared_mutex> tracing = HoldTracer();
      std::unique_ptr<Runner> runner = Acquire(module);
      if (!runner->pool.status().ok()) {
        status = runner->pool.status();
      } else if (Profiling()) {
        status = CallProfiled(runner->context, runner->pool, module, index,
                              inputs, &outputs);
      } else {
        status = runner->context.Call(index, inputs, &outputs);
      }
      Release(std::move(runner));
    }
    ThrowIfError(status);
    return outputs;
  }

  std::unique_ptr<Runner> Acquire(const std::shared_ptr<const Module>& module) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        std::unique_ptr<Runner> runner = std::move(idle_.back());
        idle_.pop_back();
        return runner;
      }
    }
    return std::make_unique<Runner>(module, threads_);
  }

  void Release(std::unique_ptr<Runner> runner) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (module_) {
        idle_.push_back(std::move(runner));
        return;
      }
    }
    // Closed meanwhile: the runner goes with this call.
  }

  mutable std::mutex mutex_;
  std::shared_ptr<const Module> module_;
  const int threads_;
  std::vector<std::unique_ptr<Runner>> idle_;
};

}  // namespace
}  // namespace kiln::python

NB_MODULE(_runtime, m) {
  using namespace kiln;
  using namespace kiln::python;
  m.doc() = "kiln's runtime: load modules and run their functions";
  nb::exception<Failure>(m, "RuntimeError", PyExc_RuntimeError);

  std::vector<std::string> names;
  std::vector<size_t> sizes;
  for (int i = 0; i < kElementTypeCount; ++i) {
    auto type = static_cast<ElementType>(i);
    names.emplace_back(ElementTypeName(type));
    sizes.push_back(ElementTypeByteSize(type));
  }
  m.attr("ELEMENT_TYPE_NAMES") = names;
  m.attr("ELEMENT_TYPE_SIZES") = sizes;
  m.attr("MODULE_VERSION") = kModuleVersion;

  DefineTracing(m);
  DefineProfiling(m);

  nb::class_<PyModule>(m, "Module")
      .def_static("load", &PyModule::Load, nb::arg("path"),
                  nb::arg("threads") = 0, nb::arg("perf_visible") = false,
                  nb::arg("variant") = "")
      .def_static("from_bytes", &PyModule::FromBytes, nb::arg("data"),
                  nb::arg("threads") = 0, nb::arg("perf_visible") = false,
                  nb::arg("variant") = "")
      .def("close", &PyModule::Close)
      .def_prop_ro("closed", &PyModule::closed)
      .def_prop_ro("threads", &PyModule::threads)
      .def_prop_ro("variant", &PyModule::Variant)
      .def("variants", &PyModule::Variants)
      .def_prop_ro("name", &PyModule::Name)
      .def_prop_ro("debug_level", &PyModule::DebugLevel)
      .def_prop_ro("capture_stages", &PyModule::CaptureStages)
      .def("functions", &PyModule::Functions)
      .def("call", &PyModule::Call, nb::arg("index"), nb::arg("inputs"))
      .def("call_arrays", &PyModule::CallArrays, nb::arg("index"),
           nb::arg("arguments"))
      .def("bytes", &PyModule::Bytes)
      .def("sources", &PyModule::Sources)
      .def("read_source", &PyModule::ReadSource, nb::arg("path"))
      .def("numbered_lines", &PyModule::NumberedLines, nb::arg("path"),
           nb::arg("line"), nb::arg("context"));
}
