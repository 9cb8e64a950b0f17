//===- console_tracer.cc - Dispatch lines and a summary on the console ----===//

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "kiln/printable.h"
#include "trace/providers.h"

namespace kiln {
namespace {

/// Lines shown around an entry with --trace-print-source.
constexpr uint32_t kLinesBefore = 2;
constexpr uint32_t kLinesAfter = 12;
/// Digits line numbers are aligned to.
constexpr size_t kLineNumberWidth = 5;

class ConsoleTracer final : public Tracer {
 public:
  ConsoleTracer(TraceOptions options, FILE* out)
      : Tracer(/*enabled=*/true, std::move(options)), out_(out) {}

  void PublishSources(const PublishedSources&) override {}
  void UnpublishSources(const PublishedSources&) override {}

  uint64_t BeginZone(const TraceSite&) override { return NowNanoseconds(); }

  void EndZone(const TraceSite& site, uint64_t token) override {
    const uint64_t nanoseconds = NowNanoseconds() - token;
    if (site.kind != ZoneKind::kDispatch) return;
    std::lock_guard<std::mutex> lock(mutex_);
    // Line 0: the site names an executable, not a place in a file.
    char line[16] = "";
    if (site.line != 0) std::snprintf(line, sizeof(line), ":%u", site.line);
    // Names and files come from the module: escaped (kiln/printable.h).
    std::fprintf(out_, "[kiln] %-48s %10.2f us  %ux%ux%u  %s%s\n",
                 Printable(site.name).c_str(), nanoseconds / 1e3,
                 site.workgroup_count[0], site.workgroup_count[1],
                 site.workgroup_count[2], Printable(site.file).c_str(), line);
    Stats& stats = stats_[std::string(site.name)];
    if (stats.count == 0) order_.push_back(std::string(site.name));
    ++stats.count;
    stats.nanoseconds += nanoseconds;
    if (options().print_source && stats.count == 1) PrintSource(site);
  }

  Status Flush() override {
    std::lock_guard<std::mutex> lock(mutex_);
    // No dispatch ran (e.g. the tool failed before the first): an empty
    // table would only stand between the user and the error.
    if (stats_.empty()) return OkStatus();
    uint64_t total = 0;
    for (const auto& [name, stats] : stats_) total += stats.nanoseconds;
    std::vector<const std::string*> names;
    for (const std::string& name : order_) names.push_back(&name);
    std::stable_sort(names.begin(), names.end(),
                     [&](const std::string* a, const std::string* b) {
                       return stats_[*a].nanoseconds > stats_[*b].nanoseconds;
                     });
    std::fprintf(out_, "\n[kiln] %-48s %7s %12s %12s %7s\n", "export", "count",
                 "total ms", "mean us", "share");
    for (const std::string* name : names) {
      const Stats& stats = stats_[*name];
      std::fprintf(out_, "[kiln] %-48s %7" PRIu64 " %12.3f %12.2f %6.1f%%\n",
                   Printable(*name).c_str(), stats.count,
                   stats.nanoseconds / 1e6,
                   stats.nanoseconds / 1e3 / stats.count,
                   total ? 100.0 * stats.nanoseconds / total : 0.0);
    }
    std::fprintf(out_, "[kiln] %-48s %7" PRIu64 " %12.3f\n", "all dispatches",
                 DispatchCount(), total / 1e6);
    std::fflush(out_);
    return OkStatus();
  }

 private:
  struct Stats {
    uint64_t count = 0;
    uint64_t nanoseconds = 0;
  };

  uint64_t DispatchCount() const {
    uint64_t count = 0;
    for (const auto& [name, stats] : stats_) count += stats.count;
    return count;
  }

  /// The lines around the entry, with the entry marked; the text comes from
  /// the module's embedded sources (no file on disk is read).
  void PrintSource(const TraceSite& site) {
    if (site.line == 0) return;
    StatusOr<std::string> text = ReadPublishedSource(site.file);
    if (!text.ok()) {
      std::fprintf(out_, "[kiln]   (no embedded text for %s: %s)\n",
                   Printable(site.file).c_str(),
                   Printable(text.status().message()).c_str());
      return;
    }
    const uint32_t first =
        site.line > kLinesBefore ? site.line - kLinesBefore : 1;
    ForEachNumberedLine(FindLineWindow(*text, first, site.line + kLinesAfter),
                        site.line, kLineNumberWidth,
                        [this](const std::string& line) {
                          std::fprintf(out_, "[kiln] %s\n", line.c_str());
                        });
  }

  FILE* out_;
  std::mutex mutex_;
  std::unordered_map<std::string, Stats> stats_;
  std::vector<std::string> order_;
};

}  // namespace

std::unique_ptr<Tracer> CreateConsoleTracer(TraceOptions options, FILE* out) {
  return std::make_unique<ConsoleTracer>(std::move(options), out);
}

std::unique_ptr<Tracer> CreateConsoleTracer(TraceOptions options) {
  return CreateConsoleTracer(std::move(options), stderr);
}

}  // namespace kiln
