//===- trace_test.cc - Tracing providers, zones and published sources -----===//

#include "kiln/trace.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "base/allocation_counter.h"
#include "gtest/gtest.h"
#include "kiln/context.h"
#include "kiln/module.h"
#include "kiln/profiler.h"
#include "kiln/thread_pool.h"
#include "module/module_test_util.h"
#include "module/source_registry.h"
#include "nlohmann/json.hpp"
#include "trace/providers.h"

namespace kiln {
namespace {

using namespace kiln::testing;
using json = nlohmann::json;

fb::ModuleT DebugSpec() { return DebugModuleSpec(KILN_TEST_LIBRARY_1); }

std::shared_ptr<const Module> MustLoad(const fb::ModuleT& spec) {
  std::vector<uint8_t> bytes = BuildModule(spec);
  StatusOr<std::shared_ptr<const Module>> module = Module::LoadFromMemory(
      bytes.data(), bytes.size(), Module::MemoryMode::kCopy);
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  return module.ok() ? *module : nullptr;
}

/// Installs a tracer for the test's lifetime.
class TracerScope {
 public:
  explicit TracerScope(Tracer* tracer) { SetTracer(tracer); }
  ~TracerScope() { SetTracer(nullptr); }
};

/// Runs `main` of the debug module: one dispatch of add_f32.
void RunMain(const std::shared_ptr<const Module>& module, ThreadPool* pool) {
  Context context(module, pool);
  StatusOr<Tensor> a = Tensor::Allocate(ElementType::kF32, {8});
  StatusOr<Tensor> b = Tensor::Allocate(ElementType::kF32, {8});
  ASSERT_TRUE(a.ok() && b.ok());
  for (int i = 0; i < 8; ++i) {
    a->mutable_data_as<float>()[i] = i;
    b->mutable_data_as<float>()[i] = 10 * i;
  }
  std::vector<Tensor> outputs;
  Status status = context.Call("main", {*a, *b}, &outputs);
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].data_as<float>()[7], 77.0f);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// A temporary file removed at the end of the test.
struct TempFile {
  TempFile() {
    char name[] = "/tmp/kiln_trace_test_XXXXXX";
    const int fd = ::mkstemp(name);
    if (fd >= 0) ::close(fd);
    path = name;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

//===----------------------------------------------------------------------===//
// What dispatch zones point at
//===----------------------------------------------------------------------===//

TEST(DispatchSiteTest, StageSelectionAndFallbacks) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  StatusOr<ExportView> add = module->FindExport("add_f32");
  StatusOr<ExportView> fail = module->FindExport("fail");
  StatusOr<ExportView> ids = module->FindExport("workgroup_ids");
  ASSERT_TRUE(add.ok() && fail.ok() && ids.ok());
  TraceOptions options;

  // Default: the earliest captured stage.
  TraceSite site = MakeDispatchSite(*module, *add, options);
  EXPECT_EQ(site.file, "dbg_ex_cpu.0.source.mlir");
  EXPECT_EQ(site.line, 4u);
  EXPECT_EQ(site.stage, "0.source");
  EXPECT_EQ(site.name, "add_f32");
  EXPECT_EQ(site.workgroup_count[0], 4u);
  EXPECT_EQ(site.input_location.ToString(), "model.mlir:2:8");

  // A chosen stage; every site built has an id of its own.
  options.stage = "2.translated";
  const uint64_t first_id = site.id;
  site = MakeDispatchSite(*module, *add, options);
  EXPECT_NE(first_id, 0u);
  EXPECT_NE(site.id, 0u);
  EXPECT_NE(site.id, first_id);
  EXPECT_EQ(site.file, "dbg_ex_cpu.2.translated.mlir");
  EXPECT_EQ(site.line, 120u);
  EXPECT_EQ(site.stage, "2.translated");

  // Not captured for this export: its input location.
  site = MakeDispatchSite(*module, *fail, options);
  EXPECT_EQ(site.file, "model.mlir");
  EXPECT_EQ(site.line, 3u);
  EXPECT_EQ(site.stage, "");

  // Nothing recorded: the executable's name.
  site = MakeDispatchSite(*module, *ids, options);
  EXPECT_EQ(site.file, "ex");
  EXPECT_EQ(site.line, 0u);

  // A stage the module does not know: input location.
  options.stage = "9.nowhere";
  site = MakeDispatchSite(*module, *add, options);
  EXPECT_EQ(site.file, "model.mlir");
  EXPECT_EQ(site.line, 2u);
}

// The texts a size-limited viewer (Tracy) would not show: each text zones
// point at once, whatever number of exports point at it.
TEST(DispatchSiteTest, ZoneTextsLargerThanALimit) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  TraceOptions options;
  std::vector<SourceFileView> found =
      FindZoneTextsLargerThan(*module, options, 0);
  ASSERT_EQ(found.size(), 1u);  // add_f32 and fail; workgroup_ids has none
  EXPECT_EQ(found[0].path, "dbg_ex_cpu.0.source.mlir");
  const uint64_t size = found[0].uncompressed_size;
  EXPECT_EQ(FindZoneTextsLargerThan(*module, options, size - 1).size(), 1u);
  EXPECT_TRUE(FindZoneTextsLargerThan(*module, options, size).empty());

  options.stage = "2.translated";
  found = FindZoneTextsLargerThan(*module, options, 0);
  std::vector<std::string_view> paths;
  for (const SourceFileView& file : found) paths.push_back(file.path);
  EXPECT_NE(
      std::find(paths.begin(), paths.end(), "dbg_ex_cpu.2.translated.mlir"),
      paths.end());
  EXPECT_EQ(std::find(paths.begin(), paths.end(), "dbg_ex_cpu.0.source.mlir"),
            paths.end());
}

//===----------------------------------------------------------------------===//
// Zones nest and close
//===----------------------------------------------------------------------===//

/// Records every begin and end, per thread.
class RecordingTracer final : public Tracer {
 public:
  explicit RecordingTracer(TraceOptions options)
      : Tracer(/*enabled=*/true, std::move(options)) {}
  void PublishSources(const PublishedSources&) override {}
  void UnpublishSources(const PublishedSources&) override {}
  uint64_t BeginZone(const TraceSite& site) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& stack = stacks_[std::this_thread::get_id()];
    stack.push_back(site.kind);
    log_.push_back(
        {true, site.kind, std::string(site.name), std::this_thread::get_id()});
    return ++next_token_;
  }
  void EndZone(const TraceSite& site, uint64_t) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& stack = stacks_[std::this_thread::get_id()];
    EXPECT_FALSE(stack.empty());
    if (!stack.empty()) {
      EXPECT_EQ(stack.back(), site.kind) << "zones must close in order";
      stack.pop_back();
    }
    log_.push_back(
        {false, site.kind, std::string(site.name), std::this_thread::get_id()});
  }
  Status Flush() override { return OkStatus(); }

  struct Entry {
    bool begin;
    ZoneKind kind;
    std::string name;
    std::thread::id thread;
  };
  std::vector<Entry> log() {
    std::lock_guard<std::mutex> lock(mutex_);
    return log_;
  }
  bool AllClosed() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [thread, stack] : stacks_)
      if (!stack.empty()) return false;
    return true;
  }

 private:
  std::mutex mutex_;
  std::map<std::thread::id, std::vector<ZoneKind>> stacks_;
  std::vector<Entry> log_;
  uint64_t next_token_ = 0;
};

TEST(ZoneTest, ZonesNestAndClose) {
  TraceOptions options;
  options.workgroup_zones = true;
  RecordingTracer tracer(options);
  TracerScope scope(&tracer);
  std::vector<uint8_t> bytes = BuildModule(DebugSpec());
  {
    ThreadPool pool(4);
    StatusOr<std::shared_ptr<const Module>> module = Module::LoadFromMemory(
        bytes.data(), bytes.size(), Module::MemoryMode::kCopy);
    ASSERT_TRUE(module.ok());
    RunMain(*module, &pool);
  }
  EXPECT_TRUE(tracer.AllClosed());
  std::vector<RecordingTracer::Entry> log = tracer.log();
  // On the calling thread: function { dispatch { workgroups? } }.
  const std::thread::id main = std::this_thread::get_id();
  std::vector<std::pair<bool, ZoneKind>> on_main;
  size_t worker_zones = 0;
  for (const auto& entry : log) {
    if (entry.thread == main) on_main.push_back({entry.begin, entry.kind});
    if (entry.kind == ZoneKind::kWorkgroups && entry.begin) {
      ++worker_zones;
      EXPECT_EQ(entry.name, "add_f32");
    }
  }
  ASSERT_GE(on_main.size(), 4u);
  EXPECT_EQ(on_main.front(), std::make_pair(true, ZoneKind::kFunction));
  EXPECT_EQ(on_main[1], std::make_pair(true, ZoneKind::kDispatch));
  EXPECT_EQ(on_main[on_main.size() - 2],
            std::make_pair(false, ZoneKind::kDispatch));
  EXPECT_EQ(on_main.back(), std::make_pair(false, ZoneKind::kFunction));
  // add_f32 runs 4 workgroups: at least one worker, at most four, took part.
  EXPECT_GE(worker_zones, 1u);
  EXPECT_LE(worker_zones, 4u);
}

//===----------------------------------------------------------------------===//
// Providers
//===----------------------------------------------------------------------===//

/// What the console provider prints, with the lines around each entry,
/// for `calls` calls of `module`'s main on `threads` threads.
std::string ConsoleOutput(const std::shared_ptr<const Module>& module,
                          int threads, int calls) {
  TempFile out;
  FILE* file = std::fopen(out.path.c_str(), "w");
  EXPECT_TRUE(file);
  if (!file) return "";
  TraceOptions options;
  options.print_source = true;
  std::unique_ptr<Tracer> tracer = CreateConsoleTracer(options, file);
  {
    TracerScope scope(tracer.get());
    ThreadPool pool(threads);
    for (int i = 0; i < calls; ++i) RunMain(module, &pool);
    EXPECT_TRUE(tracer->Flush().ok());
  }
  std::fclose(file);
  return ReadFile(out.path);
}

TEST(ConsoleTracerTest, LinePerDispatchSummaryAndSource) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  const std::string text = ConsoleOutput(module, /*threads=*/2, /*calls=*/2);
  // Two dispatch lines, each naming the export, its workgroups and file:line.
  size_t lines = 0;
  for (size_t at = text.find("[kiln] add_f32 "); at != std::string::npos;
       at = text.find("[kiln] add_f32 ", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 3u) << text;  // two dispatches and the summary row
  EXPECT_NE(text.find("4x1x1  dbg_ex_cpu.0.source.mlir:4"), std::string::npos)
      << text;
  // The code around the entry, printed once, from the embedded text.
  EXPECT_NE(text.find(">     4  source line 4: %4 = arith.addf"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(">     4  source line 4"),
            text.rfind(">     4  source line 4"));
  // The summary: count 2 for the export, and all dispatches.
  EXPECT_NE(text.find("export"), std::string::npos);
  EXPECT_NE(text.find("all dispatches"), std::string::npos) << text;
  const size_t summary = text.find("\n[kiln] add_f32", text.find("export"));
  ASSERT_NE(summary, std::string::npos);
  std::istringstream row(text.substr(summary + 16));
  uint64_t count = 0;
  row >> count;
  EXPECT_EQ(count, 2u) << text.substr(summary);
}

// Paths and texts come from the module: a control sequence in either
// reaches the console escaped.
TEST(ConsoleTracerTest, ModuleStringsArePrintedEscaped) {
  fb::ModuleT spec = DebugSpec();
  spec.source_files[kStage0File]->path = "dbg\x1b[2J.mlir";  // still first
  std::string stage0;
  for (int line = 1; line <= 40; ++line) {
    stage0 += line == 4 ? "\x1b[31mred\tline\n" : "line\n";
  }
  spec.source_contents[spec.source_files[kStage0File]->content] =
      ZstdContent(stage0);
  std::shared_ptr<const Module> module = MustLoad(spec);
  ASSERT_TRUE(module);
  const std::string text = ConsoleOutput(module, /*threads=*/1, /*calls=*/1);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_NE(text.find("4x1x1  dbg\\x1b[2J.mlir:4\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find(">     4  \\x1b[31mred\tline\n"), std::string::npos)
      << text;
}

// Nothing dispatched (a tool that failed early, say): no empty summary.
TEST(ConsoleTracerTest, NoSummaryWithoutDispatches) {
  TempFile out;
  FILE* file = std::fopen(out.path.c_str(), "w");
  ASSERT_TRUE(file);
  std::unique_ptr<Tracer> tracer = CreateConsoleTracer({}, file);
  {
    TracerScope scope(tracer.get());
    std::shared_ptr<const Module> module = MustLoad(DebugSpec());
    ASSERT_TRUE(module);
    ASSERT_TRUE(tracer->Flush().ok());
  }
  std::fclose(file);
  EXPECT_EQ(ReadFile(out.path), "");
}

TEST(ChromeTracerTest, FileParsesAndPointsIntoEmbeddedTexts) {
  TempFile trace;
  TraceOptions options;
  options.workgroup_zones = true;
  options.stage = "1.configured";
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, options);
  {
    TracerScope scope(tracer.get());
    std::shared_ptr<const Module> module = MustLoad(DebugSpec());
    ASSERT_TRUE(module);
    ThreadPool pool(3);
    RunMain(module, &pool);
  }
  // The module is unloaded by now: the texts were taken while it lived.
  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  ASSERT_TRUE(doc["traceEvents"].is_array());
  int dispatches = 0, functions = 0, workgroups = 0, names = 0;
  for (const json& event : doc["traceEvents"]) {
    if (event["ph"] == "M") {
      ++names;
      continue;
    }
    ASSERT_EQ(event["ph"], "X");
    EXPECT_TRUE(event["ts"].is_number());
    EXPECT_GE(event["dur"].get<double>(), 0.0);
    EXPECT_TRUE(event["tid"].is_number_integer());
    // A file argument, where there is one, names something.
    if (event["args"].contains("file")) {
      EXPECT_NE(event["args"]["file"], "") << event.dump();
    }
    if (event["cat"] == "function") {
      ++functions;
      EXPECT_FALSE(event["args"].contains("file")) << event.dump();
    }
    if (event["cat"] == "workgroups") ++workgroups;
    if (event["cat"] != "dispatch") continue;
    ++dispatches;
    const json& args = event["args"];
    EXPECT_EQ(args["export"], "add_f32");
    EXPECT_EQ(args["stage"], "1.configured");
    EXPECT_EQ(args["workgroup_count"], json({4, 1, 1}));
    EXPECT_EQ(args["input_location"], "model.mlir:2:8");
    // file:line names an embedded text whose line is the entry.
    const std::string file = args["file"];
    const int line = args["line"];
    ASSERT_TRUE(doc["kilnSources"].contains(file)) << file;
    std::istringstream text(doc["kilnSources"][file].get<std::string>());
    std::string row;
    for (int i = 0; i < line; ++i) std::getline(text, row);
    EXPECT_EQ(row, "configured line 5: %5 = arith.addf %a, %b : f32");
  }
  EXPECT_EQ(dispatches, 1);
  EXPECT_EQ(functions, 1);
  EXPECT_GE(workgroups, 1);
  EXPECT_GE(names, 2);  // the process and at least one thread
  // Only the texts the events point at are embedded: the stage text and the
  // input file of the input location (model.mlir.orig is not).
  EXPECT_EQ(doc["kilnSources"].size(), 2u);
  EXPECT_EQ(doc["kilnSources"]["model.mlir"], Model());
}

TEST(ChromeTracerTest, ProfileShowsEachExportsHottestLinesWithTheirTexts) {
  TempFile trace;
  TraceOptions options;
  options.stage = "1.configured";
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, options);
  {
    TracerScope scope(tracer.get());
    std::shared_ptr<const Module> module = MustLoad(DebugSpec());
    ASSERT_TRUE(module);
    ThreadPool pool(1);
    RunMain(module, &pool);
    // As the tools hand it over: lines of 2.translated, which no event
    // points at, and of the input; 12 lines, of which 10 are shown.
    Profile profile;
    profile.samples = 40;
    ProfileExport& ex = profile.exports.emplace_back();
    ex.export_view = module->GetExport(0, 0).value();
    ex.samples = 30;
    const std::string_view translated = module->sources()[kStage2File].path;
    for (uint32_t line = 121; line < 131; ++line) {
      ex.lines.push_back({kStage2File, line, 2, translated});
    }
    ex.lines.insert(ex.lines.begin(), {kModelFile, 2, 9, "model.mlir"});
    ex.lines.push_back({kNoSource, 0, 1, {}});
    profile.sampling =
        ProfileSampling{ProfileClock::kCpuTimeTimer, 1000, 2, 0.16};
    tracer->AddProfile(*module, profile);
  }
  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  std::vector<json> instants;
  for (const json& event : doc["traceEvents"]) {
    if (event["cat"] == "kiln.profile") instants.push_back(event);
  }
  ASSERT_EQ(instants.size(), 1u);
  EXPECT_EQ(instants[0]["name"], "add_f32");
  EXPECT_EQ(instants[0]["ph"], "i");
  const json& args = instants[0]["args"];
  EXPECT_EQ(args, doc["kilnProfile"]["add_f32"]);
  EXPECT_EQ(args["samples"], 30);
  EXPECT_EQ(args["of"], 40);
  // How they were taken: 40 samples in 0.16 s of CPU time.
  EXPECT_EQ(doc["kilnSampling"], json({{"clock", "timer"},
                                       {"hz", 1000},
                                       {"hz_reached", 250.0},
                                       {"threads", 2},
                                       {"cpu_seconds", 0.16},
                                       {"samples", 40},
                                       {"dropped_samples", 0}}));
  ASSERT_EQ(args["lines"].size(), kProfileTopLines);
  EXPECT_EQ(args["lines"][0],
            json({{"path", "model.mlir"},
                  {"line", 2},
                  {"samples", 9},
                  {"text", "%0 = linalg.add ins(%a, %b) outs(%e)"}}));
  EXPECT_EQ(args["lines"][1]["path"], "dbg_ex_cpu.2.translated.mlir");
  EXPECT_EQ(args["lines"][1]["line"], 121);
  EXPECT_EQ(args["lines"][1]["text"],
            "translated line 121: %121 = arith.addf %a, %b : f32");
  // The texts the profile names are embedded beside those the events name.
  EXPECT_TRUE(
      doc["kilnSources"].contains(std::string("dbg_ex_cpu.2.translated.mlir")));
  EXPECT_TRUE(doc["kilnSources"].contains("dbg_ex_cpu.1.configured.mlir"));
  EXPECT_EQ(doc["kilnSources"].size(), 3u);

  // A track per input op, as long as its CPU time (4 ms a sample here), and
  // one for the samples on no op's line; together, the export's samples.
  std::map<std::string, json> tracks;
  for (const json& event : doc["traceEvents"]) {
    if (event["cat"] == "kiln.input_op") {
      EXPECT_EQ(event["pid"], 2);
      tracks[event["name"]] = event;
    }
  }
  ASSERT_EQ(tracks.size(), 2u);
  const json& add = tracks["linalg.add at model.mlir:2:8"];
  EXPECT_EQ(add["args"]["op_type"], "linalg.add");
  EXPECT_EQ(add["args"]["dispatches"], json({"add_f32"}));
  EXPECT_DOUBLE_EQ(add["dur"].get<double>(),
                   4000.0 * add["args"]["samples"].get<int>());
  const json& unplaced = tracks["(on no input op's line)"];
  EXPECT_EQ(add["args"]["samples"].get<int>() +
                unplaced["args"]["samples"].get<int>(),
            30);
}

// Load and function zones point at no file: their events carry no "file"
// argument rather than an empty one.
TEST(ChromeTracerTest, LoadAndFunctionEventsNameNoFile) {
  TempFile trace, module_file;
  {
    const std::vector<uint8_t> bytes = BuildModule(DebugSpec());
    std::ofstream out(module_file.path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, {});
  {
    TracerScope scope(tracer.get());
    StatusOr<std::shared_ptr<const Module>> module =
        Module::Load(module_file.path);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    ThreadPool pool(1);
    RunMain(*module, &pool);
  }
  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  int loads = 0, functions = 0;
  for (const json& event : doc["traceEvents"]) {
    if (event["ph"] != "X") continue;
    if (event["cat"] == "load") {
      ++loads;
      EXPECT_EQ(event["name"], module_file.path);
      EXPECT_EQ(event["args"], json::object()) << event.dump();
    }
    if (event["cat"] == "function") {
      ++functions;
      EXPECT_EQ(event["name"], "main");
      EXPECT_EQ(event["args"], json::object()) << event.dump();
    }
    if (event["cat"] == "dispatch") {
      EXPECT_EQ(event["args"]["file"], "dbg_ex_cpu.0.source.mlir");
    }
  }
  EXPECT_EQ(loads, 1);
  EXPECT_EQ(functions, 1);
}

// Events of one site share one copy of it; a site whose address is reused
// with other contents (a module unloaded, another loaded in its place) is
// copied again, so each event keeps what it showed when it ran.
TEST(ChromeTracerTest, EventsKeepTheirSiteWhenItsAddressIsReused) {
  TempFile trace;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, {});
  TraceSite site;
  site.kind = ZoneKind::kDispatch;
  std::string name = "first_export";
  site.name = name;
  site.file = "first.mlir";
  site.line = 3;
  site.workgroup_count[0] = 4;
  for (int i = 0; i < 2; ++i) tracer->EndZone(site, tracer->BeginZone(site));
  name = "other_export";  // same address, other contents
  site.line = 9;
  tracer->EndZone(site, tracer->BeginZone(site));
  ASSERT_TRUE(tracer->Flush().ok());

  json doc = json::parse(ReadFile(trace.path));
  std::vector<std::pair<std::string, int>> seen;
  for (const json& event : doc["traceEvents"]) {
    if (event["ph"] != "X") continue;
    seen.emplace_back(event["name"], event["args"]["line"]);
    EXPECT_EQ(event["args"]["workgroup_count"], json::parse("[4,1,1]"));
  }
  EXPECT_EQ(
      seen,
      (std::vector<std::pair<std::string, int>>{
          {"first_export", 3}, {"first_export", 3}, {"other_export", 9}}));
}

// A site with an id is known by its address and id: another id at the same
// address (a context's sites rebuilt where the last ones lived) is another
// site, copied anew.
TEST(ChromeTracerTest, SitesWithIdsAreKnownByAddressAndId) {
  TempFile trace;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, {});
  TraceSite site;
  site.kind = ZoneKind::kDispatch;
  site.id = 11;
  std::string name = "first_export";
  site.name = name;
  site.line = 3;
  for (int i = 0; i < 2; ++i) tracer->EndZone(site, tracer->BeginZone(site));
  name = "other_export";  // same address, other contents, other id
  site.line = 9;
  site.id = 12;
  tracer->EndZone(site, tracer->BeginZone(site));
  ASSERT_TRUE(tracer->Flush().ok());

  json doc = json::parse(ReadFile(trace.path));
  std::vector<std::pair<std::string, int>> seen;
  for (const json& event : doc["traceEvents"])
    if (event["ph"] == "X")
      seen.emplace_back(event["name"], event["args"]["line"]);
  EXPECT_EQ(
      seen,
      (std::vector<std::pair<std::string, int>>{
          {"first_export", 3}, {"first_export", 3}, {"other_export", 9}}));
}

// Events stream to the file while the run goes on (memory stays bounded),
// every one arrives, and each Flush leaves a complete file that later
// events extend.
TEST(ChromeTracerTest, EventsStreamAndEachFlushLeavesACompleteFile) {
  TempFile trace;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, {});
  TraceSite site;
  site.kind = ZoneKind::kDispatch;
  site.name = "streamed";
  site.file = "streamed.mlir";
  site.line = 7;
  // From 4 threads at once, so buffers fill and change hands concurrently.
  constexpr int kFirst = 1 << 16;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kFirst / 4; ++i)
        tracer->EndZone(site, tracer->BeginZone(site));
    });
  for (std::thread& thread : threads) thread.join();
  // Some full buffers were written before any Flush.
  EXPECT_GT(ReadFile(trace.path).size(), 0u);
  auto count_events = [&] {
    json doc = json::parse(ReadFile(trace.path));
    EXPECT_TRUE(doc.contains("kilnSources"));
    int events = 0;
    for (const json& event : doc["traceEvents"])
      if (event["ph"] == "X") {
        EXPECT_EQ(event["name"], "streamed");
        EXPECT_EQ(event["args"]["line"], 7);
        ++events;
      }
    return events;
  };
  ASSERT_TRUE(tracer->Flush().ok());
  EXPECT_EQ(count_events(), kFirst);
  for (int i = 0; i < 5; ++i) tracer->EndZone(site, tracer->BeginZone(site));
  ASSERT_TRUE(tracer->Flush().ok());
  EXPECT_EQ(count_events(), kFirst + 5);
}

// Each thread records into a buffer of its own: events a thread left in a
// buffer that was never full arrive at Flush even after the thread exited,
// each thread's under its own id and in the order they ended.
TEST(ChromeTracerTest, EventsOfExitedThreadsArriveInOrder) {
  TempFile trace;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, {});
  TraceSite site;
  site.kind = ZoneKind::kDispatch;
  site.name = "per_thread";
  // Not a multiple of any buffer size: every thread leaves a partial one.
  constexpr int kPerThread = 10007;
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i)
        tracer->EndZone(site, tracer->BeginZone(site));
    });
  for (std::thread& thread : threads) thread.join();
  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  std::map<int, std::vector<double>> begins;  // by tid
  for (const json& event : doc["traceEvents"])
    if (event["ph"] == "X") begins[event["tid"]].push_back(event["ts"]);
  ASSERT_EQ(begins.size(), 3u);
  for (const auto& [tid, ts] : begins) {
    EXPECT_EQ(ts.size(), size_t{kPerThread}) << "tid " << tid;
    EXPECT_TRUE(std::is_sorted(ts.begin(), ts.end())) << "tid " << tid;
  }
}

// A thread that exits hands its buffer back: threads that come and go one
// after another (a pool per request, say) keep memory bounded by those
// alive at once, and their events still arrive.
TEST(ChromeTracerTest, ExitedThreadsGiveTheirBuffersBack) {
  TempFile trace;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, {});
  TraceSite site;
  site.kind = ZoneKind::kDispatch;
  site.name = "short_lived";
  constexpr int kThreads = 200;
  const int64_t heap_before = HeapBytesInUse();
  for (int t = 0; t < kThreads; ++t) {
    std::thread([&] {
      for (int i = 0; i < 3; ++i)
        tracer->EndZone(site, tracer->BeginZone(site));
    }).join();
  }
  // A buffer kept per thread would be kThreads of them (about 40 MB).
  if (kHeapStatsAreReliable) {
    EXPECT_LT(HeapBytesInUse() - heap_before, int64_t{4} << 20);
  }
  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  int events = 0;
  for (const json& event : doc["traceEvents"])
    if (event["ph"] == "X") ++events;
  EXPECT_EQ(events, 3 * kThreads);
}

// A trace that cannot be written is an error at Flush, not a crash.
TEST(ChromeTracerTest, UnwritableFileIsAnError) {
  std::unique_ptr<Tracer> tracer =
      CreateChromeTracer("/nonexistent-dir/trace.json", {});
  TraceSite site;
  site.name = "x";
  tracer->EndZone(site, tracer->BeginZone(site));
  Status status = tracer->Flush();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("cannot write trace"), std::string::npos)
      << status.message();
}

TEST(TracerFactoryTest, Specs) {
  EXPECT_TRUE(CreateTracer("null", {}).ok());
  EXPECT_FALSE(CreateTracer("null", {}).value()->enabled());
  EXPECT_TRUE(CreateTracer("console", {}).value()->enabled());
  EXPECT_TRUE(CreateTracer("chrome=/tmp/x.json", {}).ok());
  EXPECT_EQ(CreateTracer("chrome", {}).status().message(),
            "--trace=chrome needs a file: --trace=chrome=/tmp/trace.json");
  EXPECT_NE(CreateTracer("perfetto", {})
                .status()
                .message()
                .find("unknown tracer 'perfetto'; choose one of null, console"),
            std::string::npos);
#ifndef KILN_HAVE_TRACY
  EXPECT_NE(CreateTracer("tracy", {}).status().message().find("no Tracy"),
            std::string::npos);
#endif
}

//===----------------------------------------------------------------------===//
// Published sources
//===----------------------------------------------------------------------===//

TEST(PublishTest, PublishingAllocatesNothing) {
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  TempFile trace;
  std::vector<std::unique_ptr<Tracer>> tracers;
  tracers.push_back(CreateTracer("null", {}).value());
  tracers.push_back(CreateTracer("console", {}).value());
  tracers.push_back(CreateTracer("chrome=" + trace.path, {}).value());
  for (const std::unique_ptr<Tracer>& tracer : tracers) {
    SourceRegistry::Entry published;
    published.sources.module = module.get();
    published.sources.table = &module->sources();
    published.sources.module_name = module->name();
    AllocationCounter counter;
    SourceRegistry::Global().Add(&published);
    tracer->PublishSources(published.sources);
    tracer->UnpublishSources(published.sources);
    SourceRegistry::Global().Remove(&published);
    EXPECT_EQ(counter.count(), 0u);
  }
  // Loading a module publishes too; the counter sees a load's allocations.
  AllocationCounter counter;
  std::shared_ptr<const Module> another = MustLoad(DebugSpec());
  EXPECT_GT(counter.count(), 0u);
}

TEST(PublishTest, LoadedModulesServeTheirOwnTexts) {
  fb::ModuleT first = DebugSpec();
  fb::ModuleT second = DebugSpec();
  second.name = "other";
  // As many lines as the stage locations it keeps name.
  const std::string other = Lines("other", 40);
  SetSources(&second, {{"other_ex_cpu.0.source.mlir", other},
                       {"dbg_ex_cpu.1.configured.mlir", Stage1()},
                       {"dbg_ex_cpu.2.translated.mlir", Stage2()},
                       {"model.mlir", Model()},
                       {"model.mlir.orig", Model()}});
  // Sorted after the others, the first stage's text moved to the end.
  const uint32_t last = second.source_files.size() - 1;
  for (auto& ex : Executables(second)[0]->exports) {
    for (auto& location : ex->stage_locations) {
      location->source =
          location->source == kStage0File ? last : location->source - 1;
    }
  }
  std::shared_ptr<const Module> a = MustLoad(first);
  std::shared_ptr<const Module> b = MustLoad(second);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(ReadPublishedSource("dbg_ex_cpu.0.source.mlir").value(), Stage0());
  EXPECT_EQ(ReadPublishedSource("other_ex_cpu.0.source.mlir").value(), other);
  b.reset();
  EXPECT_EQ(ReadPublishedSource("other_ex_cpu.0.source.mlir").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(ReadPublishedSource("dbg_ex_cpu.0.source.mlir").value(), Stage0());
  a.reset();
  EXPECT_EQ(ReadPublishedSource("dbg_ex_cpu.0.source.mlir").status().code(),
            StatusCode::kNotFound);
}

char* MallocForTest(size_t size) {
  return static_cast<char*>(std::malloc(size));
}

// A profiler thread keeps asking for a text while modules load and unload:
// every answer is the whole text or a refusal, never freed memory (run
// under ASan and TSan by make test-asan / test-tsan).
TEST(PublishTest, RequestsDuringAndAfterUnloadAreSafe) {
  std::vector<uint8_t> bytes = BuildModule(DebugSpec());
  std::atomic<bool> stop{false};
  std::atomic<int> served{0}, refused{0};
  std::thread profiler([&] {
    do {
      size_t size = 0;
      char* text = ReadPublishedSourceInto("dbg_ex_cpu.2.translated.mlir",
                                           MallocForTest, &size);
      if (text) {
        EXPECT_EQ(std::string(text, size), Stage2());
        ++served;
      } else {
        ++refused;
      }
      std::free(text);
    } while (!stop.load());
  });
  // Loads start once the profiler is asking.
  while (served.load() + refused.load() == 0) std::this_thread::yield();
  for (int round = 0; round < 200; ++round) {
    StatusOr<std::shared_ptr<const Module>> module = Module::LoadFromMemory(
        bytes.data(), bytes.size(), Module::MemoryMode::kCopy);
    // Not ASSERT: returning with the profiler thread running would abort.
    EXPECT_TRUE(module.ok()) << module.status().ToString();
    if (!module.ok()) break;
  }
  stop.store(true);
  profiler.join();
  EXPECT_GT(served.load() + refused.load(), 0);
  // After the last unload, the text is refused.
  size_t size = 0;
  EXPECT_EQ(ReadPublishedSourceInto("dbg_ex_cpu.2.translated.mlir",
                                    MallocForTest, &size),
            nullptr);
}

// Zones from every worker of a busy pool into one tracer (TSan-clean under
// make test-tsan).
TEST(ConcurrencyTest, ConcurrentZonesFromThePool) {
  TempFile trace;
  TraceOptions options;
  options.workgroup_zones = true;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, options);
  TracerScope scope(tracer.get());
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);
  ThreadPool pool(8);
  for (int i = 0; i < 50; ++i) RunMain(module, &pool);
  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  int dispatches = 0;
  for (const json& event : doc["traceEvents"])
    if (event["ph"] == "X" && event["cat"] == "dispatch") ++dispatches;
  EXPECT_EQ(dispatches, 50);
}

// One loaded module run from 8 threads at once, each with its own Context
// (and pool), every result checked, with a tracer recording every zone
// (TSan-clean under make test-tsan).
TEST(ConcurrencyTest, OneModuleFromEightThreadsWithTracing) {
  TempFile trace;
  TraceOptions options;
  options.workgroup_zones = true;
  std::unique_ptr<Tracer> tracer = CreateChromeTracer(trace.path, options);
  TracerScope scope(tracer.get());
  std::shared_ptr<const Module> module = MustLoad(DebugSpec());
  ASSERT_TRUE(module);

  constexpr int kThreads = 8;
  constexpr int kCalls = 50;
  std::atomic<int> wrong{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ThreadPool pool(t % 2 + 1);
      Context context(module, &pool);
      for (int call = 0; call < kCalls; ++call) {
        StatusOr<Tensor> a = Tensor::Allocate(ElementType::kF32, {8});
        StatusOr<Tensor> b = Tensor::Allocate(ElementType::kF32, {8});
        if (!a.ok() || !b.ok()) {
          ++failed;
          continue;
        }
        for (int i = 0; i < 8; ++i) {
          a->mutable_data_as<float>()[i] = float(t * 1000 + call);
          b->mutable_data_as<float>()[i] = float(i);
        }
        std::vector<Tensor> outputs;
        if (!context.Call("main", {*a, *b}, &outputs).ok() ||
            outputs.size() != 1) {
          ++failed;
          continue;
        }
        for (int i = 0; i < 8; ++i) {
          if (outputs[0].data_as<float>()[i] != float(t * 1000 + call + i))
            ++wrong;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(wrong.load(), 0);

  ASSERT_TRUE(tracer->Flush().ok());
  json doc = json::parse(ReadFile(trace.path));
  int dispatches = 0, functions = 0;
  std::set<int64_t> tids;
  for (const json& event : doc["traceEvents"]) {
    if (event["ph"] != "X") continue;
    if (event["cat"] == "dispatch") {
      ++dispatches;
      EXPECT_EQ(event["args"]["file"], "dbg_ex_cpu.0.source.mlir");
      EXPECT_EQ(event["args"]["line"], 4);
    }
    if (event["cat"] == "function") {
      ++functions;
      tids.insert(event["tid"].get<int64_t>());
    }
  }
  EXPECT_EQ(dispatches, kThreads * kCalls);
  EXPECT_EQ(functions, kThreads * kCalls);
  EXPECT_EQ(tids.size(), size_t{kThreads});  // each caller its own track
}

}  // namespace
}  // namespace kiln
