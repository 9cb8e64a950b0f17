//===- profiling.cc - kiln.profile: sampled calls from Python ------------===//

#include "profiling.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "errors.h"
#include "kiln/debug_info.h"
#include "kiln/profile_report.h"
#include "kiln/profiler.h"
#include "kiln/source_lines.h"
#include "kiln/sources.h"

namespace nb = nanobind;

namespace kiln::python {

namespace {

// The samples of one function of one module over the calls of a profile.
struct SampledFunction {
  std::shared_ptr<const Module> module;
  size_t function = 0;
  uint64_t calls = 0;
  std::vector<uintptr_t> pcs;
  uint64_t dropped = 0;
  // How the calls' samples were taken, their CPU time summed.
  std::optional<ProfileSampling> sampling;
};

// The profile StartProfile began: while it runs, every call is sampled on
// a Profiler of its own, and since one Profiler samples at a time per
// process, profiled calls run one at a time (g_profile_mutex).
struct ProfileSession {
  ProfilerOptions options;
  std::vector<SampledFunction> functions;
};
std::atomic<bool> g_profiling{false};  // g_profile is set
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
      Profile profile = ValueOrThrow(
          ResolveProfile(*sampled.module, sampled.pcs, sampled.dropped));
      profile.sampling = sampled.sampling;
      functions_.push_back({std::move(sampled), std::move(profile)});
    }
  }

  uint32_t hz() const { return hz_; }

  // Each function as (module name, function name, calls, samples, host
  // samples, dropped samples).
  nb::list Functions() const {
    nb::list functions;
    for (const Entry& entry : functions_) {
      const Module& module = *entry.sampled.module;
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
    ProfileReportOptions options;
    return FormatProfileTable(*entry.sampled.module, AtStage(entry, stage),
                              FunctionName(entry), options);
  }

  std::string Folded(size_t index, const std::string& stage) const {
    const Entry& entry = At(index);
    return FormatCollapsedStacks(AtStage(entry, stage), FunctionName(entry));
  }

  // Every sampled line as (export, samples, export's samples, path, line,
  // its text, node name, node op type), an export's lines hottest first.
  nb::list Lines(size_t index, const std::string& stage) const {
    const Entry& entry = At(index);
    const Profile profile = AtStage(entry, stage);
    SourceLines texts(*entry.sampled.module);
    nb::list lines;
    for (const ProfileExport& ex : profile.exports) {
      for (const ProfileLine& line : ex.lines) {
        std::string text;
        nb::object node = nb::none(), op_type = nb::none();
        if (line.line != 0 && line.source != kNoSource)
          text = texts.Get(line.source, line.line);
        if (line.line != 0) {
          std::optional<FusedOpView> op =
              FindLineOp(ex.export_view, line.path, line.line);
          if (op && op->node.known()) {
            node = nb::str(op->node.name.data(), op->node.name.size());
            op_type = nb::str(op->node.op_type.data(), op->node.op_type.size());
          }
        }
        lines.append(nb::make_tuple(
            std::string(ex.export_view.name()), line.samples, ex.samples,
            std::string(line.path), line.line, text, node, op_type));
      }
    }
    return lines;
  }

  // The samples per input op (a model's node) at the input's lines:
  // ([(name or None, op type or op, location, samples, CPU seconds,
  // (dispatches...))], samples in kernels, samples on no op's line).
  nb::tuple InputOps(size_t index) const {
    const Entry& entry = At(index);
    const Profile profile = AtStage(entry, std::string(kInputStage));
    const ProfileInputOps by_op = ProfileByInputOp(profile);
    const double seconds_per_sample = profile.cpu_seconds_per_sample();
    nb::list ops;
    for (const ProfileInputOp& op : by_op.ops) {
      nb::list exports;
      for (std::string_view name : op.exports)
        exports.append(std::string(name));
      nb::object name = nb::none();
      if (op.node.known())
        name = nb::str(op.node.name.data(), op.node.name.size());
      const std::string_view type =
          op.node.known() ? op.node.op_type : op.op_name;
      ops.append(nb::make_tuple(name, std::string(type), op.location.ToString(),
                                op.samples, seconds_per_sample * op.samples,
                                nb::tuple(exports)));
    }
    return nb::make_tuple(ops, by_op.kernel_samples, by_op.unplaced_samples);
  }

 private:
  struct Entry {
    SampledFunction sampled;
    Profile profile;
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
  static Profile AtStage(const Entry& entry, const std::string& stage) {
    if (stage.empty()) return entry.profile;
    return ValueOrThrow(
        RollUpProfile(*entry.sampled.module, entry.profile, stage));
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

}  // namespace

bool Profiling() { return g_profiling.load(); }

Status CallProfiled(Context& context, ThreadPool& pool,
                    const std::shared_ptr<const Module>& module, size_t index,
                    const std::vector<Tensor>& inputs,
                    std::vector<Tensor>* outputs) {
  std::lock_guard<std::mutex> lock(g_profile_mutex);
  if (!g_profile) return context.Call(index, inputs, outputs);
  KILN_ASSIGN_OR_RETURN(std::unique_ptr<Profiler> profiler,
                        Profiler::Start(&pool, g_profile->options));
  Status status = context.Call(index, inputs, outputs);
  profiler->Stop();
  std::vector<SampledFunction>& functions = g_profile->functions;
  auto sampled = std::find_if(
      functions.begin(), functions.end(), [&](const SampledFunction& f) {
        return f.module == module && f.function == index;
      });
  if (sampled == functions.end()) {
    SampledFunction& added = functions.emplace_back();
    added.module = module;
    added.function = index;
    sampled = functions.end() - 1;
  }
  ++sampled->calls;
  sampled->dropped += profiler->dropped_samples();
  const ProfileSampling sampling = profiler->sampling();
  if (!sampled->sampling) {
    sampled->sampling = sampling;
  } else {
    sampled->sampling->cpu_seconds += sampling.cpu_seconds;
  }
  std::vector<uintptr_t> pcs = profiler->TakeSamples();
  sampled->pcs.insert(sampled->pcs.end(), pcs.begin(), pcs.end());
  return status;
}

void DefineProfiling(nb::module_& m) {
  m.def("start_profile", &StartProfile, nb::arg("hz"));
  m.def("stop_profile", &StopProfile);
  m.attr("INPUT_STAGE") = std::string(kInputStage);

  nb::class_<PyProfile>(m, "Profile")
      .def_prop_ro("hz", &PyProfile::hz)
      .def("functions", &PyProfile::Functions)
      .def("table", &PyProfile::Table, nb::arg("index"), nb::arg("stage"))
      .def("folded", &PyProfile::Folded, nb::arg("index"), nb::arg("stage"))
      .def("lines", &PyProfile::Lines, nb::arg("index"), nb::arg("stage"))
      .def("input_ops", &PyProfile::InputOps, nb::arg("index"));
}

}  // namespace kiln::python
