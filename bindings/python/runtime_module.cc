//===- runtime_module.cc - kiln._runtime: load and run modules -----------===//
//
// The runtime's public API for Python. Tensors cross as (element type,
// shape, bytes) triples whose bytes are a 1-d uint8 view of a NumPy array:
// an input is read where it lies, and a result's array owns the runtime's
// storage. The package (kiln/__init__.py) maps element types to dtypes.
//
// A Module keeps idle contexts, each with its own thread pool: a call takes
// one (or makes one) and runs with the GIL released, so calls from several
// Python threads run at once.
//
//===----------------------------------------------------------------------===//

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/profile_report.h"
#include "kiln/profiler.h"
#include "kiln/source_lines.h"
#include "kiln/sources.h"
#include "kiln/status.h"
#include "kiln/tensor.h"
#include "kiln/thread_pool.h"
#include "kiln/trace.h"

namespace nb = nanobind;

namespace {

// Raised as kiln.RuntimeError with the message the tools print.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void ThrowIfError(const kiln::Status& status) {
  if (!status.ok()) throw Failure(status.message());
}

template <typename T>
T ValueOrThrow(kiln::StatusOr<T> value) {
  ThrowIfError(value.status());
  return std::move(*value);
}

using ByteView =
    nb::ndarray<uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// The element type of a buffer's struct-module format as NumPy exports
// native arrays of the types kiln and NumPy share; none for any other (a
// byte-swapped array, bf16 and the small floats of ml_dtypes, which NumPy
// cannot export).
std::optional<kiln::ElementType> ElementTypeOfFormat(const char* format) {
  if (format == nullptr || format[0] == '\0' || format[1] != '\0')
    return std::nullopt;
  switch (format[0]) {
    case 'f':
      return kiln::ElementType::kF32;
    case 'd':
      return kiln::ElementType::kF64;
    case 'e':
      return kiln::ElementType::kF16;
    case '?':
      return kiln::ElementType::kI1;
    case 'b':
      return kiln::ElementType::kI8;
    case 'h':
      return kiln::ElementType::kI16;
    case 'i':
      return kiln::ElementType::kI32;
    case 'l':
    case 'q':
      return kiln::ElementType::kI64;
    default:
      return std::nullopt;
  }
}

// The DLPack type NumPy makes an array of, for the types it has.
std::optional<nb::dlpack::dtype> NumPyType(kiln::ElementType type) {
  using Code = nb::dlpack::dtype_code;
  auto make = [](Code code, int bits) {
    return nb::dlpack::dtype{static_cast<uint8_t>(code),
                             static_cast<uint8_t>(bits), 1};
  };
  switch (type) {
    case kiln::ElementType::kF32:
      return make(Code::Float, 32);
    case kiln::ElementType::kF64:
      return make(Code::Float, 64);
    case kiln::ElementType::kF16:
      return make(Code::Float, 16);
    case kiln::ElementType::kI1:
      return make(Code::Bool, 8);
    case kiln::ElementType::kI8:
      return make(Code::Int, 8);
    case kiln::ElementType::kI16:
      return make(Code::Int, 16);
    case kiln::ElementType::kI32:
      return make(Code::Int, 32);
    case kiln::ElementType::kI64:
      return make(Code::Int, 64);
    default:
      return std::nullopt;
  }
}

// A buffer exported by an argument, released when done (with the GIL).
class ArgumentBuffer {
 public:
  ArgumentBuffer() = default;
  ArgumentBuffer(const ArgumentBuffer&) = delete;
  ArgumentBuffer& operator=(const ArgumentBuffer&) = delete;

  // Fails (false, no error set) unless `object` exports a C-contiguous
  // buffer of a type ElementTypeOfFormat knows, aligned for it.
  bool Get(PyObject* object) {
    if (PyObject_GetBuffer(object, &view_, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) !=
        0) {
      PyErr_Clear();
      return false;
    }
    held_ = true;
    type_ = ElementTypeOfFormat(view_.format);
    return type_ && reinterpret_cast<uintptr_t>(view_.buf) %
                            kiln::ElementTypeByteSize(*type_) ==
                        0;
  }
  ~ArgumentBuffer() {
    if (held_) PyBuffer_Release(&view_);
  }

  kiln::StatusOr<kiln::Tensor> Borrow() const {
    kiln::Shape shape(view_.shape, view_.shape + view_.ndim);
    return kiln::Tensor::Borrow(*type_, std::move(shape), view_.buf,
                                static_cast<uint64_t>(view_.len));
  }

 private:
  Py_buffer view_{};
  bool held_ = false;
  std::optional<kiln::ElementType> type_;
};

nb::tuple ShapeTuple(const kiln::Shape& shape) {
  nb::list dims;
  for (int64_t dim : shape) dims.append(dim);
  return nb::tuple(dims);
}

nb::tuple TypeTuple(const kiln::TensorType& type) {
  return nb::make_tuple(static_cast<int>(type.element_type),
                        ShapeTuple(type.shape));
}

// The process's tracer, installed by StartTrace: calls hold the lock shared
// while they run, so a tracer is installed and flushed between calls only.
std::shared_mutex g_trace_mutex;
std::unique_ptr<kiln::Tracer> g_tracer;  // guarded by g_trace_mutex

void StartTrace(const std::string& spec, const std::string& stage,
                bool workgroup_zones, bool print_source) {
  kiln::TraceOptions options;
  options.stage = stage;
  options.workgroup_zones = workgroup_zones;
  options.print_source = print_source;
  nb::gil_scoped_release release;
  std::unique_lock<std::shared_mutex> lock(g_trace_mutex);
  if (g_tracer) throw Failure("a trace is already running");
  g_tracer = ValueOrThrow(kiln::CreateTracer(spec, options));
  kiln::SetTracer(g_tracer.get());
}

void StopTrace() {
  nb::gil_scoped_release release;
  std::unique_lock<std::shared_mutex> lock(g_trace_mutex);
  if (!g_tracer) return;
  kiln::Status flushed = g_tracer->Flush();
  kiln::SetTracer(nullptr);
  g_tracer.reset();
  ThrowIfError(flushed);
}

// The samples of one function of one module over the calls of a profile.
struct SampledFunction {
  std::shared_ptr<const kiln::Module> module;
  size_t function = 0;
  int threads = 0;
  uint64_t calls = 0;
  std::vector<uintptr_t> pcs;
  uint64_t dropped = 0;
};

// The profile StartProfile began: while it runs, every call is sampled on
// a Profiler of its own, and since one Profiler samples at a time per
// process, profiled calls run one at a time (g_profile_mutex).
struct ProfileSession {
  kiln::ProfilerOptions options;
  std::vector<SampledFunction> functions;
};
std::atomic<bool> g_profiling{false};
std::mutex g_profile_mutex;
std::unique_ptr<ProfileSession> g_profile;  // guarded by g_profile_mutex

void StartProfile(uint32_t hz) {
  if (hz < 1 || hz > 100000)
    throw Failure("hz must be in [1, 100000] samples per second, got " +
                  std::to_string(hz));
  nb::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(g_profile_mutex);
  if (g_profile) throw Failure("a profile is already running");
  g_profile = std::make_unique<ProfileSession>();
  g_profile->options.hz = hz;
  g_profiling.store(true);
}

// A stopped profile: each function's samples resolved against its module,
// which it keeps alive, and shown at any captured stage.
class PyProfile {
 public:
  explicit PyProfile(std::unique_ptr<ProfileSession> session)
      : hz_(session->options.hz) {
    for (SampledFunction& sampled : session->functions) {
      kiln::Profile profile =
          kiln::ResolveProfile(*sampled.module, sampled.pcs, sampled.dropped);
      functions_.push_back({std::move(sampled), std::move(profile)});
    }
  }

  uint32_t hz() const { return hz_; }

  // Each function as (module name, function name, calls, samples, host
  // samples, dropped samples).
  nb::list Functions() const {
    nb::list functions;
    for (const Entry& entry : functions_) {
      const kiln::Module& module = *entry.sampled.module;
      functions.append(nb::make_tuple(
          std::string(module.name()),
          module.functions()[entry.sampled.function].name, entry.sampled.calls,
          entry.profile.samples, entry.profile.host_samples,
          entry.profile.dropped_samples));
    }
    return functions;
  }

  std::string Table(size_t index, const std::string& stage) const {
    const Entry& entry = At(index);
    kiln::ProfileReportOptions options;
    options.hz = hz_;
    options.threads = entry.sampled.threads;
    return kiln::FormatProfileTable(*entry.sampled.module,
                                    AtStage(entry, stage), FunctionName(entry),
                                    options);
  }

  std::string Folded(size_t index, const std::string& stage) const {
    const Entry& entry = At(index);
    return kiln::FormatCollapsedStacks(AtStage(entry, stage),
                                       FunctionName(entry));
  }

  // Every sampled line as (export, samples, export's samples, path, line,
  // its text, node name, node op type), an export's lines hottest first.
  nb::list Lines(size_t index, const std::string& stage) const {
    const Entry& entry = At(index);
    const kiln::Profile profile = AtStage(entry, stage);
    kiln::SourceLines texts(*entry.sampled.module);
    nb::list lines;
    for (const kiln::ProfileExport& ex : profile.exports) {
      for (const kiln::ProfileLine& line : ex.lines) {
        std::string text;
        nb::object node = nb::none(), op_type = nb::none();
        if (line.line != 0 && line.source != kiln::kNoSource)
          text = texts.Get(line.source, line.line);
        if (line.line != 0) {
          if (std::optional<kiln::InputNodeView> found =
                  kiln::FindLineNode(ex.export_view, line.path, line.line)) {
            node = nb::str(found->name.data(), found->name.size());
            op_type = nb::str(found->op_type.data(), found->op_type.size());
          }
        }
        lines.append(nb::make_tuple(
            std::string(ex.export_view.name()), line.samples, ex.samples,
            std::string(line.path), line.line, text, node, op_type));
      }
    }
    return lines;
  }

 private:
  struct Entry {
    SampledFunction sampled;
    kiln::Profile profile;
  };

  const Entry& At(size_t index) const {
    if (index >= functions_.size())
      throw Failure("no function " + std::to_string(index) + " in the profile");
    return functions_[index];
  }

  static std::string FunctionName(const Entry& entry) {
    return entry.sampled.module->functions()[entry.sampled.function].name;
  }

  // The profile at the lines of `stage` (a captured stage, or "input");
  // "" keeps the lines the module's line table names.
  static kiln::Profile AtStage(const Entry& entry, const std::string& stage) {
    if (stage.empty()) return entry.profile;
    return ValueOrThrow(
        kiln::RollUpProfile(*entry.sampled.module, entry.profile, stage));
  }

  uint32_t hz_;
  std::vector<Entry> functions_;
};

PyProfile* StopProfile() {
  std::unique_ptr<ProfileSession> session;
  {
    nb::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(g_profile_mutex);
    session = std::move(g_profile);
    g_profiling.store(false);
  }
  if (!session) throw Failure("no profile is running");
  return new PyProfile(std::move(session));
}

// A context and the threads it runs dispatches on, for one call at a time.
struct Runner {
  Runner(std::shared_ptr<const kiln::Module> module, int threads)
      : pool(threads), context(std::move(module), &pool) {}
  kiln::ThreadPool pool;
  kiln::Context context;
};

class PyModule {
 public:
  PyModule(std::shared_ptr<const kiln::Module> module, int threads)
      : module_(std::move(module)), threads_(threads) {}

  static PyModule* Load(const std::string& path, int threads,
                        bool perf_visible) {
    CheckThreads(threads);
    kiln::ModuleLoadOptions options;
    options.perf_visible_libraries = perf_visible;
    auto module = [&] {
      nb::gil_scoped_release release;
      return kiln::Module::Load(path, options);
    }();
    return new PyModule(ValueOrThrow(std::move(module)), threads);
  }

  static PyModule* FromBytes(nb::bytes data, int threads, bool perf_visible) {
    CheckThreads(threads);
    kiln::ModuleLoadOptions options;
    options.perf_visible_libraries = perf_visible;
    auto module = [&] {
      nb::gil_scoped_release release;
      return kiln::Module::LoadFromMemory(
          data.c_str(), data.size(), kiln::Module::MemoryMode::kCopy, options);
    }();
    return new PyModule(ValueOrThrow(std::move(module)), threads);
  }

  // The module, or kiln.RuntimeError once closed.
  std::shared_ptr<const kiln::Module> Get() const {
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

  // Each function as (name, [(type, shape)], [(type, shape)], argument
  // names, result names, signature text).
  nb::list Functions() const {
    std::shared_ptr<const kiln::Module> module = Get();
    nb::list functions;
    for (const kiln::FunctionSignature& signature : module->functions()) {
      nb::list arguments, results;
      for (const kiln::TensorType& type : signature.arguments)
        arguments.append(TypeTuple(type));
      for (const kiln::TensorType& type : signature.results)
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
    std::shared_ptr<const kiln::Module> module = Get();
    if (index >= module->functions().size())
      throw Failure("no function " + std::to_string(index));
    std::vector<ByteView> views;  // keeps the arrays alive while running
    std::vector<kiln::Tensor> tensors;
    views.reserve(inputs.size());
    tensors.reserve(inputs.size());
    for (const nb::tuple& input : inputs) {
      if (input.size() != 3) throw Failure("an input is (type, shape, bytes)");
      int type = nb::cast<int>(input[0]);
      if (type < 0 || !kiln::IsValidElementType(type))
        throw Failure("unknown element type " + std::to_string(type));
      kiln::Shape shape = nb::cast<kiln::Shape>(input[1]);
      views.push_back(nb::cast<ByteView>(input[2], /*convert=*/false));
      const ByteView& bytes = views.back();
      tensors.push_back(ValueOrThrow(
          kiln::Tensor::Borrow(static_cast<kiln::ElementType>(type),
                               std::move(shape), bytes.data(), bytes.size())));
    }
    return Results(Run(module, index, tensors), /*typed=*/false);
  }

  // The fast path of a call on NumPy arrays: when every argument is a
  // C-contiguous, aligned array of a type NumPy and kiln share, runs
  // function `index` on them where they lie and returns its results as
  // arrays (results of bf16 and the small floats as (type, shape, bytes)
  // triples); None otherwise, for the package to convert the arguments.
  nb::object CallArrays(size_t index, nb::tuple arguments) {
    std::shared_ptr<const kiln::Module> module = Get();
    if (index >= module->functions().size())
      throw Failure("no function " + std::to_string(index));
    const size_t count = arguments.size();
    std::vector<ArgumentBuffer> buffers(count);
    std::vector<kiln::Tensor> tensors;
    tensors.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      if (!buffers[i].Get(arguments[i].ptr())) return nb::none();
      tensors.push_back(ValueOrThrow(buffers[i].Borrow()));
    }
    return Results(Run(module, index, tensors), /*typed=*/true);
  }

  nb::bytes Bytes() const {
    std::shared_ptr<const kiln::Module> module = Get();
    return nb::bytes(reinterpret_cast<const char*>(module->data()),
                     module->size());
  }

  std::string Name() const { return std::string(Get()->name()); }

  uint32_t DebugLevel() const { return Get()->debug_level(); }

  std::vector<std::string> CaptureStages() const {
    std::shared_ptr<const kiln::Module> module = Get();
    std::vector<std::string> stages;
    for (uint32_t i = 0; i < module->capture_stage_count(); ++i)
      stages.emplace_back(module->capture_stage(i));
    return stages;
  }

  // Each embedded text as (path, bytes, lines, previous stage's path or
  // None).
  nb::list Sources() const {
    std::shared_ptr<const kiln::Module> module = Get();
    const kiln::SourceTable& table = module->sources();
    nb::list sources;
    for (uint32_t i = 0; i < table.size(); ++i) {
      kiln::SourceFileView file = table.file(i);
      nb::object previous = nb::none();
      if (file.previous != kiln::kNoSource)
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
    std::shared_ptr<const kiln::Module> module = Get();
    std::optional<kiln::SourceFileView> file = module->sources().Find(path);
    if (!file) throw Failure("the module embeds no text '" + path + "'");
    nb::gil_scoped_release release;
    return ValueOrThrow(file->Decompress());
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
  std::vector<kiln::Tensor> Run(
      const std::shared_ptr<const kiln::Module>& module, size_t index,
      const std::vector<kiln::Tensor>& inputs) {
    std::vector<kiln::Tensor> outputs;
    kiln::Status status;
    {
      nb::gil_scoped_release release;
      std::shared_lock<std::shared_mutex> tracing(g_trace_mutex);
      std::unique_ptr<Runner> runner = Acquire(module);
      if (!runner->pool.status().ok()) {
        status = runner->pool.status();
      } else if (g_profiling.load()) {
        status = CallProfiled(*runner, module, index, inputs, &outputs);
      } else {
        status = runner->context.Call(index, inputs, &outputs);
      }
      Release(std::move(runner));
    }
    ThrowIfError(status);
    return outputs;
  }

  // Runs the call under a Profiler and keeps its samples in the profile
  // (or runs it plainly when the profile stopped meanwhile).
  kiln::Status CallProfiled(Runner& runner,
                            const std::shared_ptr<const kiln::Module>& module,
                            size_t index,
                            const std::vector<kiln::Tensor>& inputs,
                            std::vector<kiln::Tensor>* outputs) {
    std::lock_guard<std::mutex> lock(g_profile_mutex);
    if (!g_profile) return runner.context.Call(index, inputs, outputs);
    KILN_ASSIGN_OR_RETURN(
        std::unique_ptr<kiln::Profiler> profiler,
        kiln::Profiler::Start(&runner.pool, g_profile->options));
    kiln::Status status = runner.context.Call(index, inputs, outputs);
    profiler->Stop();
    std::vector<SampledFunction>& functions = g_profile->functions;
    auto sampled = std::find_if(
        functions.begin(), functions.end(), [&](const SampledFunction& f) {
          return f.module == module && f.function == index;
        });
    if (sampled == functions.end()) {
      functions.push_back({module, index, runner.pool.thread_count()});
      sampled = functions.end() - 1;
    }
    ++sampled->calls;
    sampled->dropped += profiler->dropped_samples();
    std::vector<uintptr_t> pcs = profiler->TakeSamples();
    sampled->pcs.insert(sampled->pcs.end(), pcs.begin(), pcs.end());
    return status;
  }

  // The results as arrays that own their tensors: typed ones where NumPy
  // has the type and `typed` is set, else (type, shape, bytes) triples.
  static nb::list Results(std::vector<kiln::Tensor> outputs, bool typed) {
    nb::list results;
    for (kiln::Tensor& output : outputs) {
      auto* owner = new kiln::Tensor(std::move(output));
      nb::capsule keep(owner, [](void* tensor) noexcept {
        delete static_cast<kiln::Tensor*>(tensor);
      });
      std::optional<nb::dlpack::dtype> dtype =
          typed ? NumPyType(owner->element_type()) : std::nullopt;
      if (dtype) {
        std::vector<size_t> shape(owner->shape().begin(), owner->shape().end());
        results.append(nb::cast(nb::ndarray<nb::numpy>(
            owner->mutable_data(), shape.size(), shape.data(), keep,
            /*strides=*/nullptr, *dtype)));
        continue;
      }
      size_t byte_size = static_cast<size_t>(owner->byte_size());
      nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>> bytes(
          owner->mutable_data_as<uint8_t>(), {byte_size}, keep);
      results.append(nb::make_tuple(static_cast<int>(owner->element_type()),
                                    ShapeTuple(owner->shape()),
                                    nb::cast(bytes)));
    }
    return results;
  }

  std::unique_ptr<Runner> Acquire(
      const std::shared_ptr<const kiln::Module>& module) {
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
  std::shared_ptr<const kiln::Module> module_;
  const int threads_;
  std::vector<std::unique_ptr<Runner>> idle_;
};

}  // namespace

NB_MODULE(_runtime, m) {
  m.doc() = "kiln's runtime: load modules and run their functions";
  nb::exception<Failure>(m, "RuntimeError", PyExc_RuntimeError);

  std::vector<std::string> names;
  std::vector<size_t> sizes;
  for (int i = 0; i < kiln::kElementTypeCount; ++i) {
    auto type = static_cast<kiln::ElementType>(i);
    names.emplace_back(kiln::ElementTypeName(type));
    sizes.push_back(kiln::ElementTypeByteSize(type));
  }
  m.attr("ELEMENT_TYPE_NAMES") = names;
  m.attr("ELEMENT_TYPE_SIZES") = sizes;
  m.attr("MODULE_VERSION") = kiln::kModuleVersion;

  m.def("start_trace", &StartTrace, nb::arg("spec"), nb::arg("stage"),
        nb::arg("workgroup_zones"), nb::arg("print_source"));
  m.def("stop_trace", &StopTrace);
  m.attr("AVAILABLE_TRACERS") = std::string(kiln::AvailableTracers());
  m.def("start_profile", &StartProfile, nb::arg("hz"));
  m.def("stop_profile", &StopProfile);
  m.attr("INPUT_STAGE") = std::string(kiln::kInputStage);

  nb::class_<PyProfile>(m, "Profile")
      .def_prop_ro("hz", &PyProfile::hz)
      .def("functions", &PyProfile::Functions)
      .def("table", &PyProfile::Table, nb::arg("index"), nb::arg("stage"))
      .def("folded", &PyProfile::Folded, nb::arg("index"), nb::arg("stage"))
      .def("lines", &PyProfile::Lines, nb::arg("index"), nb::arg("stage"));

  nb::class_<PyModule>(m, "Module")
      .def_static("load", &PyModule::Load, nb::arg("path"),
                  nb::arg("threads") = 0, nb::arg("perf_visible") = false)
      .def_static("from_bytes", &PyModule::FromBytes, nb::arg("data"),
                  nb::arg("threads") = 0, nb::arg("perf_visible") = false)
      .def("close", &PyModule::Close)
      .def_prop_ro("closed", &PyModule::closed)
      .def_prop_ro("threads", &PyModule::threads)
      .def_prop_ro("name", &PyModule::Name)
      .def_prop_ro("debug_level", &PyModule::DebugLevel)
      .def_prop_ro("capture_stages", &PyModule::CaptureStages)
      .def("functions", &PyModule::Functions)
      .def("call", &PyModule::Call, nb::arg("index"), nb::arg("inputs"))
      .def("call_arrays", &PyModule::CallArrays, nb::arg("index"),
           nb::arg("arguments"))
      .def("bytes", &PyModule::Bytes)
      .def("sources", &PyModule::Sources)
      .def("read_source", &PyModule::ReadSource, nb::arg("path"));
}
